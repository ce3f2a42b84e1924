import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { offer } from '../fixtures.js';
import { type BuiltCli, buildCli } from './_buildCli.js';

let cli: BuiltCli;
beforeAll(async () => {
  cli = await buildCli();
}, 60_000);
afterAll(() => cli?.remove());

describe('cashback fuzz', () => {
  test('finds nothing on the sample offers and prints the seed that replays the run', async () => {
    const r = await cli.run([
      'fuzz',
      '--offers',
      'docs/examples/offers.json',
      '--runs',
      '60',
      '--seed',
      '42',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      '60 runs on 10 offers found nothing (seed 42; again: cashback fuzz --offers docs/examples/offers.json --runs 60 --seed 42)\n',
    );
  });

  test('exits 2 on invalid offers and on a bad --runs', async () => {
    const file = join(cli.dir, 'bad.json');
    writeFileSync(file, JSON.stringify([offer({ discount: 0 })]));
    const r = await cli.run(['fuzz', '--offers', file]);
    expect([r.code, r.stderr]).toEqual([
      2,
      expect.stringContaining('discount must be greater than 0'),
    ]);
    expect((await cli.run(['fuzz', '--offers', file, '--runs', '0'])).code).toBe(2);
  });
});
