// The experiment modules of this package, named once for every definition.

export const ACTIONS = 'chaoscluster.statefulset.actions';
export const PROBES = 'chaoscluster.statefulset.probes';
