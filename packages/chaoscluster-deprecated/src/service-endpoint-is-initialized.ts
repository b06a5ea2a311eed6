import { serviceIsInitializedActivity, serviceNameArg } from '@chaoskit/chaoscluster-service';
import { NAME_SELECTOR_TEMPLATE, nameSelectorArg } from '@chaoskit/core';
import { defineDeprecated, delegate, modernProblem, rulesOf } from './deprecation.js';
import { PROBES } from './modules.js';

const shape = serviceIsInitializedActivity.schema.shape;

export const serviceEndpointIsInitializedActivity = defineDeprecated({
  name: 'service_endpoint_is_initialized',
  kind: 'probe',
  module: PROBES,
  doc: 'Deprecated: service_is_initialized. Returns true when the Service called name exists in namespace ns and matches label_selector (by default: it is labelled name=<name>); fails with ActivityFailed otherwise, saying which of the two is missing.',
  returns: '`true`',
  args: {
    // 0.25.1's own signature: a name is required, and the selector defaults to the name label.
    name: serviceNameArg('Name of the Service (its own name).'),
    ns: shape.ns,
    label_selector: nameSelectorArg().describe(
      `Label selector the Service must also match; {name} is replaced by the name argument (D13; the original sent the template unformatted). The default "${NAME_SELECTOR_TEMPLATE}" asks for the label name=<name>; give "" to look by name only.`,
    ),
  },
  check: (args) => modernProblem(serviceIsInitializedActivity, args),
  rbac: rulesOf(serviceIsInitializedActivity),
  replacement: serviceIsInitializedActivity.qualifiedName,
  run: (args, ctx) => delegate(serviceIsInitializedActivity, args, ctx),
});

export const serviceEndpointIsInitialized = serviceEndpointIsInitializedActivity.fn;
