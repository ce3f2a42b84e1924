/**
 * Conditions as sets of fact values in disjunctive normal form, to decide whether a condition
 * can ever hold (docs/testing.md, `cashback check`). An atom constrains one fact; a term is a
 * conjunction of atoms, a DNF a disjunction of terms. A `free` atom stands for a comparison the
 * analysis does not model: it may be true or false, so it never makes a term impossible.
 */

/** Defined values in an interval, minus some points, plus `undefined` when `undef`. */
export interface NumberAtom {
  readonly kind: 'number';
  readonly fact: string;
  readonly lo: number;
  readonly loIn: boolean;
  readonly hi: number;
  readonly hiIn: boolean;
  readonly except: readonly number[];
  readonly undef: boolean;
}

/** Strings among `oneOf` (any string when absent), minus `except`. */
export interface StringAtom {
  readonly kind: 'string';
  readonly fact: string;
  readonly oneOf: readonly string[] | undefined;
  readonly except: readonly string[];
}

/** A comparison the analysis does not model. */
interface FreeAtom {
  readonly kind: 'free';
}

type Atom = NumberAtom | StringAtom | FreeAtom;
export type Term = readonly Atom[];
export type Dnf = readonly Term[];

/** Thrown when a DNF would exceed {@link MAX_TERMS}: the condition is then not decided. */
export class TooLarge extends Error {}

/** Largest DNF built before giving up; conditions in offers files are far smaller. */
const MAX_TERMS = 512;

export const TRUE: Dnf = [[]];
export const FALSE: Dnf = [];
export const FREE: Dnf = [[{ kind: 'free' }]];

const ALL_NUMBERS = { lo: -Infinity, loIn: false, hi: Infinity, hiIn: false, except: [] };

/** A number atom: the interval's defaults are the whole line, without `undefined`. */
export function numberAtom(fact: string, over: Partial<Omit<NumberAtom, 'kind' | 'fact'>>): Dnf {
  return [[{ kind: 'number', fact, ...ALL_NUMBERS, undef: false, ...over }]];
}

export function or(a: Dnf, b: Dnf): Dnf {
  if (a.length + b.length > MAX_TERMS) throw new TooLarge();
  return [...a, ...b];
}

export function and(a: Dnf, b: Dnf): Dnf {
  if (a.length * b.length > MAX_TERMS) throw new TooLarge();
  return a.flatMap((x) => b.map((y) => [...x, ...y]));
}

function complementAtom(atom: Atom): Dnf {
  if (atom.kind === 'free') return [[atom]];
  if (atom.kind === 'string') {
    const parts: Term[] = atom.except.map((e) => [{ ...atom, oneOf: [e], except: [] }]);
    if (atom.oneOf !== undefined) parts.push([{ ...atom, oneOf: undefined, except: atom.oneOf }]);
    return parts;
  }
  const { fact } = atom;
  const parts: Dnf[] = [];
  if (atom.lo > -Infinity) parts.push(numberAtom(fact, { hi: atom.lo, hiIn: !atom.loIn }));
  if (atom.hi < Infinity) parts.push(numberAtom(fact, { lo: atom.hi, loIn: !atom.hiIn }));
  for (const p of atom.except)
    parts.push(numberAtom(fact, { lo: p, loIn: true, hi: p, hiIn: true }));
  // No defined value, only `undefined`.
  if (!atom.undef) parts.push(numberAtom(fact, { lo: Infinity, hi: -Infinity, undef: true }));
  return parts.flat();
}

/** The complement: `not` of a DNF, by De Morgan. */
export function not(a: Dnf): Dnf {
  let result: Dnf = TRUE;
  for (const term of a) {
    let negated: Dnf = FALSE;
    for (const atom of term) negated = or(negated, complementAtom(atom));
    result = and(result, negated);
  }
  return result;
}
