import { createReadStream } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ViewerPage {
  /** e.g. http://localhost:41234: another origin than the app's, as a viewer deployed on its own has. */
  origin: string;
  close(): Promise<void>;
}

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>DICOMweb viewer</title>
<style>body { margin: 0 } #viewport { width: 512px; height: 512px }</style></head>
<body><div id="viewport"></div><script src="/client.js"></script><script src="/viewer.js"></script></body></html>`;

/** A page of its own origin that loads a browser client's scripts (`files`: URL path → file), as a viewer's site. */
export async function startViewerPage(files: Record<string, string>): Promise<ViewerPage> {
  const server = http.createServer((request, response) => {
    const file = files[request.url ?? ''];
    if (request.url === '/favicon.ico') {
      response.writeHead(204).end();
    } else if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    } else if (file != null) {
      // WebAssembly.instantiateStreaming takes only this media type.
      response.writeHead(200, { 'content-type': file.endsWith('.wasm') ? 'application/wasm' : 'text/javascript' });
      createReadStream(file).pipe(response);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  return {
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
