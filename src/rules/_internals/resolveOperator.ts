import { type OperatorRegistry, registeredOperator } from '../createOperatorRegistry.js';
import { DECORATORS } from '../decorators/index.js';
import type { Operator } from '../Operator.js';
import { asFactOperand, type SideCheck } from './Side.js';

/** An operator name resolved to its check and comparison, decorators applied. */
export interface ResolvedOperator {
  readonly check: SideCheck;
  readonly evaluate: (factValue: unknown, value: unknown) => boolean;
}

function plain(operator: Operator): ResolvedOperator {
  const check: SideCheck = (factSide, value) => {
    const fact = asFactOperand(factSide);
    if (typeof fact === 'string') return { at: 'operator', message: `${operator.name}: ${fact}` };
    const factIssue = operator.checkFact(fact);
    if (factIssue !== undefined) return { at: 'operator', message: factIssue };
    const valueIssue = operator.checkValue(value, fact);
    return valueIssue === undefined ? undefined : { at: 'value', message: valueIssue };
  };
  return { check, evaluate: operator.evaluate };
}

/**
 * Resolves an operator name as json-rules-engine 7 does: a registered name first, else
 * `decorator:rest` with `rest` resolved the same way, so `not:someValue:equal` is `not` of
 * `someValue` of `equal` and decorators apply to custom operators too.
 * @returns the operator, or `undefined` when the name is neither registered nor decorated.
 */
export function resolveOperator(
  operators: OperatorRegistry,
  name: string,
): ResolvedOperator | undefined {
  const registered = registeredOperator(operators, name);
  if (registered) return plain(registered);
  const colon = name.indexOf(':');
  if (colon <= 0) return undefined;
  const decorator = DECORATORS.get(name.slice(0, colon));
  const inner = decorator && resolveOperator(operators, name.slice(colon + 1));
  if (!decorator || !inner) return undefined;
  return { check: decorator.check(inner.check), evaluate: decorator.evaluate(inner.evaluate) };
}
