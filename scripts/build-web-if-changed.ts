import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { webBuildIsCurrent, webInputsHash, writeWebBuildStamp } from './web-build-stamp.ts';

/** `npm start` builds the web app only when its inputs changed since the last build: a restart is back in seconds. */
const root = fileURLToPath(new URL('..', import.meta.url));
// Hashed before the build, so a file edited while it runs makes the next start build again.
const inputsHash = await webInputsHash(root);
if (await webBuildIsCurrent(root, inputsHash)) {
  console.log('Web app unchanged since the last build; not building it again.');
} else {
  const build = spawnSync('npm', ['run', 'build', '--workspace', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  await writeWebBuildStamp(root, inputsHash);
}
