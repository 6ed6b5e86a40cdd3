// @ts-check
import { fileURLToPath } from 'node:url';
import { buildServer, checkServerBuild } from '../apps/server/build.js';
import { buildWeb, checkWebBuild } from './web-build.js';

/** `npm run build`: the web app and the server, built whether or not their inputs changed, and stamped. */
const root = fileURLToPath(new URL('..', import.meta.url));
const [web, server] = await Promise.all([checkWebBuild(root), checkServerBuild(root)]);
if (!(await buildWeb(root, web.stamp))) process.exit(1);
await buildServer(root, server.stamp);
console.log('Server built into apps/server/dist.');
