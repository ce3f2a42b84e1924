/**
 * Arbitraries for the differential test: type-correct conditions in two spellings, ours and
 * json-rules-engine's (which has no dotted fact names and needs all/any/not at the root).
 */
import fc from 'fast-check';
import type { FactContext, FactType } from '../../src/rules/index.js';
import { LEAF_FACTS } from './_fixtures.js';

/** A condition as we read it, and the same condition as json-rules-engine reads it. */
export interface Spelled {
  readonly ours: unknown;
  readonly jre: Record<string, unknown>;
}

// Shared by conditions and contexts so that comparisons often hold.
const NUMBERS = [0, -0, 1, -1, 0.5, -2.5, 3, 7, 34, 45.5, 99.99, 100, 100.01, 1e-7, 12.34];
const STRINGS = [
  '',
  '0',
  '1',
  '1.5',
  '-2',
  '007',
  '1e3',
  ' 12',
  '12abc',
  'abc',
  'Paris',
  'Lyon',
].concat(['5411', 'NaN', 'Infinity', '-0', '2025-03-14', 'female']);

const number = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NUMBERS) },
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
  fc.integer({ min: -200, max: 200 }),
);
const string = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...STRINGS) }, fc.string());
const literalOf = (type: FactType): fc.Arbitrary<unknown> => (type === 'string' ? string : number);
const defined = (type: FactType) => (type === 'string' ? 'string' : 'number');

/** A leaf fact spelled as dotted name and/or JSONPath, in both spellings. */
function factOf(name: string) {
  const [root = '', ...steps] = name.split('.');
  return fc
    .record({ split: fc.nat(steps.length), brackets: fc.boolean(), bareRoot: fc.boolean() })
    .map(({ split, brackets, bareRoot }) => {
      const inName = steps.slice(0, split);
      const inPath = steps.slice(split);
      const step = (s: string) => (brackets ? `['${s}']` : `.${s}`);
      const path = inPath.length > 0 ? `$${inPath.map(step).join('')}` : bareRoot ? '$' : undefined;
      const jrePath = `$${inName.map((s) => `.${s}`).join('')}${(path ?? '$').slice(1)}`;
      const ours = { fact: [root, ...inName].join('.'), ...(path === undefined ? {} : { path }) };
      return { ours, jre: { fact: root, path: jrePath } };
    });
}

const factsOfType = (accepts: (type: FactType) => boolean) =>
  LEAF_FACTS.filter(([, type]) => accepts(type)).map(([name]) => name);

function referenceOrLiteral(accepts: (type: FactType) => boolean, literal: fc.Arbitrary<unknown>) {
  const reference = fc.constantFrom(...factsOfType(accepts)).chain(factOf);
  return fc.oneof(
    { weight: 3, arbitrary: literal.map((value) => ({ ours: value, jre: value })) },
    reference,
  );
}

function valueFor(operator: string, type: FactType) {
  if (operator === 'in' || operator === 'notIn') {
    const list = fc.array(literalOf(type), { maxLength: 4 });
    return list.map((value) => ({ ours: value, jre: value }));
  }
  if (operator === 'equal' || operator === 'notEqual') {
    return referenceOrLiteral((t) => defined(t) === defined(type), literalOf(type));
  }
  return referenceOrLiteral((t) => t !== 'string', number);
}

const OPERATORS = ['equal', 'notEqual', 'lessThan', 'lessThanInclusive', 'greaterThan'].concat([
  'greaterThanInclusive',
  'in',
  'notIn',
]);
const priority = fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined, freq: 3 });
const withPriority = (node: Record<string, unknown>, p: number | undefined) =>
  p === undefined ? node : { ...node, priority: p };

const leaf: fc.Arbitrary<Spelled> = fc
  .tuple(fc.constantFrom(...LEAF_FACTS), fc.constantFrom(...OPERATORS))
  .chain(([[name, type], operator]) =>
    fc.tuple(factOf(name), valueFor(operator, type), priority).map(([fact, value, p]) => ({
      ours: withPriority({ ...fact.ours, operator, value: value.ours }, p),
      jre: withPriority({ ...fact.jre, operator, value: value.jre }, p),
    })),
  );

/** A literal of the operator's value type (no fact reference), for one item of a list. */
function literalFor(operator: string, type: FactType) {
  if (operator === 'in' || operator === 'notIn') return fc.array(literalOf(type), { maxLength: 3 });
  return operator === 'equal' || operator === 'notEqual' ? literalOf(type) : number;
}

/**
 * A leaf with json-rules-engine 7's decorators: `not:`, `someValue:` / `everyValue:` over a list
 * of literals, and `swap:` on `equal` / `notEqual`, chained.
 */
const decoratedLeaf: fc.Arbitrary<Spelled> = fc
  .tuple(
    fc.constantFrom(...LEAF_FACTS),
    fc.constantFrom(...OPERATORS),
    fc.constantFrom('', 'someValue:', 'everyValue:', 'swap:'),
    fc.boolean(),
  )
  .chain(([[name, type], base, decorator, negated]) => {
    const swap = decorator === 'swap:' && (base === 'equal' || base === 'notEqual');
    const lists = decorator === 'someValue:' || decorator === 'everyValue:';
    const literal = lists ? fc.array(literalFor(base, type), { maxLength: 3 }) : literalOf(type);
    const value =
      lists || swap
        ? literal.map((v) => ({ ours: v as unknown, jre: v as unknown }))
        : valueFor(base, type);
    const operator = `${negated ? 'not:' : ''}${lists || swap ? decorator : ''}${base}`;
    return fc.tuple(factOf(name), value).map(([fact, v]) => ({
      ours: { ...fact.ours, operator, value: v.ours },
      jre: { ...fact.jre, operator, value: v.jre },
    }));
  });

const list = (key: 'all' | 'any', children: fc.Arbitrary<Spelled[]>) =>
  fc.tuple(children, priority).map(([parts, p]) => ({
    ours: withPriority({ [key]: parts.map((part) => part.ours) }, p),
    jre: withPriority({ [key]: parts.map((part) => part.jre) }, p),
  }));

/** Type-correct conditions, nested up to a few levels, in both spellings. */
export const condition: fc.Arbitrary<Spelled> = fc
  .letrec<{ node: Spelled }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      decoratedLeaf,
      list('all', fc.array(tie('node'), { maxLength: 4 })),
      list('any', fc.array(tie('node'), { minLength: 1, maxLength: 4 })),
      tie('node').map((inner) => ({ ours: { not: inner.ours }, jre: { not: inner.jre } })),
    ),
  }))
  .node.map(({ ours, jre }) => ({ ours, jre: 'fact' in jre ? { all: [jre] } : jre }));

const location = fc.record({ country: string, city: string });

/** Fact contexts; `days_since_last_merchant_purchase` is often undefined, sometimes absent. */
export const factContext: fc.Arbitrary<FactContext> = fc.record({
  transaction: fc.record({
    transaction_id: string,
    customer_id: string,
    description: string,
    date: string,
    day: string,
    amount: number,
    weekday: number,
    hour: number,
    merchant: fc.record({ id: string, name: string, category_code: string }),
    location,
  }),
  customer: fc.record({
    customer_id: string,
    birthday: string,
    gender: string,
    age: number,
    location,
  }),
  history: fc.record(
    {
      merchant_purchases: number,
      merchant_spend: number,
      days_since_last_merchant_purchase: fc.option(number, { nil: undefined }),
    },
    { requiredKeys: ['merchant_purchases', 'merchant_spend'] },
  ),
}) as fc.Arbitrary<FactContext>;
