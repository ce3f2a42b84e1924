/**
 * The entry point's options and packaging: unknown or conflicting options are refused before
 * anything opens; the built `cashback-engine`, `/http` and `/testing` never load `pg` or PGlite;
 * the built `/postgres` loads each only inside its factory and names the package when missing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  createPgliteStore,
  createPostgresStore,
  migrate,
  type PostgresStoreOptions,
} from '../../src/store/postgres/index.js';

describe('createPostgresStore options', () => {
  it('rejects an unknown option, naming it and the nearest known one', async () => {
    await expect(
      createPostgresStore({ connectionstring: 'postgres://x' } as unknown as PostgresStoreOptions),
    ).rejects.toThrow(/unknown option 'connectionstring'; did you mean 'connectionString'/);
  });

  it('rejects both a connection string and a pool, and neither', async () => {
    const pool = new pg.Pool();
    await expect(createPostgresStore({ connectionString: 'postgres://x', pool })).rejects.toThrow(
      /give only one of connectionString, pool/,
    );
    await expect(createPostgresStore({})).rejects.toThrow(/give connectionString or pool/);
    await expect(createPostgresStore({ pool, poolSize: 3 })).rejects.toThrow(
      /poolSize applies only/,
    );
    await pool.end();
  });

  it('rejects a pool size that is not a whole number of at least 1', async () => {
    await expect(
      createPostgresStore({ connectionString: 'postgres://127.0.0.1:1/x', poolSize: 0 }),
    ).rejects.toThrow(RangeError);
  });

  it('rejects with StoreUnavailableError when nothing listens at the address', async () => {
    await expect(
      createPostgresStore({ connectionString: 'postgres://postgres@127.0.0.1:1/postgres' }),
    ).rejects.toMatchObject({ name: 'StoreUnavailableError', code: 'store_unavailable' });
  });
});

describe('createPgliteStore and migrate options', () => {
  it('rejects an unknown option, and a data directory together with a database', async () => {
    await expect(createPgliteStore({ datadir: 'x' } as never)).rejects.toThrow(
      /unknown option 'datadir'; did you mean 'dataDir'/,
    );
    const db = await PGlite.create();
    await expect(createPgliteStore({ dataDir: '/tmp/x', db })).rejects.toThrow(
      /give only one of dataDir, db/,
    );
    await expect(migrate({ db, connectionString: 'postgres://x' })).rejects.toThrow(
      /give only one of connectionString, db/,
    );
    await expect(migrate({})).rejects.toThrow(/give connectionString, pool, dataDir or db/);
    await db.close();
  });

  it('leaves open a database it was given', async () => {
    const db = await PGlite.create();
    const store = await createPgliteStore({ db });
    await store.close?.();
    expect(db.closed).toBe(false);
    await db.close();
  });
});

const root = fileURLToPath(new URL('../..', import.meta.url));
const dist = join(root, 'dist');

/** A loader hook for which `pg` and `@electric-sql/pglite` are not installed. */
const WITHOUT_DRIVERS = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
export async function resolve(specifier, context, next) {
  if (specifier === 'pg' || specifier.startsWith('@electric-sql/pglite')) {
    const e = new Error("Cannot find package '" + specifier + "'");
    e.code = 'ERR_MODULE_NOT_FOUND';
    throw e;
  }
  return next(specifier, context);
}\`));
`)}`;

/** Runs an ES module script with Node, where the drivers cannot be found; returns its stdout. */
function withoutDrivers(script: string): string {
  return execFileSync(
    process.execPath,
    ['--import', WITHOUT_DRIVERS, '--input-type', 'module', '-e', script],
    { cwd: root, encoding: 'utf8', stdio: 'pipe' },
  );
}

describe.skipIf(!existsSync(join(dist, 'postgres.js')))(
  'the built package without pg and PGlite installed (skipped without dist/: npm run build)',
  () => {
    it.each(['index', 'http', 'testing'])('%s.js loads: it never imports them', (entry) => {
      const url = pathToFileURL(join(dist, `${entry}.js`)).href;
      expect(withoutDrivers(`await import(${JSON.stringify(url)}); console.log('ok');`)).toBe(
        'ok\n',
      );
    });

    it.each(['index', 'http', 'testing'])('requiring %s.cjs loads neither', (entry) => {
      const script = `require(${JSON.stringify(join(dist, `${entry}.cjs`))});
        console.log(JSON.stringify(Object.keys(require.cache)));`;
      const loaded = JSON.parse(
        execFileSync(process.execPath, ['--input-type', 'commonjs', '-e', script], {
          cwd: root,
          encoding: 'utf8',
        }),
      ) as string[];
      expect(loaded.filter((f) => /node_modules[\\/](pg|@electric-sql)[\\/]/.test(f))).toEqual([]);
    });

    it('postgres.js loads, and each factory names the package to install', () => {
      const url = pathToFileURL(join(dist, 'postgres.js')).href;
      const out = withoutDrivers(`
        const m = await import(${JSON.stringify(url)});
        for (const make of [() => m.createPostgresStore({ connectionString: 'postgres://x' }), () => m.createPgliteStore()]) {
          try { await make(); console.log('resolved'); } catch (e) { console.log(e.message); }
        }`);
      expect(out).toContain(
        "createPostgresStore needs the package 'pg', which is not installed: npm install pg",
      );
      expect(out).toContain(
        "createPgliteStore needs the package '@electric-sql/pglite', which is not installed: npm install @electric-sql/pglite",
      );
    });
  },
);
