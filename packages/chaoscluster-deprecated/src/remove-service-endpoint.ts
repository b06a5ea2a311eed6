import { deleteServiceActivity } from '@chaoskit/chaoscluster-service';
import { defineForwarding } from './deprecation.js';
import { ACTIONS } from './modules.js';

export const removeServiceEndpointActivity = defineForwarding(deleteServiceActivity, {
  name: 'remove_service_endpoint',
  kind: 'action',
  module: ACTIONS,
  doc: 'Deprecated: delete_service (the same arguments). Removes the service endpoint in front of the pods: deletes the Service called name. Returns its name and namespace; fails with ActivityFailed, naming both, when it is not there.',
  returns: '`{ service, namespace }`',
});

export const removeServiceEndpoint = removeServiceEndpointActivity.fn;
