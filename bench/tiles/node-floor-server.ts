/**
 * The floor of the tile benchmark: what Node's own HTTP server reaches on this machine when it does nothing but
 * answer. It holds nginx's static tiles (the same files, byte for byte our pass-through tiles) in memory and
 * answers each GET from a Map, with as many processes sharing the port as ours has (Node's cluster module, the
 * primary handing connections out in turn). No token, no cache policy, no metrics: any gap between it and nginx
 * is Node's HTTP parser, its response objects and a copying write, where nginx uses sendfile.
 *
 * Run as its own process (`node --import tsx node-floor-server.ts <root> <port> <processes>`); prints
 * `listening <port>` once every process listens.
 */
import cluster from 'node:cluster';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';

const [root, port, processes] = process.argv.slice(2).map((arg, index) => (index === 0 ? arg : Number(arg))) as [
  string?,
  number?,
  number?,
];
if (root == null || port == null || processes == null) {
  throw new Error('usage: node-floor-server.ts <root> <port> <processes>');
}

if (cluster.isPrimary) {
  let ready = 0;
  for (let i = 0; i < processes; i++) {
    cluster.fork().on('message', () => {
      if (++ready === processes) process.stdout.write(`listening ${port}\n`);
    });
  }
  process.once('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
    process.exit(0);
  });
} else {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
  const files = new Map<string, { body: Buffer; headers: string[] }>(
    await Promise.all(
      entries
        .filter((entry) => entry.isFile())
        .map(async (entry) => {
          const file = path.join(entry.parentPath, entry.name);
          const body = await fs.readFile(file);
          const headers = ['Content-Type', 'image/jpeg', 'Content-Length', String(body.length)];
          return [`/${path.relative(root, file)}`, { body, headers }] as const;
        }),
    ),
  );
  const server = http.createServer((request, response) => {
    const file = files.get(request.url ?? '');
    if (file == null) response.writeHead(404).end();
    else response.writeHead(200, file.headers).end(file.body);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(port, '127.0.0.1', () => process.send?.('listening'));
}
