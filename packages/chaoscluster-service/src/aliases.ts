// The names 0.25.1's service/probes.py imports from pod/probes.py, which Python therefore
// resolves in chaosk8s.service.probes too: the pod package's definitions, found here as well.

import { podIsNotAvailableActivity, readPodLogsActivity } from '@chaoskit/chaoscluster-pod';
import { aliasActivity } from '@chaoskit/core';
import { PROBES } from './modules.js';

export const aliases = [
  aliasActivity(PROBES, podIsNotAvailableActivity),
  aliasActivity(PROBES, readPodLogsActivity),
];
