import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ETCD_VERSION,
  ISTIO_VERSION,
  KUBERNETES_VERSION,
  KWOK_VERSION,
  REGISTRY_VERSION,
} from '../host/binaries.js';
import { goDir } from '../host/go.js';
import { ensureIstioCrds, ISTIO_API_VERSION, istioCrdsPath } from './crds.js';

describe("Istio's CRDs from the Go module proxy", () => {
  let cache: string;
  const saved = process.env.CHAOSKIT_CACHE;
  beforeAll(async () => {
    cache = await mkdtemp(join(tmpdir(), 'chaoskit-crds-'));
    process.env.CHAOSKIT_CACHE = cache;
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.CHAOSKIT_CACHE;
    else process.env.CHAOSKIT_CACHE = saved;
    await rm(cache, { recursive: true, force: true });
  });

  it('fetches istio.io/api once into an empty cache, then reads the cached copy', async () => {
    const lines: string[] = [];
    const path = await ensureIstioCrds((l) => lines.push(l));
    expect(path).toBe(istioCrdsPath());
    expect(path.startsWith(cache)).toBe(true);
    expect(lines).toEqual([
      `chaoskit: fetching Istio's CRDs (istio.io/api ${ISTIO_API_VERSION}) from the Go module proxy`,
    ]);
    const names = readFileSync(path, 'utf8')
      .split(/^---$/m)
      .map((doc) => load(doc) as { kind?: string; metadata?: { name?: string } } | null)
      .filter((d) => d?.kind === 'CustomResourceDefinition')
      .map((d) => d!.metadata!.name);
    expect(names).toContain('virtualservices.networking.istio.io');
    expect(names).toContain('destinationrules.networking.istio.io');
    expect(await ensureIstioCrds((l) => lines.push(l))).toBe(path);
    expect(lines).toHaveLength(1);
  });
});

describe('versions', () => {
  // Each version constant is the one its wrapper module pins; the two must never drift.
  const required = (wrapper: string, module: string) =>
    new RegExp(`^\\s*(?:require\\s+)?${module.replace(/\./g, '\\.')}\\s+(v\\S+)`, 'm').exec(
      readFileSync(join(goDir, wrapper, 'go.mod'), 'utf8'),
    )?.[1];
  it.each([
    ['istio-api', 'istio.io/api', ISTIO_API_VERSION],
    ['istiod', 'istio.io/api', ISTIO_API_VERSION],
    ['istiod', 'istio.io/istio', ISTIO_VERSION],
    ['kubernetes', 'k8s.io/kubernetes', KUBERNETES_VERSION],
    ['etcd', 'go.etcd.io/etcd/server/v3', ETCD_VERSION],
    ['kwok', 'sigs.k8s.io/kwok', KWOK_VERSION],
    ['registry', 'github.com/google/go-containerregistry', REGISTRY_VERSION],
  ])('go/%s pins %s at the version the code names', (wrapper, module, version) => {
    expect(required(wrapper, module)).toBe(version);
  });
});
