import { merchantKey } from '../../model/normalise.js';
import { isRecord } from '../../rules/_internals/isRecord.js';
import type { CompiledOffer } from '../offer.js';
import { inScope } from '../scope.js';
import { type OfferCheck, ref } from './CheckContext.js';

/** A sample transaction's merchant as scopes read it; `undefined` for an item without a name. */
function merchantOf(item: unknown): { key: string; id: string; code: string } | undefined {
  if (!isRecord(item) || !isRecord(item.merchant)) return undefined;
  const { name, id, category_code } = item.merchant;
  if (typeof name !== 'string') return undefined;
  return {
    key: merchantKey(name),
    id: typeof id === 'string' ? id : '',
    code: typeof category_code === 'string' ? category_code : '',
  };
}

/** Where an offer pays, in words. */
function where(offer: CompiledOffer): string {
  return offer.scope === undefined ? `at '${offer.merchantKey ?? ''}'` : 'in its scope';
}

/**
 * `scope_unmatched` (warning, only with a sample of transactions): no transaction of the sample
 * is at the offer's merchant or in its scope (by name, id or category code, exclusions applied;
 * docs/concepts.md, Scopes). A misspelt name, an id of another system or a category code the
 * partner does not send would otherwise pay nothing, quietly. Each distinct merchant of the
 * sample is looked at once.
 */
export const scopeUnmatched: OfferCheck = (ctx) => {
  if (ctx.sample === undefined) return [];
  const merchants = new Map<string, { key: string; id: string; code: string }>();
  for (const item of ctx.sample) {
    const m = merchantOf(item);
    if (m !== undefined) merchants.set(JSON.stringify([m.key, m.id, m.code]), m);
  }
  const keys = new Set([...merchants.values()].map((m) => m.key));
  const seen = [...merchants.values()];
  return ctx.offers.flatMap((offer) => {
    const c = offer.compiled;
    if (c === undefined) return [];
    const scope = c.scope;
    const matched =
      scope === undefined
        ? keys.has(c.merchantKey as string)
        : seen.some((m) => inScope(scope, m.key, m.id, m.code));
    if (matched) return [];
    return [
      {
        rule: 'scope_unmatched' as const,
        level: 'warning' as const,
        offers: [ref(offer)],
        message: `no transaction of the sample (${ctx.sample?.length ?? 0}) is ${where(c)}: the offer would pay none of them`,
        path: scope === undefined ? 'merchant_name' : 'scope',
      },
    ];
  });
};
