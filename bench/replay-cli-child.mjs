// Runs `cashback replay` (the built dist/cli.js) in this process and, at exit, prints its peak
// RSS (worker threads included: they share the process) as the last line of stderr.
// Usage: node replay-cli-child.mjs <cli.js> <replay arguments…>
import { pathToFileURL } from 'node:url';

const [cli, ...args] = process.argv.slice(2);
process.on('exit', () => {
  process.stderr.write(
    `\n${JSON.stringify({ maxRssMiB: process.resourceUsage().maxRSS / 1024 })}\n`,
  );
});
process.argv = [process.argv[0], cli, ...args];
await import(pathToFileURL(cli).href);
