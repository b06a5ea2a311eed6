// The argument schemas the deployment activities share.

import { kubernetesName } from '@chaoskit/core';

/** `name` of the activities that address one deployment by its object name. */
export function deploymentNameArg(doc: string) {
  return kubernetesName('a deployment name').describe(doc);
}
