/**
 * Differential cases against json-rules-engine 7 (see `_jreCases.ts`): a new difference cannot
 * appear silently, and every documented one is still real and still documented.
 */
import { readFileSync } from 'node:fs';
import { Engine } from 'json-rules-engine';
import { describe, expect, test } from 'vitest';
import { ConditionError, compileCondition } from '../../src/rules/index.js';
import { context } from './_fixtures.js';
import { JRE_CASES, type JreCase } from './_jreCases.js';

type Outcome = boolean | 'refused at load' | 'throws';

function ours({ condition, facts }: JreCase): Outcome {
  try {
    return compileCondition({ all: [condition] }).evaluate(context(facts));
  } catch (error) {
    if (error instanceof ConditionError) return 'refused at load';
    throw error;
  }
}

async function theirs({ condition, facts }: JreCase): Promise<Outcome> {
  const engine = new Engine([], { allowUndefinedFacts: true });
  try {
    engine.addRule({
      conditions: { all: [structuredClone(condition)] } as never,
      event: { type: 'hit' },
    });
  } catch {
    return 'refused at load';
  }
  const { transaction, customer, history } = context(facts);
  try {
    const { events } = await engine.run({ transaction, customer, history });
    return events.length === 1;
  } catch {
    return 'throws';
  }
}

const concepts = readFileSync(new URL('../../docs/concepts.md', import.meta.url), 'utf8');

describe('json-rules-engine and the engine, case by case', () => {
  test.each(JRE_CASES.filter((c) => c.differs === undefined).map((c) => [c.name, c] as const))(
    'decide %s alike',
    async (_, c) => {
      expect(ours(c)).toBe(await theirs(c));
    },
  );

  test.each(JRE_CASES.filter((c) => c.differs !== undefined).map((c) => [c.name, c] as const))(
    'differ on %s, as documented',
    async (_, c) => {
      expect(ours(c)).not.toBe(await theirs(c));
      expect(concepts).toMatch(new RegExp(`^\\| \`${c.differs}\` +\\|`, 'm'));
    },
  );

  test('cover both answers and a missing fact', async () => {
    const agreed = await Promise.all(
      JRE_CASES.filter((c) => c.differs === undefined).map((c) => theirs(c)),
    );
    expect(agreed.filter((o) => o === true).length).toBeGreaterThan(10);
    expect(agreed.filter((o) => o === false).length).toBeGreaterThan(10);
  });
});
