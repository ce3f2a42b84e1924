/**
 * Differential tests against json-rules-engine 7.x: on type-correct conditions our compiled
 * closures must decide exactly as the engine does with `allowUndefinedFacts: true`.
 */
import fc from 'fast-check';
import { Engine } from 'json-rules-engine';
import { describe, expect, test } from 'vitest';
import { builtInOperators, compileCondition, type FactContext } from '../../src/rules/index.js';
import { condition, factContext } from './_arbitraries.js';

async function engineDecides(jre: Record<string, unknown>, contexts: readonly FactContext[]) {
  const engine = new Engine([], { allowUndefinedFacts: true });
  engine.addRule({ conditions: structuredClone(jre) as never, event: { type: 'hit' } });
  const decisions: boolean[] = [];
  for (const { transaction, customer, history } of contexts) {
    const { events } = await engine.run({ transaction, customer, history });
    decisions.push(events.length === 1);
  }
  return decisions;
}

describe('compiled conditions and json-rules-engine', () => {
  test('decide every type-correct condition alike', async () => {
    const outcomes = { true: 0, false: 0 };
    await fc.assert(
      fc.asyncProperty(
        condition,
        fc.array(factContext, { minLength: 1, maxLength: 3 }),
        async ({ ours, jre }, contexts) => {
          const { evaluate } = compileCondition(ours);
          const decisions = contexts.map((ctx) => evaluate(ctx));
          expect(decisions).toEqual(await engineDecides(jre, contexts));
          for (const decision of decisions) outcomes[`${decision}`] += 1;
        },
      ),
      { numRuns: 10_000 },
    );
    // Guard against a generator that only ever produces one answer.
    const total = outcomes.true + outcomes.false;
    expect(outcomes.true / total).toBeGreaterThan(0.15);
    expect(outcomes.false / total).toBeGreaterThan(0.15);
  });
});

type JreOperator = { evaluate(factValue: unknown, value: unknown): boolean };
// The engine's operator map is not in its published types.
const jreOperators = (new Engine() as unknown as { operators: { get(name: string): JreOperator } })
  .operators;

const outcome = (decide: () => boolean) => {
  try {
    return decide();
  } catch (error) {
    return (error as Error).constructor.name;
  }
};

const operand = fc.oneof(
  fc.anything(),
  fc.constantFrom(0, -0, 1, -1.5, '', '0', '12abc', ' 7', 'abc', null, undefined, Number.NaN),
  fc.array(fc.oneof(fc.integer({ min: -2, max: 2 }), fc.constantFrom('0', '1', 'a', null))),
);

describe.each(builtInOperators.map((operator) => [operator.name, operator] as const))(
  'the built-in %s',
  (name, operator) => {
    test('gives what json-rules-engine gives for any operands, even ill-typed ones', () => {
      const theirs = jreOperators.get(name);
      fc.assert(
        fc.property(fc.oneof(operand, fc.constant('a')), operand, (factValue, value) => {
          const expected = outcome(() => theirs.evaluate(factValue, value));
          expect(outcome(() => operator.evaluate(factValue, value))).toBe(expected);
        }),
        { numRuns: 1_000 },
      );
    });
  },
);
