import type { NumberAtom, StringAtom, Term } from './conditionAlgebra.js';
import type { Domain, NumberDomain, StringDomain } from './factDomains.js';

function mergeNumbers(atoms: readonly NumberAtom[]): NumberAtom {
  const m = { ...(atoms[0] as NumberAtom), except: [] as number[] };
  for (const a of atoms) {
    if (a.lo > m.lo || (a.lo === m.lo && !a.loIn)) [m.lo, m.loIn] = [a.lo, a.loIn];
    if (a.hi < m.hi || (a.hi === m.hi && !a.hiIn)) [m.hi, m.hiIn] = [a.hi, a.hiIn];
    m.except.push(...a.except);
    m.undef &&= a.undef;
  }
  return m;
}

function numberPossible(atom: NumberAtom, domain: NumberDomain): boolean {
  if (atom.undef && domain.canBeUndefined) return true;
  const except = new Set(atom.except);
  for (const range of domain.ranges) {
    let lo = atom.lo;
    let loIn = atom.loIn;
    if (range.min > lo || (range.min === lo && !range.minIn)) {
      lo = range.min;
      loIn = range.minIn;
    }
    const hi = Math.min(atom.hi, range.max);
    const hiIn = atom.hi < range.max ? atom.hiIn : atom.hi > range.max || atom.hiIn;
    if (domain.integer) {
      // The first integers of the range, one more than the points excluded, are enough to try.
      let n = Number.isInteger(lo) ? (loIn ? lo : lo + 1) : Math.ceil(lo);
      for (let tries = 0; tries <= except.size; tries++, n++) {
        if (n > hi || (n === hi && !hiIn)) break;
        if (!except.has(n)) return true;
      }
    } else if (lo < hi) {
      return true; // infinitely many values, finitely many excluded
    } else if (lo === hi && loIn && hiIn && !except.has(lo)) {
      return true;
    }
  }
  return false;
}

function stringPossible(atoms: readonly StringAtom[], domain: StringDomain): boolean {
  let oneOf = domain.oneOf;
  const except = new Set<string>();
  for (const a of atoms) {
    if (a.oneOf !== undefined)
      oneOf = oneOf === undefined ? a.oneOf : oneOf.filter((s) => a.oneOf?.includes(s));
    for (const e of a.except) except.add(e);
  }
  // Every domain with no list holds infinitely many strings (a merchant name takes any spacing).
  if (oneOf === undefined) return true;
  return oneOf.some((s) => !except.has(s) && domain.accepts(s));
}

const ANY_STRING: StringDomain = { kind: 'string', oneOf: undefined, accepts: () => true };
const ANY_NUMBER: NumberDomain = {
  kind: 'number',
  ranges: [{ min: -Infinity, minIn: false, max: Infinity }],
  integer: false,
  canBeUndefined: false,
};

/**
 * Whether some values of the facts, within their domains, make every atom of the term true.
 * Facts are independent here (a conservative view: it may call possible what is not, never
 * the reverse).
 */
export function termPossible(term: Term, domains: ReadonlyMap<string, Domain>): boolean {
  const byFact = new Map<string, (NumberAtom | StringAtom)[]>();
  for (const atom of term) {
    if (atom.kind === 'free') continue;
    const list = byFact.get(atom.fact);
    if (list === undefined) byFact.set(atom.fact, [atom]);
    else list.push(atom);
  }
  for (const [fact, atoms] of byFact) {
    const [first] = atoms;
    if (first?.kind === 'number') {
      const domain = domains.get(fact);
      const numbers = domain?.kind === 'number' ? domain : ANY_NUMBER;
      if (!numberPossible(mergeNumbers(atoms as NumberAtom[]), numbers)) return false;
    } else {
      const domain = domains.get(fact);
      const strings = domain?.kind === 'string' ? domain : ANY_STRING;
      if (!stringPossible(atoms as StringAtom[], strings)) return false;
    }
  }
  return true;
}
