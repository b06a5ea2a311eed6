// The experiment modules of this package, named once for every definition.

export const ACTIONS = 'chaosmesh.fault.actions';
export const PROBES = 'chaosmesh.fault.probes';
