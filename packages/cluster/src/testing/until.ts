// Tests wait the way the cluster's start-up waits: one poll, kept in host/ with the code that
// starts processes (tests import it from here, through @chaoskit/cluster/testing).
export * from '../host/until.js';
