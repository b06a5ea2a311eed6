// The experiment modules of this package, named once for every definition.

export const ACTIONS = 'chaoscluster.service.actions';
export const PROBES = 'chaoscluster.service.probes';
