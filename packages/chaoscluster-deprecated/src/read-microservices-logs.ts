import { readPodLogsActivity } from '@chaoskit/chaoscluster-pod';
import { defineDeprecated, delegate, modernProblem, rulesOf } from './deprecation.js';
import { PROBES } from './modules.js';

export const readMicroservicesLogsActivity = defineDeprecated({
  name: 'read_microservices_logs',
  kind: 'probe',
  module: PROBES,
  doc: 'Deprecated: read_pod_logs (the same arguments). Reads the logs of the pods labelled name=<name> (or matching label_selector), each line prefixed by its timestamp. Returns a mapping of pod name to log text.',
  returns: '`{ [pod]: text }`',
  args: { ...readPodLogsActivity.schema.shape },
  check: (args) => modernProblem(readPodLogsActivity, args),
  rbac: rulesOf(readPodLogsActivity),
  replacement: readPodLogsActivity.qualifiedName,
  run: (args, ctx) => delegate(readPodLogsActivity, args, ctx),
});

export const readMicroservicesLogs = readMicroservicesLogsActivity.fn;
