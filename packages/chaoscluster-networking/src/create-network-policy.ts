import { accepting, defineActivity, namespaceArg, z } from '@chaoskit/core';
import type { V1NetworkPolicy } from '@kubernetes/client-node';
import { ACTIONS } from './modules.js';
import { API_VERSION } from './policies.js';
import { checkNetworkPolicy, loadNetworkPolicyFile, type PolicyFile, specProblem } from './policy-spec.js';
import { CREATE_RBAC, createPolicy } from './requests.js';

const POLICY = `one ${API_VERSION} NetworkPolicy`;

// The inline policy is checked while the arguments are validated; `run` gets the document.
const specArg = accepting(
  z
    .record(z.string(), z.unknown())
    .transform((doc, ctx): V1NetworkPolicy => {
      try {
        return checkNetworkPolicy(doc);
      } catch (err) {
        ctx.addIssue({
          code: 'custom',
          message: `a mapping holding ${POLICY} (apiVersion, kind, metadata.name, spec); ${specProblem(err)}`,
          input: doc,
        });
        return z.NEVER;
      }
    })
    .nullable()
    .default(null)
    .describe(
      'The network policy to create, as a whole NetworkPolicy mapping (apiVersion, kind, metadata, spec). Give this or spec_path, not both.',
    ),
  `a mapping holding ${POLICY}, or null`,
);

// The file is read and checked while the arguments are validated: a missing, unreadable or
// malformed file is refused as a bad `spec_path` before any request.
const specPathArg = z
  .string()
  .transform((path, ctx): PolicyFile => {
    try {
      return loadNetworkPolicyFile(path);
    } catch (err) {
      ctx.addIssue({
        code: 'custom',
        message: `a .json, .yaml or .yml file holding ${POLICY}; ${specProblem(err)}`,
        input: path,
      });
      return z.NEVER;
    }
  })
  .nullable()
  .default(null)
  .describe(
    'Path of a file holding the network policy: JSON when it ends in .json, YAML when it ends in .yaml or .yml. Give this or spec, not both.',
  );

export const createNetworkPolicyActivity = defineActivity({
  name: 'create_network_policy',
  kind: 'action',
  module: ACTIONS,
  doc: 'Creates a network policy in namespace ns from the NetworkPolicy mapping spec, or from the JSON or YAML file at spec_path (exactly one of the two). Returns the name and namespace of the policy created.',
  returns: "`{ policy, namespace }`: the name of the policy created (the server's, with `generateName`)",
  args: {
    spec: specArg,
    spec_path: specPathArg,
    ns: namespaceArg(
      'Namespace of the policy; a namespace in the policy must be this one (one without is created here).',
    ),
  },
  check(args) {
    if (args.spec && args.spec_path) {
      return {
        argument: 'spec_path',
        accepted: 'either spec or spec_path, not both (spec is given too)',
        value: args.spec_path.path,
      };
    }
    const body = args.spec ?? args.spec_path?.body;
    if (!body) {
      return {
        argument: 'spec',
        accepted: `${POLICY} as a mapping in spec, or the path of a file holding one in spec_path (one of the two is required)`,
        value: undefined,
      };
    }
    const declared = body.metadata?.namespace;
    if (declared && declared !== args.ns) {
      const where = args.spec_path ? `the file at spec_path '${args.spec_path.path}'` : 'spec';
      return {
        argument: 'ns',
        accepted: `'${declared}', the namespace that ${where} gives in metadata.namespace (or a policy without metadata.namespace)`,
      };
    }
    return undefined;
  },
  rbac: CREATE_RBAC,
  async run(args, ctx) {
    const body = (args.spec ?? args.spec_path?.body) as V1NetworkPolicy;
    if (args.spec_path) ctx.log(`read network policy from ${args.spec_path.path} (${args.spec_path.format})`);
    return createPolicy(ctx, args.ns, body);
  },
});

export const createNetworkPolicy = createNetworkPolicyActivity.fn;
