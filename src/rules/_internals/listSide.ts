import { describeValue } from './describe.js';
import type { Side, SideCheck, SideIssue } from './Side.js';

/**
 * Type-checks a decorator that runs the decorated operator on each item of one side's list:
 * the side must be a literal list (no fact of the schema is a list), and each item must pass
 * `inner` in the list's place.
 */
export function checkEachItem(
  decorator: string,
  which: 'fact' | 'value',
  inner: SideCheck,
): SideCheck {
  return (fact, value) => {
    const list = which === 'fact' ? fact : value;
    const at: SideIssue['at'] = which === 'fact' ? 'operator' : 'value';
    const what = `${decorator}: needs a literal list on the ${which} side`;
    if (list.kind === 'fact') {
      const why = which === 'fact' ? ' (json-rules-engine would always make this false)' : '';
      return { at, message: `${what}, but ${list.name} is not a list${why}` };
    }
    if (!Array.isArray(list.value)) {
      return { at, message: `${what}, not ${describeValue(list.value)}` };
    }
    for (const [index, item] of (list.value as readonly unknown[]).entries()) {
      const side: Side = { kind: 'literal', value: item };
      const issue = which === 'fact' ? inner(side, value) : inner(fact, side);
      if (issue !== undefined) {
        return { at: issue.at, message: `${decorator}: item [${index}]: ${issue.message}` };
      }
    }
    return undefined;
  };
}
