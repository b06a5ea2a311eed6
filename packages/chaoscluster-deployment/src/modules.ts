// The experiment modules of this package, named once for every definition.

export const ACTIONS = 'chaoscluster.deployment.actions';
export const PROBES = 'chaoscluster.deployment.probes';
