// The experiment module of this package, named once for every definition.

export const ACTIONS = 'chaoscluster.replicaset.actions';
