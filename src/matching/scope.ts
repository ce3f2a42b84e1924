import { merchantKey } from '../model/normalise.js';
import type { ScopeInput } from '../model/schemas.js';
import type { CompiledScope } from './offer.js';

// Which merchants a scoped offer pays at (docs/concepts.md, Scopes): the one rule that matching,
// history, the parallel replay's routes and `cashback check` ask.

/**
 * A scope as matching reads it: names normalised as merchant keys, ids and codes as sent.
 * @param scope - the scope as the schema accepted it
 * @returns the compiled scope
 */
export function compileScope(scope: ScopeInput): CompiledScope {
  return {
    merchants: new Set((scope.merchants ?? []).map(merchantKey)),
    merchantIds: new Set(scope.merchant_ids ?? []),
    mcc: new Set(scope.mcc ?? []),
    exclude: new Set((scope.exclude_merchants ?? []).map(merchantKey)),
  };
}

/**
 * Whether a merchant is in a scope: its name (normalised) is in `merchants`, or its id in
 * `merchantIds`, or its category code in `mcc`; and its name is not excluded. A stored purchase
 * without an id or a category code has them empty, and no scope lists an empty one, so it is in
 * an `mcc` scope never, and by name when its name is listed.
 * @param scope - the scope
 * @param key - the merchant key (normalised name)
 * @param id - the merchant's id (`''` when a history item had none)
 * @param categoryCode - its category code (`''` when a history item had none)
 * @returns whether the merchant is in scope
 */
export function inScope(
  scope: CompiledScope,
  key: string,
  id: string,
  categoryCode: string,
): boolean {
  if (scope.exclude.has(key)) return false;
  return scope.merchants.has(key) || scope.merchantIds.has(id) || scope.mcc.has(categoryCode);
}

/**
 * The key of a scope's purchase lists: the same for two offers with the same scope, and never a
 * merchant key, since it starts with U+0000 (a transaction's merchant name cannot hold one).
 * @param scope - the scope
 * @returns its key
 */
export function scopeHistoryKey(scope: CompiledScope): string {
  const sorted = (s: ReadonlySet<string>) => [...s].sort();
  return `\u0000${JSON.stringify([
    sorted(scope.merchants),
    sorted(scope.merchantIds),
    sorted(scope.mcc),
    sorted(scope.exclude),
  ])}`;
}
