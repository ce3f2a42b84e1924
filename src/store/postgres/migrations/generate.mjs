#!/usr/bin/env node
// Writes index.ts from the .sql files beside it: the migrations as string constants, so that
// every build (tsup's bundles, vitest, a user's bundler) carries them without reading files at
// run time. Run after adding or changing a migration: node src/store/postgres/migrations/generate.mjs
// test/postgres/migrations.test.ts fails while index.ts and the .sql files differ.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** `text` as the body of a template literal. */
const template = (text) => text.replace(/[\\`]|\$\{/g, (m) => `\\${m}`);

/** The source of index.ts for the .sql files of `dir`. */
export function migrationsModule(dir) {
  const files = readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort();
  const items = files.map((file) => {
    const version = Number(file.slice(0, 4));
    const name = file.slice(5, -4);
    const sql = readFileSync(join(dir, file), 'utf8');
    return `  {\n    version: ${version},\n    name: '${name}',\n    sql: \`${template(sql)}\`,\n  },`;
  });
  return `// Generated from the .sql files of this folder by generate.mjs: do not edit.\n\n/** A schema migration: its version, name and SQL script. */\nexport interface Migration {\n  readonly version: number;\n  readonly name: string;\n  readonly sql: string;\n}\n\n/** Every migration, by ascending version. */\nexport const MIGRATIONS: readonly Migration[] = [\n${items.join('\n')}\n];\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(join(here, 'index.ts'), migrationsModule(here));
}
