/**
 * `cashback serve` delivering webhooks: a real receiver on 127.0.0.1 gets the events of a served
 * partner, signed (checked with the `standardwebhooks` package itself); the payments due when it
 * starts are confirmed then (`cashback.confirmed`); an offers file reloaded with SIGHUP gives one
 * `offer.updated` per changed offer; a partner's bad webhook settings are a usage error (exit 2)
 * naming the partner.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/entry.js';
import { createPgliteStore } from '../../src/store/postgres/index.js';
import { generateWebhookSecret } from '../../src/webhooks/index.js';
import { type Receiver, startReceiver } from '../webhooks/_receiver.js';
import {
  buildCli,
  coffee,
  customer,
  type Json,
  killAll,
  post,
  runCli,
  type Served,
  serve,
  stop,
} from './_served.js';

let cli: { dir: string; remove: () => void };
let receiver: Receiver | undefined;
beforeAll(async () => {
  cli = await buildCli();
}, 120_000);
afterAll(() => cli?.remove());
afterEach(async () => {
  killAll();
  await receiver?.close();
  receiver = undefined;
});

const SECRET = generateWebhookSecret();
const KEY = 'bank-w-key-5e1d0c9b8a7f6e5d';

/** Writes a partners file of one partner, `bank-w`, with these webhook settings. */
function partnersFile(name: string, webhook: Record<string, unknown>): string {
  const file = join(cli.dir, name);
  writeFileSync(
    file,
    JSON.stringify([{ application_id: 'bank-w', application_key: KEY, ...webhook }]),
  );
  return file;
}

async function token(served: Served): Promise<string> {
  const r = await fetch(`${served.url}/get-token`, {
    headers: { applicationId: 'bank-w', applicationKey: KEY },
  });
  return ((await r.json()) as Json).Token as string;
}

/** The deliveries the receiver got so far, verified with Webhook.verify and parsed. */
function verified(): Json[] {
  const wh = new Webhook(SECRET);
  return (receiver?.received ?? []).map((r) =>
    wh.verify(r.body, r.headers as Record<string, string>),
  );
}

/** Waits until `test()` holds on the verified deliveries (the server must stay up). */
async function deliveries(served: Served, test: (events: Json[]) => boolean, what: string) {
  await served.until(() => test(verified()), what);
  return verified();
}

describe('cashback serve with partners that have webhooks', () => {
  it('delivers cashback.created with the event_id the POST answered and its records, signed', async () => {
    receiver = await startReceiver();
    const partners = partnersFile('partners-ok.json', {
      webhook_url: receiver.url,
      webhook_secret: SECRET,
    });
    const served = await serve(cli.dir, [
      '--memory',
      '--data-dir',
      join(cli.dir, 'data-ok'),
      '--partners',
      partners,
      '--allow-local-webhooks',
    ]);
    expect(served.stdout()).toMatch(/webhooks\s+delivered to bank-w/);
    const t = await token(served);
    expect((await post(served, t, '/customers', [customer('c1')])).status).toBe(200);
    const added = await post(served, t, '/transactions', [coffee('t1', 'c1')]);
    expect(added.status).toBe(200);
    const eventId = added.body[0].event_id as string;
    expect(eventId).toEqual(expect.any(String));

    const events = await deliveries(
      served,
      (es) => es.some((e) => e.type === 'cashback.created'),
      'the cashback.created delivery',
    );
    const created = events.filter((e) => e.type === 'cashback.created');
    expect(created).toHaveLength(1);
    expect(created[0].event_id).toBe(eventId);
    expect(created[0].data.records.map((r: Json) => r.transaction_id)).toEqual(['t1']);
    const delivery = receiver.received.find((r) => r.body.includes('cashback.created'));
    expect(delivery?.headers['webhook-id']).toBe(eventId);
    expect(() =>
      new Webhook(generateWebhookSecret()).verify(
        delivery?.body ?? '',
        delivery?.headers as Record<string, string>,
      ),
    ).toThrow();
    // The attempt is logged, with the event id.
    await served.until(() => served.stderr().includes(eventId), 'the log line of the attempt');

    expect(await stop(served)).toEqual({ code: 0, signal: null });
  }, 90_000);

  it('confirms the payments due at start: their cashback.confirmed is delivered, signed, and logged', async () => {
    // A PGlite data directory holding a payment whose day has begun, made by the library: the
    // service confirms it when it starts, not a minute later.
    const dataDir = join(cli.dir, 'data-confirm');
    const store = await createPgliteStore({ dataDir: join(dataDir, 'db') });
    const engine = createEngine({ store });
    await engine.upsertOffers(
      JSON.parse(readFileSync(join(cli.dir, 'docs', 'examples', 'offers.json'), 'utf8')),
    );
    await engine.upsertCustomers('bank-w', [customer('c1')]);
    const paid = await engine.addTransactions('bank-w', [coffee('t1', 'c1')]);
    expect(paid.details.payments.map((p) => p.payment_date)).toEqual(['2025-07-15']);
    await store.close?.();

    receiver = await startReceiver();
    const partners = partnersFile('partners-confirm.json', {
      webhook_url: receiver.url,
      webhook_secret: SECRET,
    });
    const served = await serve(cli.dir, [
      '--data-dir',
      dataDir,
      '--partners',
      partners,
      '--allow-local-webhooks',
    ]);
    expect(served.stdout()).toMatch(/payments\s+due ones confirmed at start and every minute/);
    const events = await deliveries(
      served,
      (es) => es.some((e) => e.type === 'cashback.confirmed'),
      'the cashback.confirmed delivery',
    );
    const confirmed = events.filter((e) => e.type === 'cashback.confirmed');
    expect(confirmed).toHaveLength(1);
    expect(confirmed[0].data.records).toMatchObject([
      { transaction_id: 't1', date: '2025-07-15T00:00:00.000', status: 'confirmed' },
    ]);
    const logged = served
      .logs()
      .find((l) => l.msg === 'due payments confirmed (cashback.confirmed)');
    expect(logged).toMatchObject({ events: 1, payments: 1 });
    expect(await stop(served)).toEqual({ code: 0, signal: null });
  }, 90_000);

  it('sends one offer.updated per changed offer when SIGHUP loads the offers file again', async () => {
    receiver = await startReceiver();
    const partners = partnersFile('partners-hup.json', {
      webhook_url: receiver.url,
      webhook_secret: SECRET,
    });
    const offers = JSON.parse(
      readFileSync(join(cli.dir, 'docs', 'examples', 'offers.json'), 'utf8'),
    ) as Json[];
    const offersFile = join(cli.dir, 'offers-hup.json');
    writeFileSync(offersFile, JSON.stringify(offers));
    const served = await serve(cli.dir, [
      '--memory',
      '--data-dir',
      join(cli.dir, 'data-hup'),
      '--partners',
      partners,
      '--allow-local-webhooks',
      '--offers',
      offersFile,
    ]);
    // Every offer is new at start: one offer.updated each.
    await deliveries(served, (es) => es.length >= offers.length, 'the offers of the start');
    const atStart = verified().length;
    expect(atStart).toBe(offers.length);

    const changed = offers.map((o, i) => (i < 2 ? { ...o, name: `${o.name} (changed)` } : o));
    writeFileSync(offersFile, JSON.stringify(changed));
    served.child.kill('SIGHUP');
    await served.until(
      () => served.logs().some((l) => l.msg === 'offers loaded again'),
      'the reload',
    );
    const after = (
      await deliveries(served, (es) => es.length >= atStart + 2, 'the changed offers')
    ).slice(atStart);
    expect(after.map((e) => [e.type, e.data.offer_id, e.data.name])).toEqual(
      changed.slice(0, 2).map((o) => ['offer.updated', o.offer_id, o.name]),
    );
    expect(await stop(served)).toEqual({ code: 0, signal: null });
    expect(verified()).toHaveLength(atStart + 2);
  }, 90_000);

  it('gives the dispatcher the partners of a partners file loaded again on SIGHUP, two secrets signing each delivery', async () => {
    receiver = await startReceiver();
    const partners = partnersFile('partners-swap.json', {});
    const offers = JSON.parse(
      readFileSync(join(cli.dir, 'docs', 'examples', 'offers.json'), 'utf8'),
    ) as Json[];
    const offersFile = join(cli.dir, 'offers-swap.json');
    writeFileSync(offersFile, JSON.stringify(offers));
    const served = await serve(cli.dir, [
      '--memory',
      '--data-dir',
      join(cli.dir, 'data-swap'),
      '--partners',
      partners,
      '--allow-local-webhooks',
      '--offers',
      offersFile,
    ]);
    expect(served.stdout()).toMatch(/webhooks\s+none/);
    const older = generateWebhookSecret();
    partnersFile('partners-swap.json', {
      webhook_url: receiver.url,
      webhook_secret: [SECRET, older],
    });
    const changed = offers.map((o, i) => (i === 0 ? { ...o, name: `${o.name} (new)` } : o));
    writeFileSync(offersFile, JSON.stringify(changed));
    served.child.kill('SIGHUP');
    const events = await deliveries(served, (es) => es.length >= 1, 'the changed offer');
    expect(events.map((e) => [e.type, e.data.offer_id])).toEqual([
      ['offer.updated', changed[0].offer_id],
    ]);
    const got = receiver.received[0];
    expect(() =>
      new Webhook(older).verify(got?.body ?? '', got?.headers as Record<string, string>),
    ).not.toThrow();
    expect(served.logs().some((l) => l.msg === 'partners loaded again')).toBe(true);
    expect(await stop(served)).toEqual({ code: 0, signal: null });
  }, 90_000);

  it.each([
    ['a webhook secret not in whsec_ form', { webhook_secret: 'whsec-0123456789' }, ''],
    ['three webhook secrets', { webhook_secret: [SECRET, SECRET, SECRET] }, 'an array of two'],
    ['an http webhook URL without --allow-local-webhooks', {}, 'allow-local-webhooks'],
  ])(
    'exits 2 naming the partner for %s',
    async (_what, settings, hint) => {
      const file = partnersFile('partners-bad.json', {
        webhook_url: 'http://127.0.0.1:9/hooks',
        webhook_secret: SECRET,
        ...settings,
      });
      const args = ['serve', '--port', '0', '--memory', '--partners', file];
      const local = !hint.includes('allow-local-webhooks');
      const r = await runCli(cli.dir, local ? [...args, '--allow-local-webhooks'] : args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/partner (#1 \()?'bank-w'/);
      expect(r.stderr).toContain(hint);
      expect(r.stderr).not.toContain(KEY);
    },
    60_000,
  );
});
