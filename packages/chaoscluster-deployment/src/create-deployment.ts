import {
  checkManifestNamespace,
  createFromManifest,
  Deployments,
  defineActivity,
  manifestFileArg,
  namespaceArg,
} from '@chaoskit/core';
import type { V1Deployment } from '@kubernetes/client-node';
import { ACTIONS } from './modules.js';

export const createDeploymentActivity = defineActivity({
  name: 'create_deployment',
  kind: 'action',
  module: ACTIONS,
  doc: 'Creates a deployment from the JSON or YAML file at spec_path, in namespace ns. Returns the name and namespace of the deployment created.',
  returns: '`{ name, namespace }`',
  args: {
    spec_path: manifestFileArg<V1Deployment>(Deployments),
    ns: namespaceArg(
      'Namespace of the deployment; a namespace in the file must be this one (a file without one is created here).',
    ),
  },
  check: checkManifestNamespace,
  rbac: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] }],
  run: (args, ctx) => createFromManifest(ctx, Deployments, args.spec_path, args.ns),
});

export const createDeployment = createDeploymentActivity.fn;
