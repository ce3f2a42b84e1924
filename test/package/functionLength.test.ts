/**
 * No function of `src/` spans more than 150 lines (docs/architecture.md, Conventions). Biome's
 * `noExcessiveLinesPerFunction` checks the same limit but lets some through (it passed a function
 * of 166 lines made mostly of an object literal), so this check counts with the TypeScript
 * compiler: every function declaration, method, constructor, accessor, arrow function and
 * function expression, from its first line to its last, blank lines, comments and literals
 * included.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const MAX_LINES = 150;
const src = fileURLToPath(new URL('../../src', import.meta.url));

/** A function over the limit: where it starts and how many lines it spans. */
interface LongFunction {
  readonly file: string;
  readonly line: number;
  readonly name: string;
  readonly lines: number;
}

type FunctionNode =
  | ts.FunctionDeclaration
  | ts.MethodDeclaration
  | ts.ConstructorDeclaration
  | ts.AccessorDeclaration
  | ts.ArrowFunction
  | ts.FunctionExpression;

/** Whether a node is a function with a body (overload and abstract signatures have none). */
function isFunctionWithBody(node: ts.Node): node is FunctionNode {
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isAccessor(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node)) &&
    node.body !== undefined
  );
}

/** A name a reader finds the function by: its own, or that of what it is assigned to. */
function functionName(node: FunctionNode, file: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name !== undefined) return node.name.getText(file);
  const parent = node.parent;
  if (
    ts.isVariableDeclaration(parent) ||
    ts.isPropertyAssignment(parent) ||
    ts.isPropertyDeclaration(parent)
  ) {
    return parent.name.getText(file);
  }
  if (ts.isCallExpression(parent)) return `callback of ${parent.expression.getText(file)}`;
  return '(anonymous)';
}

/**
 * The functions of one source text that span more than `max` lines, outermost first.
 * @param fileName - the name reported
 * @param text - the TypeScript source
 * @param max - the most lines a function may span
 * @returns the functions over the limit
 */
function longFunctions(fileName: string, text: string, max: number): LongFunction[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunctionWithBody(node)) {
      // getStart leaves out the leading comments (TSDoc), which document the function and are
      // not part of it; a decorator or an `export` is.
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) {
        found.push({ file: fileName, line: first + 1, name: functionName(node, file), lines });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Every `.ts` file below `dir`, as paths relative to it, in a stable order. */
function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.split('\\').join('/'))
    .sort();
}

/** A function of `lines` lines in all, its body filled with statements. */
function functionOf(lines: number): string {
  return `export function filler(): number {\n${'  void 0;\n'.repeat(lines - 3)}  return 1;\n}\n`;
}

describe('the function length check', () => {
  test('reports a function of 151 lines and passes one of 150', () => {
    expect(functionOf(151).trimEnd().split('\n')).toHaveLength(151);
    expect(longFunctions('a.ts', functionOf(151), MAX_LINES)).toEqual([
      { file: 'a.ts', line: 1, name: 'filler', lines: 151 },
    ]);
    expect(longFunctions('a.ts', functionOf(150), MAX_LINES)).toEqual([]);
  });

  test('counts blank lines, comments and literals, and leaves out the TSDoc above', () => {
    const literal = `/**\n * Doc.\n */\nconst make = () => ({\n${'  a: 1,\n\n  // note\n'.repeat(50)}});\n`;
    expect(longFunctions('b.ts', literal, MAX_LINES)).toEqual([
      { file: 'b.ts', line: 4, name: 'make', lines: 152 },
    ]);
  });

  test('names methods, arrow functions in properties and callbacks, and reports nested ones', () => {
    const body = '    void 0;\n'.repeat(150);
    const source = [
      `class Box {\n  open(): void {\n${body}  }\n}`,
      `const api = {\n  list: () => {\n${body}  },\n};`,
      `[1].forEach(function () {\n${body}});`,
      `function outer() {\n  const inner = function () {\n${body}  };\n}`,
    ].join('\n');
    const names = longFunctions('c.ts', source, MAX_LINES).map((f) => f.name);
    expect(names).toEqual(['open', 'list', 'callback of [1].forEach', 'outer', 'inner']);
  });
});

describe(`src/ has no function over ${MAX_LINES} lines`, () => {
  test('every function, method, arrow function and function expression', () => {
    const found = typeScriptFiles(src).flatMap((f) =>
      longFunctions(f, readFileSync(join(src, f), 'utf8'), MAX_LINES),
    );
    const report = found.map((f) => `src/${f.file}:${f.line} ${f.name} (${f.lines} lines)`);
    expect(report).toEqual([]);
  });
});
