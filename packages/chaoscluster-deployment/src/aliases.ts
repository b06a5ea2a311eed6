// 0.25.1's deployment/probes.py imports read_pod_logs from pod/probes.py, so Python resolves
// chaosk8s.deployment.probes.read_pod_logs: the pod package's definition, found here as well.

import { readPodLogsActivity } from '@chaoskit/chaoscluster-pod';
import { aliasActivity } from '@chaoskit/core';
import { PROBES } from './modules.js';

export const aliases = [aliasActivity(PROBES, readPodLogsActivity)];
