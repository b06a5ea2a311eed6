// The experiment modules of this package, named once for every definition.

export const ACTIONS = 'chaoscluster.crd.actions';
export const PROBES = 'chaoscluster.crd.probes';
