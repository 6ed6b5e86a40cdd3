/**
 * The floor of the tile benchmark: what Node's own HTTP server reaches on this machine when it does nothing but
 * answer. It holds nginx's static tiles (the same files, byte for byte our pass-through tiles) in memory and
 * answers each GET from a Map, with as many processes sharing the port as ours has (Node's cluster module, the
 * primary handing connections out in turn). No token, no cache policy, no metrics: any gap between it and nginx
 * is Node's HTTP parser, its response objects and a copying write, where nginx uses sendfile.
 *
 * Run as its own process (`node --import tsx node-floor-server.ts <root> <port> <processes>`); prints `listening`
 * once every process listens.
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

async function readTree(dir: string, prefix = ''): Promise<[string, Buffer][]> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map(async (entry) => {
      const full = path.join(dir, entry.name);
      const urlPath = `${prefix}/${entry.name}`;
      return entry.isDirectory() ? readTree(full, urlPath) : [[urlPath, await fs.readFile(full)] as [string, Buffer]];
    }),
  );
  return nested.flat();
}

if (cluster.isPrimary) {
  let ready = 0;
  for (let i = 0; i < processes; i++) {
    cluster.fork().on('message', () => {
      if (++ready === processes) process.stdout.write('listening\n');
    });
  }
  process.once('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
    process.exit(0);
  });
} else {
  const files = new Map(
    (await readTree(root)).map(([urlPath, body]) => [
      urlPath,
      { body, headers: ['Content-Type', 'image/jpeg', 'Content-Length', String(body.length)] },
    ]),
  );
  const server = http.createServer((request, response) => {
    const file = files.get(request.url ?? '');
    if (file == null) response.writeHead(404).end();
    else response.writeHead(200, file.headers).end(file.body);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(port, '127.0.0.1', () => process.send?.('listening'));
}
