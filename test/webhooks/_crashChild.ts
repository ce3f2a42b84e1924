/**
 * A child process of the crash tests (built by crash.test.ts): it opens a PGlite store in a data
 * directory and either commits events then opens a unit it never ends, or delivers; the test
 * kills it with SIGKILL at the step it prints.
 */
import { createPgliteStore } from '../../src/store/postgres/index.js';
import { createWebhookDispatcher } from '../../src/webhooks/index.js';

const [mode, dataDir, arg, secret] = process.argv.slice(2) as [string, string, string, string];
const P = 'bank-a';
const event = (id: string) => ({
  id,
  type: 'cashback.created' as const,
  payload: {
    type: 'cashback.created',
    event_id: id,
    timestamp: '2025-06-01T12:00:00.000Z',
    data: { records: [] },
  },
  created_at: '2025-06-01T12:00:00.000Z',
});

const store = await createPgliteStore({ dataDir });
if (mode === 'commit') {
  await store.outbox.add(P, arg.split(',').map(event));
  process.stdout.write('committed\n');
  await store.transaction(async (s) => {
    await s.outbox.add(P, [event('rolled-back')]);
    process.stdout.write('inside\n');
    await new Promise(() => undefined);
  });
} else {
  const dispatcher = createWebhookDispatcher({
    store,
    partners: [{ application_id: P, webhook_url: arg, webhook_secret: secret }],
    allowLocalUrls: true,
  });
  process.stdout.write('delivering\n');
  await dispatcher.runOnce();
}
