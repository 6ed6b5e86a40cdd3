import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validateKubernetesManifests } from './validate-deploy.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('deployment files', () => {
  it('the Kubernetes manifests pass the Kubernetes API schemas, and the kustomization lists them all', async () => {
    expect(await validateKubernetesManifests(path.join(root, 'deploy/kubernetes'))).toEqual([]);
  });

  it('a manifest that breaks the schema is reported', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-manifests-'));
    try {
      await fs.writeFile(
        path.join(dir, 'broken.yaml'),
        'apiVersion: v1\nkind: Service\nmetadata: { name: x }\nspec: { ports: [{ port: "eighty" }] }\n',
      );
      const problems = await validateKubernetesManifests(dir);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain('Service/x');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('compose.yaml passes docker-compose config (Debian package docker-compose)', () => {
    const resolved = execFileSync('docker-compose', ['-f', path.join(root, 'compose.yaml'), 'config'], {
      encoding: 'utf8',
    });
    for (const service of ['postgres', 'minio', 'api-1', 'api-2', 'worker-1', 'worker-2', 'nginx'])
      expect(resolved).toContain(`\n  ${service}:\n`);
  });
});
