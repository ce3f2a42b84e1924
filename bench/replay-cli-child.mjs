// One measured process of bench/replay-cli.mjs; at exit it prints its peak RSS as the last line
// of stderr. VmHWM of /proc/self/status, not resourceUsage().maxRSS: on Linux maxRSS survives
// exec, so a child would report its parent's peak when that was higher.
//   node replay-cli-child.mjs floor <file.ndjson> [bytes]   read line by line, JSON.parse each
//                                                           (bytes: the read size, default 64 KiB)
//   node replay-cli-child.mjs cli <cli.js> <arguments…>     run the command in this process
import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

function peakMiB() {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kb !== undefined) return Number(kb) / 1024;
  } catch {}
  return process.resourceUsage().maxRSS / 1024;
}
process.on('exit', () => {
  process.stderr.write(`\n${JSON.stringify({ maxRssMiB: peakMiB() })}\n`);
});

const [mode, ...rest] = process.argv.slice(2);
if (mode === 'floor') {
  let lines = 0;
  for await (const line of createInterface({
    input: createReadStream(
      rest[0],
      rest[1] === undefined ? {} : { highWaterMark: Number(rest[1]) },
    ),
    crlfDelay: Infinity,
  })) {
    if (line !== '') {
      JSON.parse(line);
      lines++;
    }
  }
  process.stdout.write(`${JSON.stringify({ lines })}\n`);
} else {
  const [cli, ...args] = rest;
  process.argv = [process.argv[0], cli, ...args];
  await import(pathToFileURL(cli).href);
}
