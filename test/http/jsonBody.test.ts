/**
 * The request body reader: a JSON array is parsed item by item, and that must read every body
 * exactly as `JSON.parse(new TextDecoder().decode(bytes))` does, the same value or a SyntaxError.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { JsonBodyLimitError, parseJsonBody } from '../../src/http/jsonBody.js';

const encode = (text: string) => new TextEncoder().encode(text);
const BOM = [0xef, 0xbb, 0xbf];

/** What the plain reading gives: the value as JSON text, or 'SyntaxError'. */
function plain(bytes: Uint8Array): string {
  try {
    return JSON.stringify(JSON.parse(new TextDecoder().decode(bytes)));
  } catch (err) {
    return (err as Error).name;
  }
}

function split(bytes: Uint8Array): string {
  try {
    return JSON.stringify(parseJsonBody(bytes));
  } catch (err) {
    return (err as Error).name;
  }
}

/** Bytes that matter to the split: structure, strings, escapes, spaces, BOMs, broken UTF-8. */
const noise = fc.constantFrom(
  ...[...'[]{}",:\\ \t\n\r0-1ae.'].map((ch) => [ch.charCodeAt(0)]),
  BOM,
  [0xc3, 0xa9], // é
  [0xef, 0xbc, 0xa2], // fullwidth B
  [0xf0, 0x9f, 0x98, 0x80], // an emoji
  [0x80],
  [0xc3],
  [0xff],
);

/** A JSON value as text, compact or indented, with or without a leading BOM. */
const jsonText = fc
  .tuple(
    fc.oneof(fc.array(fc.jsonValue()), fc.jsonValue()),
    fc.constantFrom(undefined, 0, 2, '\t'),
    fc.boolean(),
  )
  .map(([value, indent, bom]) => {
    const text = encode(JSON.stringify(value, null, indent));
    return bom ? Uint8Array.from([...BOM, ...text]) : text;
  });

/** Valid text with bytes inserted, removed or replaced at random places. */
const mutated = fc
  .tuple(
    jsonText,
    fc.array(fc.tuple(fc.nat(), fc.constantFrom('insert', 'remove', 'replace'), noise), {
      minLength: 1,
      maxLength: 4,
    }),
  )
  .map(([bytes, edits]) => {
    const out = [...bytes];
    for (const [at, kind, piece] of edits) {
      const i = out.length === 0 ? 0 : at % (out.length + 1);
      if (kind === 'insert') out.splice(i, 0, ...piece);
      else if (kind === 'remove') out.splice(i, 1);
      else out.splice(i, 1, ...piece);
    }
    return Uint8Array.from(out);
  });

describe('parseJsonBody', () => {
  test('reads valid JSON as JSON.parse does, arrays and other values, with a leading BOM', () => {
    fc.assert(
      fc.property(jsonText, (bytes) => {
        expect(split(bytes)).toBe(plain(bytes));
      }),
      { numRuns: 500 },
    );
  });

  test('accepts exactly what JSON.parse accepts, when valid bodies are broken at random', () => {
    fc.assert(
      fc.property(mutated, (bytes) => {
        expect(split(bytes)).toBe(plain(bytes));
      }),
      { numRuns: 3000 },
    );
  });

  test.each([
    ['an empty array', '[]', '[]'],
    ['spaces around and inside', ' \n[ 1 , [2,{"a":[3]}] ]\t', '[1,[2,{"a":[3]}]]'],
    ['escaped quotes and brackets in strings', '["a\\"],{", "\\\\"]', '["a\\"],{","\\\\"]'],
    ['a closing brace where a bracket belongs', '[1}2]', 'SyntaxError'],
    ['a brace closing an array item', '[[1}]', 'SyntaxError'],
    ['a missing item', '[1,,2]', 'SyntaxError'],
    ['a trailing comma', '[1,]', 'SyntaxError'],
    ['data after the array', '[1]]', 'SyntaxError'],
    ['an unterminated string', '["abc]', 'SyntaxError'],
    ['an unterminated array', '[1, 2', 'SyntaxError'],
    ['nothing', '', 'SyntaxError'],
    ['an object', '{"a": 1}', '{"a":1}'],
    ['two documents', '[1] [2]', 'SyntaxError'],
  ])('%s', (_name, text, expected) => {
    expect(split(encode(text))).toBe(expected);
    expect(plain(encode(text))).toBe(expected);
  });

  test('drops one leading BOM, not a second one nor one at the start of an item', () => {
    const cases: [number[], string][] = [
      [[...BOM, ...encode('[1]')], '[1]'],
      [[...BOM, ...BOM, ...encode('[1]')], 'SyntaxError'],
      [[...encode('['), ...BOM, ...encode('1]')], 'SyntaxError'],
      [[...encode('["'), ...BOM, ...encode('"]')], '["\uFEFF"]'],
    ];
    for (const [bytes, expected] of cases) {
      const body = Uint8Array.from(bytes);
      expect(split(body)).toBe(expected);
      expect(plain(body)).toBe(expected);
    }
  });

  test('replaces bytes that are not UTF-8 as TextDecoder does', () => {
    const body = Uint8Array.from([
      ...encode('["a'),
      0xc3,
      ...encode('", "'),
      0xff,
      0x80,
      ...encode('"]'),
    ]);
    expect(split(body)).toBe('["a\uFFFD","\uFFFD\uFFFD"]');
    expect(split(body)).toBe(plain(body));
  });

  test('keeps __proto__ and constructor keys as own data, as JSON.parse does', () => {
    const items = parseJsonBody(encode('[{"__proto__": {"x": 1}, "constructor": 2}]')) as object[];
    expect(Object.getPrototypeOf(items[0])).toBe(Object.prototype);
    expect(Object.keys(items[0] as object)).toEqual(['__proto__', 'constructor']);
    expect(({} as { x?: number }).x).toBeUndefined();
  });
});

describe('parseJsonBody with limits', () => {
  const limited = (text: string, items: number, depth: number) => {
    try {
      return JSON.stringify(parseJsonBody(encode(text), { items, depth }));
    } catch (err) {
      if (err instanceof JsonBodyLimitError) return `${err.limit} ${err.value} ${err.found ?? ''}`;
      return (err as Error).name;
    }
  };

  test('reads bodies within the limits as JSON.parse does', () => {
    fc.assert(
      fc.property(jsonText, (bytes) => {
        const value = plain(bytes);
        const read = (() => {
          try {
            return JSON.stringify(parseJsonBody(bytes, { items: 1e9, depth: 1e9 }));
          } catch (err) {
            return (err as Error).name;
          }
        })();
        expect(read).toBe(value);
      }),
      { numRuns: 300 },
    );
  });

  test.each([
    ['items at the limit', '[1,2,3]', 3, 5, '[1,2,3]'],
    ['one item past it, counted without parsing', '[1,2,3,4,[5,6],{"a":7}]', 3, 5, 'items 3 6'],
    ['past it, even when a later item is not JSON', '[1,2,3,4,oops]', 3, 5, 'items 3 5'],
    ['levels at the limit', '[[[1]]]', 10, 3, '[[[1]]]'],
    ['one level past it', '[[[[1]]]]', 10, 3, 'depth 3 '],
    [
      'brackets in strings do not count',
      '["[[[[[", {"a": "{{{{"}]',
      10,
      2,
      '["[[[[[",{"a":"{{{{"}]',
    ],
    ['an object nesting too deep', '{"a": {"b": {"c": {}}}}', 10, 3, 'depth 3 '],
    ['depth is checked before the JSON is', '[[[[[', 10, 3, 'depth 3 '],
  ])('%s', (_name, text, items, depth, expected) => {
    expect(limited(text, items, depth)).toBe(expected);
  });

  test('2.5 million tiny items or levels are refused', () => {
    const n = 2_500_000;
    expect(limited(`[${'0,'.repeat(n - 1)}0]`, 1000, 32)).toBe(`items 1000 ${n}`);
    expect(limited(`${'['.repeat(n)}${']'.repeat(n)}`, 1000, 32)).toBe('depth 32 ');
  });
});
