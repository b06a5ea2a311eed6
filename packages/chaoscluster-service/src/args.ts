// The argument schemas the service activities share (the deprecated module's too).

import { kubernetesName } from '@chaoskit/core';

/** `name` of the service activities: a Service's own name (an RFC 1035 label, D51). */
export function serviceNameArg(doc: string) {
  return kubernetesName('a service name', 'rfc1035').describe(doc);
}
