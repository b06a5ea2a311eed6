// The argument schemas the deployment activities share.

import { kubernetesName, z } from '@chaoskit/core';

/** `name` of the activities that address one deployment by its object name. */
export function deploymentNameArg(doc: string) {
  return kubernetesName('a deployment name').describe(doc);
}

/** `timeout` of the waits: seconds, the total time allowed (D17). */
export function timeoutArg(doc: string) {
  return z.int().min(1).max(86_400).default(30).describe(doc);
}
