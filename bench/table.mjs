// The closing table: one row per figure or ratio, with its target and whether it was met.
import { count, ratio, ratioOf } from './util.mjs';

const met = (ok) => (ok ? 'met' : 'MISSED');
const tps = (f, unit = 'tx/s') => `${count(f.tps)} ${unit}`;
const mib = (m) => `${count(m)} MiB`;
/** Note of the lookups rows: `decide` does at least that work, so it cannot beat that ratio. */
const BOUND = 'bound for decide';

/** The ratios the issue asks for, from the three figures. */
export function ratiosOf(fig1, fig2, fig3) {
  return {
    scaling: ratioOf(fig1.at(-1).decide, fig1[0].decide),
    decideOverFloor: Object.fromEntries(fig1.map((f) => [f.offers, ratioOf(f.decide, f.floor)])),
    lookupsOverFloor: Object.fromEntries(fig1.map((f) => [f.offers, ratioOf(f.lookups, f.floor)])),
    decideOverLookups: Object.fromEntries(
      fig1.map((f) => [f.offers, ratioOf(f.decide, f.lookups)]),
    ),
    oursOverJre: ratioOf(fig2.ours, fig2.jre),
    oursOverZen: fig2.zen === undefined ? undefined : ratioOf(fig2.ours, fig2.zen),
    oursOverNaive: ratioOf(fig2.ours, fig2.naive),
    lookupsOverNaive: ratioOf(fig2.lookups, fig2.naive),
    replayOverFloor: ratioOf(fig3.replay, fig3.floor),
    shapedOverPlain: Object.fromEntries(fig1.map((f) => [f.offers, ratioOf(f.shaped, f.decide)])),
    shapedScaling: ratioOf(fig1.at(-1).shaped, fig1[0].shaped),
    fundedOverPlain: Object.fromEntries(
      fig1.flatMap((f) =>
        Object.entries(f.funded).map(([kind, d]) => [kind, ratioOf(d, f.decide)]),
      ),
    ),
  };
}

/** Rows `[figure, value, target, note]`; `funding` is the agreement of the funded passes by kind. */
export function rows(fig1, fig2, fig3, r, funding) {
  const [low, high] = [count(fig1[0].offers), count(fig1.at(-1).offers)];
  const out = [];
  const add = (label, value, target = '', note = '') => out.push([label, value, target, note]);
  for (const f of fig1) {
    const merchants = `${count(f.merchantsWithOffers)} merchants`;
    add(`1  decide, ${count(f.offers)} offers (${merchants})`, tps(f.decide));
  }
  for (const f of fig1)
    add(`1  floor (merchantKey + Map.get), ${count(f.offers)} offers`, tps(f.floor));
  add(
    `1  ratio ${high}-offer / ${low}-offer throughput`,
    ratio(r.scaling),
    '≥ 0.90',
    met(r.scaling >= 0.9),
  );
  for (const f of fig1) {
    const x = r.decideOverFloor[f.offers];
    add(`1  ratio decide / floor, ${count(f.offers)} offers`, ratio(x));
  }
  for (const f of fig1) {
    const x = r.lookupsOverFloor[f.offers];
    add(`1  ratio lookups alone / floor, ${count(f.offers)} offers`, ratio(x), '', BOUND);
  }
  for (const f of fig1) {
    // How near decide comes to its own lookups: the target is set at 1,000 offers.
    const x = r.decideOverLookups[f.offers];
    const target = f.offers === 1000 ? ['≥ 0.80', met(x >= 0.8)] : [];
    add(`1  ratio decide / lookups alone, ${count(f.offers)} offers`, ratio(x), ...target);
  }
  for (const f of fig1) {
    for (const [kind, d] of Object.entries(f.funded)) {
      const what = `${count(f.offers)} offers, a budget and a cap on each, ${kind}`;
      add(`1  decide, ${what}`, tps(d), '', `${count(d.paid)} paid, ${funding[kind]}`);
      const x = r.fundedOverPlain[kind];
      const target = kind === 'ample' ? ['≥ 0.80', met(x >= 0.8)] : [];
      add(`1  ratio decide with ${kind} funding / without`, ratio(x), ...target);
    }
  }
  for (const f of fig1) {
    const what = `${count(f.offers)} offers, a tenth scoped, a third fixed or tiered`;
    add(`1  decide, ${what}`, tps(f.shaped), '', `${count(f.shaped.paid)} paid, ${funding.shaped}`);
  }
  for (const f of fig1) {
    const x = r.shapedOverPlain[f.offers];
    const at = `${count(f.offers)} offers`;
    add(
      `1  ratio decide with rewards and scopes / without, ${at}`,
      ratio(x),
      '≥ 0.80',
      met(x >= 0.8),
    );
  }
  add(
    `1  ratio ${high}-offer / ${low}-offer throughput, rewards and scopes`,
    ratio(r.shapedScaling),
    '≥ 0.80',
    met(r.shapedScaling >= 0.8),
  );
  const plain = `${count(fig2.offers)} plain offers (${count(fig2.ours.items)} tx)`;
  add(`2  decide, ${plain}`, tps(fig2.ours));
  const jre = `2  json-rules-engine (${count(fig2.jre.items)} tx)`;
  add(jre, tps(fig2.jre), '', fig2.agreement.jre);
  if (fig2.zen !== undefined) {
    const zen = `2  GoRules zen-engine, one decision table (${count(fig2.zen.items)} tx)`;
    add(zen, tps(fig2.zen), '', fig2.agreement.zen);
  }
  const naive = `2  naive linear scan (${count(fig2.naive.items)} tx)`;
  add(naive, tps(fig2.naive), '', fig2.agreement.naive);
  const vsJre = `${ratio(r.oursOverJre)}×`;
  add('2  ratio ours / json-rules-engine', vsJre, '≥ 1,000×', met(r.oursOverJre >= 1000));
  if (r.oursOverZen !== undefined) add('2  ratio ours / zen-engine', `${ratio(r.oursOverZen)}×`);
  const vsNaive = `${ratio(r.oursOverNaive)}×`;
  add('2  ratio ours / naive scan', vsNaive);
  const bound = `${ratio(r.lookupsOverNaive)}×`;
  add('2  ratio lookups alone / naive scan', bound, '', BOUND);
  const floor = `3  floor: read NDJSON + JSON.parse (${count(fig3.floor.lines)} lines)`;
  add(floor, tps(fig3.floor, 'lines/s'));
  const replay = '3  replay: read + JSON.parse + createReplay().push';
  add(replay, tps(fig3.replay, 'lines/s'), '', fig3.agreement);
  const x = r.replayOverFloor;
  add('3  ratio replay / floor', ratio(x), '≥ 0.70', met(x >= 0.7));
  const rss = fig3.replay.maxRssMiB;
  add('3  peak RSS, replay child', mib(rss), '≤ 400 MiB', met(rss <= 400));
  add('3  peak RSS, floor child', mib(fig3.floor.maxRssMiB));
  add('3  heap the replay keeps at the end (after GC)', mib(fig3.replay.retainedHeapMiB));
  const kept = fig3.replay.retained;
  if (kept !== undefined) {
    const items = `${count(kept.customers)} customers, ${count(kept.transactionIds)} ids, ${count(kept.purchases)} purchases`;
    add('3  what the replay keeps at the end', items);
  }
  return out;
}

/** Aligned text lines of a table with a header row. */
export function format(table) {
  const header = ['figure', 'value', 'target', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const line = (cells) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [header, widths.map((w) => '-'.repeat(w)), ...table].map(line);
}
