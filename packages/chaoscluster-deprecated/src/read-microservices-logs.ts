import { readPodLogsActivity } from '@chaoskit/chaoscluster-pod';
import { defineForwarding } from './deprecation.js';
import { PROBES } from './modules.js';

export const readMicroservicesLogsActivity = defineForwarding(readPodLogsActivity, {
  name: 'read_microservices_logs',
  kind: 'probe',
  module: PROBES,
  doc: 'Deprecated: read_pod_logs (the same arguments). Reads the logs of the pods labelled name=<name> (or matching label_selector), each line prefixed by its timestamp. Returns a mapping of pod name to log text.',
  returns: '`{ [pod]: text }`',
});

export const readMicroservicesLogs = readMicroservicesLogsActivity.fn;
