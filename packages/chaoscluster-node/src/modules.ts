// The experiment modules of this package, named once for every definition.

export const ACTIONS = 'chaoscluster.node.actions';
export const PROBES = 'chaoscluster.node.probes';
