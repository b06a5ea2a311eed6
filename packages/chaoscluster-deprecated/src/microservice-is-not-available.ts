import { podIsNotAvailableActivity } from '@chaoskit/chaoscluster-pod';
import { defineForwarding } from './deprecation.js';
import { PROBES } from './modules.js';

export const microserviceIsNotAvailableActivity = defineForwarding(podIsNotAvailableActivity, {
  name: 'microservice_is_not_available',
  kind: 'probe',
  module: PROBES,
  doc: 'Deprecated: pod_is_not_available. Returns true when none of the pods labelled name=<name> (or matching label_selector) is Running, also when there is none; fails with ActivityFailed naming each pod that is Running.',
  returns: '`true`',
});

export const microserviceIsNotAvailable = microserviceIsNotAvailableActivity.fn;
