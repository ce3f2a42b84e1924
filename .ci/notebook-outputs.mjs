// Checks the outputs of an executed notebook, not its sources (which hold the templates of the
// lines and the MIME types, so a grep of the whole file would pass on a notebook that printed
// nothing): `node .ci/notebook-outputs.mjs NOTEBOOK [--text STRING]... [--type MIME]...` exits 1
// naming every STRING that no text output holds and every MIME type that no output has.
import { readFileSync } from 'node:fs';

const [file, ...args] = process.argv.slice(2);
const texts = [];
const types = [];
for (let i = 0; i < args.length; i += 2) {
  const [flag, value] = [args[i], args[i + 1]];
  if (value === undefined || (flag !== '--text' && flag !== '--type')) {
    console.error(`usage: notebook-outputs.mjs NOTEBOOK [--text STRING]... [--type MIME]...`);
    process.exit(2);
  }
  (flag === '--text' ? texts : types).push(value);
}

const nb = JSON.parse(readFileSync(file, 'utf8'));
const outputs = nb.cells.flatMap((c) => (c.cell_type === 'code' ? (c.outputs ?? []) : []));
const join = (v) => (Array.isArray(v) ? v.join('') : typeof v === 'string' ? v : '');
const text = outputs
  .map((o) =>
    [
      o.text,
      ...Object.entries(o.data ?? {})
        .filter(([k]) => k.startsWith('text/'))
        .map(([, v]) => v),
    ]
      .map(join)
      .join(''),
  )
  .join('\n');
const missing = [
  ...texts.filter((s) => !text.includes(s)),
  ...types
    .filter((t) => !outputs.some((o) => o.data?.[t] !== undefined))
    .map((t) => `an output of type ${t}`),
];
if (missing.length > 0) {
  console.error(`${file}: not in the outputs of the executed notebook: ${missing.join('; ')}`);
  process.exit(1);
}
