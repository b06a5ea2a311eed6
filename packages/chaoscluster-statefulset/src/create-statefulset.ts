import {
  checkManifestNamespace,
  createFromManifest,
  defineActivity,
  manifestFileArg,
  namespaceArg,
  StatefulSets,
} from '@chaoskit/core';
import type { V1StatefulSet } from '@kubernetes/client-node';
import { ACTIONS } from './modules.js';

export const createStatefulsetActivity = defineActivity({
  name: 'create_statefulset',
  kind: 'action',
  module: ACTIONS,
  doc: 'Creates a stateful set from the JSON or YAML file at spec_path, in namespace ns. Returns the name and namespace of the stateful set created.',
  returns: '`{ name, namespace }`',
  args: {
    spec_path: manifestFileArg<V1StatefulSet>(StatefulSets),
    ns: namespaceArg(
      'Namespace of the stateful set; a namespace in the file must be this one (a file without one is created here).',
    ),
  },
  check: checkManifestNamespace,
  rbac: [{ apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['create'] }],
  run: (args, ctx) => createFromManifest(ctx, StatefulSets, args.spec_path, args.ns),
});

export const createStatefulset = createStatefulsetActivity.fn;
