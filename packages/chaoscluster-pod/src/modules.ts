// The experiment modules of this package, named once for every definition.

export const ACTIONS = 'chaoscluster.pod.actions';
export const PROBES = 'chaoscluster.pod.probes';
