import { Deployments, defineActivity, namespaceArg, z } from '@chaoskit/core';
import type { V1Deployment } from '@kubernetes/client-node';
import { ACTIONS } from './modules.js';
import { type DeploymentSpec, loadDeploymentSpec, SpecFileError } from './spec-file.js';

const ACCEPTED = 'a .json, .yaml or .yml file holding one apps/v1 Deployment';

// The file is read and checked while the arguments are validated: a missing, unreadable or
// malformed file is refused as a bad `spec_path` before any request. `run` gets the document.
const specPathArg = z
  .string()
  .transform((path, ctx): DeploymentSpec => {
    try {
      return loadDeploymentSpec(path);
    } catch (err) {
      const reason = err instanceof SpecFileError ? err.message : String(err);
      ctx.addIssue({ code: 'custom', message: `${ACCEPTED}; ${reason}`, input: path });
      return z.NEVER;
    }
  })
  .describe(
    'Path of the file holding the Deployment: JSON when it ends in .json, YAML when it ends in .yaml or .yml.',
  );

export const createDeploymentActivity = defineActivity({
  name: 'create_deployment',
  kind: 'action',
  module: ACTIONS,
  doc: 'Creates a deployment from the JSON or YAML file at spec_path, in namespace ns. Returns the name and namespace of the deployment created.',
  returns: '`{ name, namespace }`',
  args: {
    spec_path: specPathArg,
    ns: namespaceArg(
      'Namespace of the deployment; a namespace in the file must be this one (a file without one is created here).',
    ),
  },
  check: (args) => {
    const declared = args.spec_path.body.metadata?.namespace;
    if (declared && declared !== args.ns) {
      return {
        argument: 'ns',
        accepted: `'${declared}', the namespace that the file at spec_path '${args.spec_path.path}' gives in metadata.namespace (or a file without metadata.namespace)`,
      };
    }
    return undefined;
  },
  rbac: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] }],
  async run(args, ctx) {
    const { path, format, body } = args.spec_path;
    const created = await ctx.kube.create<V1Deployment>(
      Deployments,
      { ...body, metadata: { ...body.metadata, namespace: args.ns } },
      { namespace: args.ns },
    );
    // The server's name: the one a generateName gave.
    const name = created.metadata?.name ?? body.metadata?.name ?? '';
    ctx.log(`created deployment ${name} in namespace ${args.ns} from ${path} (${format})`);
    return { name, namespace: args.ns };
  },
});

export const createDeployment = createDeploymentActivity.fn;
