// The argument schemas the statefulset activities share.

import { kubernetesName } from '@chaoskit/core';

/** `name` of the activities that address one stateful set by its object name. */
export function statefulSetNameArg(doc: string) {
  return kubernetesName('a stateful set name').describe(doc);
}
