import { readPodLogsActivity } from '@chaoskit/chaoscluster-pod';
import { defineDeprecated, delegate, modernProblem, PROBES, rulesOf } from './deprecation.js';

const QUALIFIED = `${PROBES}.read_microservices_logs`;

export const readMicroservicesLogsActivity = defineDeprecated({
  name: 'read_microservices_logs',
  kind: 'probe',
  module: PROBES,
  doc: 'Deprecated: read_pod_logs (the same arguments). Reads the logs of the pods labelled name=<name> (or matching label_selector), each line prefixed by its timestamp. Returns a mapping of pod name to log text.',
  args: { ...readPodLogsActivity.schema.shape },
  check: (args) => modernProblem(readPodLogsActivity, args),
  rbac: rulesOf(readPodLogsActivity),
  replacement: readPodLogsActivity.qualifiedName,
  run: (args, ctx) => delegate(readPodLogsActivity, QUALIFIED, args, ctx),
});

export const readMicroservicesLogs = readMicroservicesLogsActivity.fn;
