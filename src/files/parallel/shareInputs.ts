import type { ReplayResult } from '../../core/replay/ReplayResult.js';
import type { Screener } from '../../core/replay/Screener.js';
import { startReplay } from '../../core/replay/startReplay.js';
import type { CompiledOfferSet } from '../../matching/compileOffers.js';
import type { ResolvedOptions } from '../../model/options.js';
import type { Routes } from './Routes.js';
import { partitionOf } from './routeByCustomer.js';

/** Where a replay over partitions starts: what one replay would have after customers and history. */
export interface SharedInputs {
  /** Customers, activations and history rejected, as one replay rejects them. */
  readonly rejected: ReplayResult['rejected'];
  /** How many customers are registered. */
  readonly customers: number;
  /** The ids and newest day of the stored history: the screener every partition's items go through. */
  readonly screener: Screener;
  /**
   * Each partition's customers (as read: it rejects the same ones), the activations its
   * transactions read and the stored history it decides on.
   */
  readonly parts: readonly {
    readonly customers: unknown[];
    readonly activations: unknown[];
    readonly history: unknown[];
  }[];
}

/** What a replay starts from, as read. */
export interface StartInputs {
  readonly customers: readonly unknown[];
  readonly activations: readonly unknown[];
  readonly history: readonly unknown[];
}

/**
 * Starts the replay once, as one replay starts, and shares customers, activations and stored
 * history out as `routes` says. A history transaction is a duplicate of any earlier one, whoever's,
 * so only this thread, which sees them all, can tell which are stored; a partition gets only those
 * it decides on. A partition that decides a budgeted merchant gets every customer; any other only
 * its own.
 * @param offers - the compiled offers
 * @param inputs - all customers, activations and history transactions, as read
 * @param options - the replay's options
 * @param lateness - `maxLatenessDays`
 * @param routes - where each record goes
 * @returns the rejections, the screener and each partition's share
 */
export function shareInputs(
  offers: CompiledOfferSet,
  inputs: StartInputs,
  options: ResolvedOptions,
  lateness: number,
  routes: Routes,
): SharedInputs {
  const { customers, activations, history } = inputs;
  const start = startReplay(offers, customers, history, options, lateness, activations);
  const stored = new Set(start.stored);
  const parts = Array.from({ length: routes.partitions }, (_, p) => ({
    customers: routes.decidesBudgets(p) ? customers.slice() : ([] as unknown[]),
    activations: [] as unknown[],
    history: [] as unknown[],
  }));
  for (const c of customers) {
    const p = partitionOf(c, routes.partitions);
    if (!routes.decidesBudgets(p)) parts[p]?.customers.push(c);
  }
  activations.forEach((a, i) => {
    const p = routes.ofActivation(a, i);
    if (p !== undefined) parts[p]?.activations.push(a);
  });
  start.history.forEach((item, i) => {
    if (!item.ok || !stored.has(item.value)) return;
    parts[routes.ofTransaction(item.value)]?.history.push(history[i]);
  });
  return {
    rejected: start.rejected,
    customers: start.customers.size,
    screener: start.screener,
    parts,
  };
}
