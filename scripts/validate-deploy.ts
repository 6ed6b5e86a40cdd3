import fs from 'node:fs/promises';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

interface Manifest {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string };
}

interface Model {
  validate(): void;
}

/** The kubernetes-models module of an apiVersion: `apps/v1` → kubernetes-models/apps/v1, `v1` → kubernetes-models/v1. */
async function modelOf(manifest: Manifest): Promise<new (data: object) => Model> {
  const module = (await import(`kubernetes-models/${manifest.apiVersion}`)) as Record<string, unknown>;
  const model = module[manifest.kind ?? ''];
  if (typeof model !== 'function') throw new Error(`unknown kind ${manifest.apiVersion} ${manifest.kind}`);
  return model as new (data: object) => Model;
}

/**
 * Checks every object of the Kubernetes manifests in `dir` against the Kubernetes API's JSON schemas
 * (kubernetes-models), and that the kustomization lists exactly the files there. Returns the problems.
 */
export async function validateKubernetesManifests(dir: string): Promise<string[]> {
  const problems: string[] = [];
  const files = (await fs.readdir(dir)).filter((file) => file.endsWith('.yaml')).sort();
  for (const file of files) {
    const documents = parseAllDocuments(await fs.readFile(path.join(dir, file), 'utf8'));
    for (const document of documents) {
      if (document.errors.length > 0) problems.push(`${file}: ${document.errors[0]!.message}`);
      const manifest = document.toJS() as Manifest | null;
      if (manifest == null) continue;
      if (manifest.kind === 'Kustomization') {
        const listed = ((manifest as { resources?: string[] }).resources ?? []).sort();
        const expected = files.filter((other) => other !== file);
        if (JSON.stringify(listed) !== JSON.stringify(expected))
          problems.push(`${file}: resources ${listed.join(', ')} are not the files ${expected.join(', ')}`);
        continue;
      }
      try {
        new (await modelOf(manifest))(manifest).validate();
      } catch (error) {
        problems.push(`${file} ${manifest.kind}/${manifest.metadata?.name}: ${(error as Error).message}`);
      }
    }
  }
  return problems;
}

// `tsx scripts/validate-deploy.ts [dir]`: prints the problems, exits 1 when there are any.
if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = await validateKubernetesManifests(process.argv[2] ?? 'deploy/kubernetes');
  for (const problem of problems) console.error(problem);
  console.log(problems.length === 0 ? 'Kubernetes manifests valid' : `${problems.length} problem(s)`);
  process.exitCode = problems.length === 0 ? 0 : 1;
}
