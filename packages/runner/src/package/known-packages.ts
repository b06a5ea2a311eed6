// chaoskit's own activity packages and the modules each declares in its package.json, so that an
// experiment naming one of these modules when its package is not installed is told which one to
// install. Written by `npm run docs` from the packages' declarations (checked by ./dev test).

// generated: packages
export const CHAOSKIT_PACKAGES: Readonly<Record<string, readonly string[]>> = {
  '@chaoskit/chaoscluster-crd': ['chaoscluster.crd.actions', 'chaoscluster.crd.probes'],
  '@chaoskit/chaoscluster-deployment': ['chaoscluster.deployment.actions', 'chaoscluster.deployment.probes'],
  '@chaoskit/chaoscluster-deprecated': ['chaoscluster.actions', 'chaoscluster.probes'],
  '@chaoskit/chaoscluster-networking': ['chaoscluster.networking.actions'],
  '@chaoskit/chaoscluster-node': ['chaoscluster.node.actions', 'chaoscluster.node.probes'],
  '@chaoskit/chaoscluster-pod': ['chaoscluster.pod.actions', 'chaoscluster.pod.probes'],
  '@chaoskit/chaoscluster-replicaset': ['chaoscluster.replicaset.actions'],
  '@chaoskit/chaoscluster-service': ['chaoscluster.service.actions', 'chaoscluster.service.probes'],
  '@chaoskit/chaoscluster-statefulset': [
    'chaoscluster.statefulset.actions',
    'chaoscluster.statefulset.probes',
  ],
  '@chaoskit/chaosmesh-fault': ['chaosmesh.fault.actions', 'chaosmesh.fault.probes'],
};
// end: packages

/** The chaoskit package that declares `module` (canonical), or undefined. */
export function chaoskitPackageOf(module: string): string | undefined {
  return Object.entries(CHAOSKIT_PACKAGES).find(([, modules]) => modules.includes(module))?.[0];
}
