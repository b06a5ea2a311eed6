import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import {
  ApiextensionsV1Api,
  type KubeConfig,
  loadAllYaml,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { cacheDir, type ProgressSink, withCacheLock } from '../host/cache.js';
import { runGo } from '../host/go.js';
import { until } from '../host/until.js';
import type { MeshOptions } from '../types.js';

/**
 * Istio's CRDs come from the `istio.io/api` Go module (its
 * `kubernetes/customresourcedefinitions.gen.yaml`: every Istio CRD with Istio's own validation
 * schemas), fetched through the Go module proxy by the wrapper module `go/istio-api`, whose
 * go.sum checks the download, then kept in the cache. Apache-2.0, like chaoskit.
 */
export const ISTIO_API_VERSION = 'v1.31.1';
const CRDS_IN_MODULE = 'kubernetes/customresourcedefinitions.gen.yaml';

/** Where the CRDs of ISTIO_API_VERSION are kept once fetched. */
export function istioCrdsPath(): string {
  return join(cacheDir(), `istio-api-${ISTIO_API_VERSION}`, 'customresourcedefinitions.gen.yaml');
}

/** Istio's CRDs file: from the cache, else fetched into it through the Go module proxy. */
export async function ensureIstioCrds(progress: ProgressSink): Promise<string> {
  const path = istioCrdsPath();
  if (existsSync(path)) return path;
  return withCacheLock(async () => {
    if (existsSync(path)) return path;
    progress(`chaoskit: fetching Istio's CRDs (istio.io/api ${ISTIO_API_VERSION}) from the Go module proxy`);
    const out = await runGo(['mod', 'download', '-json', 'istio.io/api'], 'istio-api', true);
    const module = JSON.parse(out) as { Dir?: string; Error?: string };
    if (!module.Dir)
      throw new Error(`go mod download istio.io/api: ${module.Error ?? 'no module directory'}`);
    await mkdir(dirname(path), { recursive: true });
    const scratch = `${path}.tmp-${process.pid}`;
    await copyFile(join(module.Dir, CRDS_IN_MODULE), scratch);
    await rename(scratch, path);
    return path;
  }, progress);
}

/** The mesh a start option asks for (`byDefault` when it says nothing); `undefined` when none. */
export function meshOption(
  mesh: MeshOptions | boolean | 'istiod' | undefined,
  byDefault: boolean,
): MeshOptions | undefined {
  const options =
    mesh === 'istiod'
      ? { enabled: true, istiod: true }
      : typeof mesh === 'object'
        ? { enabled: true, ...mesh }
        : { enabled: mesh ?? byDefault };
  return options.enabled ? options : undefined;
}

export interface MeshCrds {
  path: string;
  /** Where they come from, for people: "Istio's CRDs from istio.io/api v1.31.1" or the file. */
  source: string;
}

/** The CRD file of a mesh: `crdsPath`, else $CHAOSKIT_MESH_CRDS, else Istio's (fetched once). */
export async function meshCrds(mesh: MeshOptions, progress: ProgressSink): Promise<MeshCrds> {
  const given = mesh.crdsPath ?? process.env.CHAOSKIT_MESH_CRDS;
  if (given) return { path: resolve(given), source: `CRDs from ${resolve(given)}` };
  return {
    path: await ensureIstioCrds(progress),
    source: `Istio's CRDs from istio.io/api ${ISTIO_API_VERSION}`,
  };
}

/** Creates (or keeps) every CRD in the file and waits until each is Established. */
export async function applyCrds(kc: KubeConfig, path: string): Promise<string[]> {
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
  await until(
    `the CRDs ${names.join(', ')} Established`,
    async () => {
      const crds = await Promise.all(names.map((name) => api.readCustomResourceDefinition({ name })));
      return crds.every((crd) =>
        crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True'),
      );
    },
    60_000,
  );
  return names;
}
