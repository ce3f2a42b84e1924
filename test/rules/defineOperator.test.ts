import { describe, expect, expectTypeOf, test } from 'vitest';
import {
  checkCondition,
  compileCondition,
  createOperatorRegistry,
  defineOperator,
  OperatorRegistry,
  registeredOperator,
} from '../../src/rules/index.js';
import { context } from './_fixtures.js';

const startsWith = defineOperator({
  name: 'startsWith',
  factType: 'string',
  valueType: 'string',
  evaluate: (fact, prefix) => fact.startsWith(prefix),
});
const between = defineOperator({
  name: 'between',
  factType: 'number?',
  valueType: 'number[]',
  evaluate: (fact, [low = 0, high = 0]) => fact !== undefined && low <= fact && fact <= high,
});
const operators = createOperatorRegistry([startsWith, between]);
const holds = (condition: unknown, ctx = context()) =>
  compileCondition(condition, { operators }).evaluate(ctx);
const issuesOf = (condition: unknown) =>
  checkCondition(condition, { operators }).map((issue) => `${issue.code} at ${issue.path}`);

describe('a custom operator', () => {
  test('decides comparisons once registered', () => {
    expect(
      holds({ fact: 'transaction.merchant.name', operator: 'startsWith', value: 'Coffee' }),
    ).toBe(true);
    expect(holds({ fact: 'transaction.merchant.name', operator: 'startsWith', value: 'Tea' })).toBe(
      false,
    );
  });
  test('takes fact references as values', () => {
    const leaf = {
      fact: 'transaction.location.city',
      operator: 'startsWith',
      value: { fact: 'transaction.location.city' },
    };
    expect(holds(leaf)).toBe(true);
  });
  test('receives undefined for a number? fact when it declares number?', () => {
    const leaf = {
      fact: 'history.days_since_last_merchant_purchase',
      operator: 'between',
      value: [1, 7],
    };
    expect(holds(leaf)).toBe(true);
    const none = context({ history: { days_since_last_merchant_purchase: undefined } });
    expect(holds(leaf, none)).toBe(false);
  });
  test('is unknown to conditions compiled without its registry', () => {
    const leaf = { fact: 'transaction.merchant.name', operator: 'startsWith', value: 'C' };
    expect(checkCondition(leaf).map((issue) => issue.code)).toEqual(['unknown_operator']);
  });
  test('rejects a fact of another type, at the operator', () => {
    expect(issuesOf({ fact: 'transaction.amount', operator: 'startsWith', value: '1' })).toEqual([
      'type_mismatch at conditions.operator',
    ]);
  });
  test('rejects a literal value of another type', () => {
    expect(issuesOf({ fact: 'customer.age', operator: 'between', value: [1, '9'] })).toEqual([
      'type_mismatch at conditions.value',
    ]);
  });
  test('rejects a fact reference of another type', () => {
    const leaf = {
      fact: 'customer.gender',
      operator: 'startsWith',
      value: { fact: 'customer.age' },
    };
    expect(issuesOf(leaf)).toEqual(['type_mismatch at conditions.value']);
  });
  test('declaring factType number refuses number? facts, which may be undefined', () => {
    const double = defineOperator({
      name: 'isDouble',
      factType: 'number',
      valueType: 'number',
      evaluate: (fact, value) => fact === 2 * value,
    });
    const leaf = {
      fact: 'history.days_since_last_merchant_purchase',
      operator: 'isDouble',
      value: 1,
    };
    const [issue] = checkCondition(leaf, { operators: createOperatorRegistry([double]) });
    expect(issue?.message).toContain('takes a number as its fact');
    expect(issue?.message).toContain('a number or undefined');
  });
  test('without declared types, accepts any fact and any value', () => {
    const always = defineOperator({ name: 'always', evaluate: () => true });
    const leaf = { fact: 'customer.gender', operator: 'always', value: { any: 'json' } };
    expect(
      compileCondition(leaf, { operators: createOperatorRegistry([always]) }).evaluate(context()),
    ).toBe(true);
  });
  test('counts only true as true, as json-rules-engine does', () => {
    const truthy = defineOperator({ name: 'truthy', evaluate: () => 1 as unknown as boolean });
    const leaf = { fact: 'customer.gender', operator: 'truthy', value: 0 };
    expect(
      compileCondition(leaf, { operators: createOperatorRegistry([truthy]) }).evaluate(context()),
    ).toBe(false);
  });
  test('types its evaluate from the declared operand types', () => {
    defineOperator({
      name: 'typed',
      factType: 'number?',
      valueType: 'string[]',
      evaluate: (fact, value) => {
        expectTypeOf(fact).toEqualTypeOf<number | undefined>();
        expectTypeOf(value).toEqualTypeOf<readonly string[]>();
        return true;
      },
    });
  });
  test('needs a name and an evaluate function', () => {
    expect(() => defineOperator({ name: '', evaluate: () => true })).toThrow('needs a name');
    const noEvaluate = { name: 'x' } as unknown as Parameters<typeof defineOperator>[0];
    expect(() => defineOperator(noEvaluate)).toThrow('needs an evaluate function');
  });
  test('rejects a key the definition does not have, naming the nearest one', () => {
    const misspelt = { name: 'odd', valuetype: 'number', evaluate: () => true };
    expect(() => defineOperator(misspelt as never)).toThrow(
      new TypeError(
        "defineOperator definition: unknown option 'valuetype'; did you mean 'valueType'? " +
          '(known: name, factType, valueType, evaluate)',
      ),
    );
  });
  test('rejects an operand type that is not one', () => {
    expect(() =>
      defineOperator({ name: 'odd', factType: 'integer' as never, evaluate: () => true }),
    ).toThrow(
      new TypeError(
        `Operator "odd": factType must be one of 'string', 'number', 'number?', 'boolean', ` +
          `'string[]', 'number[]', 'unknown', got the string "integer"`,
      ),
    );
  });
});

describe('compileCondition and checkCondition options', () => {
  test('reject a key that is not an option, naming the nearest one', () => {
    const leaf = { fact: 'transaction.hour', operator: 'lessThan', value: 10 };
    expect(() => compileCondition(leaf, { operator: operators } as never)).toThrow(
      new TypeError(
        "compileCondition options: unknown option 'operator'; did you mean 'operators'? " +
          '(known: operators, path)',
      ),
    );
    expect(() => checkCondition(leaf, { paht: 'x' } as never)).toThrow(
      /^compileCondition options: unknown option 'paht'; did you mean 'path'\?/,
    );
  });
});

describe('createOperatorRegistry', () => {
  test('holds the built-ins, then the custom operators', () => {
    expect(operators.names.slice(-2)).toEqual(['startsWith', 'between']);
    expect(registeredOperator(operators, 'lessThan')?.name).toBe('lessThan');
    expect(registeredOperator(operators, 'startsWith')).toBe(startsWith);
    expect(registeredOperator(operators, 'toString')).toBeUndefined();
  });
  test('refuses a name that is taken by a built-in', () => {
    const equal = defineOperator({ name: 'equal', evaluate: () => true });
    expect(() => createOperatorRegistry([equal])).toThrow('Operator "equal" is already registered');
  });
  test('refuses the same name twice', () => {
    expect(() => createOperatorRegistry([startsWith, startsWith])).toThrow(
      '"startsWith" is already',
    );
  });
  test('is immutable, and each call makes a registry of its own', () => {
    const odd = defineOperator({ name: 'odd', factType: 'number', evaluate: (n) => n % 2 === 1 });
    const more = createOperatorRegistry([startsWith, between, odd]);
    expect(registeredOperator(more, 'odd')).toBe(odd);
    expect(registeredOperator(operators, 'odd')).toBeUndefined();
    expect(Object.isFrozen(operators)).toBe(true);
    expect(Object.isFrozen(operators.names)).toBe(true);
  });
  test('shows its names and nothing else: the compiler reads the operators', () => {
    expect(operators).toBeInstanceOf(OperatorRegistry);
    expect(Object.keys(operators)).toEqual(['names']);
  });
  test('is what compiling takes as operators: a look-alike object is refused', () => {
    const lookAlike = { names: operators.names, get: (name: string) => name };
    expect(() => compileCondition({ all: [] }, { operators: lookAlike as never })).toThrow(
      new TypeError('operators must be a registry from createOperatorRegistry, got an object'),
    );
  });
  test('refuses what is not an operator', () => {
    expect(() => createOperatorRegistry([{ name: 'x' } as never])).toThrow('Not an operator');
  });
  test('refuses operators that are not in a list', () => {
    expect(() => createOperatorRegistry(startsWith as never)).toThrow(
      new TypeError('createOperatorRegistry takes a list of operators, got an object'),
    );
  });
});
