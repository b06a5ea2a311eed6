import {
  checkManifestNamespace,
  createFromManifest,
  defineActivity,
  manifestFileArg,
  namespaceArg,
  Services,
} from '@chaoskit/core';
import type { V1Service } from '@kubernetes/client-node';
import { ACTIONS } from './modules.js';

export const createServiceEndpointActivity = defineActivity({
  name: 'create_service_endpoint',
  kind: 'action',
  module: ACTIONS,
  doc: 'Creates a service from the JSON or YAML file at spec_path, in namespace ns. Returns the name and namespace of the service created.',
  returns: '`{ name, namespace }`',
  args: {
    spec_path: manifestFileArg<V1Service>(Services),
    ns: namespaceArg(
      'Namespace of the service; a namespace in the file must be this one (a file without one is created here).',
    ),
  },
  check: checkManifestNamespace,
  rbac: [{ apiGroups: [''], resources: ['services'], verbs: ['create'] }],
  run: (args, ctx) => createFromManifest(ctx, Services, args.spec_path, args.ns),
});

export const createServiceEndpoint = createServiceEndpointActivity.fn;
