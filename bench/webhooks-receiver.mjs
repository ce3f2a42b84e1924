// The receiver of bench/webhooks.mjs, in a process of its own: answers 204 to every POST and
// counts them; sends its port, then on request the count, over IPC.
import { createServer } from 'node:http';

let received = 0;
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received++;
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (m) => {
  if (m === 'count') process.send({ received });
  if (m === 'exit') server.close(() => process.exit(0));
});
