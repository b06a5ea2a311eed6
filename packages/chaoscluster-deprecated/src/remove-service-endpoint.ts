import { deleteServiceActivity } from '@chaoskit/chaoscluster-service';
import { defineDeprecated, delegate, rulesOf } from './deprecation.js';
import { ACTIONS } from './modules.js';

export const removeServiceEndpointActivity = defineDeprecated({
  name: 'remove_service_endpoint',
  kind: 'action',
  module: ACTIONS,
  doc: 'Deprecated: delete_service (the same arguments). Removes the service endpoint in front of the pods: deletes the Service called name. Returns its name and namespace; fails with ActivityFailed, naming both, when it is not there.',
  returns: '`{ service, namespace }`',
  args: { ...deleteServiceActivity.schema.shape },
  rbac: rulesOf(deleteServiceActivity),
  replacement: deleteServiceActivity.qualifiedName,
  run: (args, ctx) => delegate(deleteServiceActivity, args, ctx),
});

export const removeServiceEndpoint = removeServiceEndpointActivity.fn;
