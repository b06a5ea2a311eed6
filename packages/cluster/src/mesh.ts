import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ApiextensionsV1Api,
  type KubeConfig,
  loadAllYaml,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';

export const ISTIO_CRDS_RELATIVE = join('shared', 'fixtures', 'istio', 'crds-1.30.3.yaml');

/**
 * The mesh CRDs to apply: the given path, else CHAOSKIT_MESH_CRDS, else Istio's CRDs from a
 * `shared/fixtures` directory beside (or above) this checkout, where the project's tests find them.
 */
export function defaultCrdsPath(): string {
  if (process.env.CHAOSKIT_MESH_CRDS) return resolve(process.env.CHAOSKIT_MESH_CRDS);
  for (const start of [fileURLToPath(new URL('.', import.meta.url)), process.cwd()]) {
    for (let dir = start; ; dir = dirname(dir)) {
      const candidate = join(dir, ISTIO_CRDS_RELATIVE);
      if (existsSync(candidate)) return candidate;
      if (dirname(dir) === dir) break;
    }
  }
  throw new Error(
    `no mesh CRDs found: pass mesh: { crdsPath } or set CHAOSKIT_MESH_CRDS to a YAML file of CustomResourceDefinitions (looked for ${ISTIO_CRDS_RELATIVE} above ${process.cwd()})`,
  );
}

/** Creates (or keeps) every CRD in the file and waits until each is Established. */
export async function applyCrds(kc: KubeConfig, path = defaultCrdsPath()): Promise<string[]> {
  const api = kc.makeApiClient(ApiextensionsV1Api);
  // loadAllYaml deserializes into client-node's models; a plain YAML object would lose its
  // `x-kubernetes-*` schema keys on the way out (the serializer only knows the model's names).
  const docs = loadAllYaml(await readFile(path, 'utf8')).filter(
    (d): d is V1CustomResourceDefinition =>
      !!d && (d as { kind?: string }).kind === 'CustomResourceDefinition',
  );
  if (docs.length === 0) throw new Error(`${path} holds no CustomResourceDefinition`);
  await Promise.all(
    docs.map(async (body) => {
      try {
        await api.createCustomResourceDefinition({ body });
      } catch (err) {
        if ((err as { code?: number }).code !== 409) throw err;
      }
    }),
  );
  const names = docs.map((d) => d.metadata!.name!);
  const deadline = Date.now() + 60_000;
  for (const name of names) {
    for (;;) {
      const crd = await api.readCustomResourceDefinition({ name });
      if (crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) break;
      if (Date.now() > deadline) throw new Error(`CRD ${name} was not Established within 60s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return names;
}
