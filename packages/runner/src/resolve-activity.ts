import { type AnyActivity, canonicalModule, registry } from '@chaoskit/core';

// Which package provides which experiment module. A package is imported only when an
// experiment names one of its modules, so the CLI starts fast and users install only what
// their experiments use.
const PROVIDERS: ReadonlyArray<readonly [prefix: string, pkg: string]> = [
  ['chaoscluster.pod.', '@chaoskit/chaoscluster-pod'],
  ['chaoscluster.node.', '@chaoskit/chaoscluster-node'],
  ['chaoscluster.deployment.', '@chaoskit/chaoscluster-deployment'],
  ['chaoscluster.networking.', '@chaoskit/chaoscluster-networking'],
  ['chaoscluster.crd.', '@chaoskit/chaoscluster-crd'],
  ['chaoscluster.actions', '@chaoskit/chaoscluster-deprecated'],
  ['chaoscluster.probes', '@chaoskit/chaoscluster-deprecated'],
  ['chaosmesh.fault.', '@chaoskit/chaosmesh-fault'],
];

export const ACTIVITY_PACKAGES = [...new Set(PROVIDERS.map(([, pkg]) => pkg))];

export function packageFor(module: string): string | undefined {
  const canonical = canonicalModule(module);
  return PROVIDERS.find(([prefix]) =>
    prefix.endsWith('.') ? canonical.startsWith(prefix) : canonical === prefix,
  )?.[1];
}

const loaded = new Map<string, Promise<void>>();

/** Imports a package's activities into the registry (once). */
export function loadPackage(pkg: string): Promise<void> {
  let promise = loaded.get(pkg);
  if (!promise) {
    promise = import(pkg).then(
      (mod: { activities?: readonly AnyActivity[] }) => {
        registry.register(...(mod.activities ?? []));
      },
      (err: NodeJS.ErrnoException) => {
        loaded.delete(pkg);
        if (err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes(pkg)) {
          throw new Error(`is provided by ${pkg}, which is not installed: run \`npm install ${pkg}\``);
        }
        throw err;
      },
    );
    loaded.set(pkg, promise);
  }
  return promise;
}

/**
 * The activity an experiment names by `module` and `func` (chaosk8s.* and chaosistio.* module
 * names are accepted as aliases). Throws an Error whose message completes "module X …".
 */
export async function resolveActivity(module: string, func: string): Promise<AnyActivity> {
  const pkg = packageFor(module);
  if (!pkg) {
    const known = [...new Set(PROVIDERS.map(([p]) => (p.endsWith('.') ? `${p}*` : p)))].join(', ');
    throw new Error(`is not a chaoskit module (known: ${known})`);
  }
  await loadPackage(pkg);
  const activity = registry.get(module, func);
  if (!activity) {
    const offered = registry.list(canonicalModule(module)).map((a) => a.name);
    throw new Error(
      offered.length
        ? `has no function '${func}' (it has: ${offered.join(', ')})`
        : `has no function '${func}' (${pkg} provides no activity in this module yet)`,
    );
  }
  return activity;
}

/** Every activity of the installed activity packages, and the packages that are not installed. */
export async function installedActivities(): Promise<{ activities: AnyActivity[]; missing: string[] }> {
  const missing: string[] = [];
  for (const pkg of ACTIVITY_PACKAGES) await loadPackage(pkg).catch(() => missing.push(pkg));
  return { activities: registry.list(), missing };
}
