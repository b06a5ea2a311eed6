// The experiment modules of this package (0.25.1's deprecated ones), named once for every definition.

export const ACTIONS = 'chaoscluster.actions';
export const PROBES = 'chaoscluster.probes';
