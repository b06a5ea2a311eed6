// An extension of chaoskit: two activities of its own, under modules of its own. package.json
// declares the modules ("chaoskit": { "modules": [...] }), which is how the runner finds this
// package; `activities` is what it registers when an experiment names one of those modules.
// The activities reach the cluster through `ctx.kube`, core's client: the experiment's
// credentials, retries, plan mode's dry runs, the run's record of changes and the safety rails
// come with it.

import {
  ActivityFailed,
  ConfigMaps,
  defineActivity,
  isApiError,
  kubernetesName,
  namespaceArg,
  z,
} from '@chaoskit/core';

const ACTIONS = 'example.configmaps.actions';
const PROBES = 'example.configmaps.probes';

const name = kubernetesName('a config map name').describe('Name of the ConfigMap.');
const key = z
  .string()
  .regex(/^[-._a-zA-Z0-9]+$/, 'a ConfigMap key: letters, digits, "-", "_" and "."')
  .describe('The key in the ConfigMap.');

export const setConfigValueActivity = defineActivity({
  name: 'set_config_value',
  kind: 'action',
  module: ACTIONS,
  doc: 'Sets key to value in the ConfigMap called name, creating the ConfigMap when it is not there. Returns the value the key had before (null: none).',
  returns: '`{ name, key, previous }`',
  args: {
    name,
    key,
    value: z.string().describe('The value to set.'),
    ns: namespaceArg('Namespace of the ConfigMap.'),
  },
  rbac: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'create', 'patch'] }],
  async run(args, ctx) {
    let previous = null;
    try {
      const current = await ctx.kube.get(ConfigMaps, args.name, args.ns);
      previous = current.data?.[args.key] ?? null;
      await ctx.kube.patch(ConfigMaps, args.name, { data: { [args.key]: args.value } }, 'merge', {
        namespace: args.ns,
      });
    } catch (err) {
      if (!isApiError(err, 'NotFound')) throw err;
      await ctx.kube.create(
        ConfigMaps,
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: args.name },
          data: { [args.key]: args.value },
        },
        { namespace: args.ns },
      );
    }
    ctx.log(`set ${args.key} in config map ${args.name} of namespace ${args.ns}`);
    return { name: args.name, key: args.key, previous };
  },
});

export const configValueActivity = defineActivity({
  name: 'config_value',
  kind: 'probe',
  module: PROBES,
  doc: 'Returns the value of key in the ConfigMap called name; fails with ActivityFailed when the ConfigMap or the key is not there.',
  returns: 'the value, a string',
  args: { name, key, ns: namespaceArg('Namespace of the ConfigMap.') },
  rbac: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
  async run(args, ctx) {
    const found = await ctx.kube.get(ConfigMaps, args.name, args.ns).catch((err) => {
      if (isApiError(err, 'NotFound'))
        throw new ActivityFailed(`there is no config map '${args.name}' in namespace '${args.ns}'`);
      throw err;
    });
    const value = found.data?.[args.key];
    if (value === undefined)
      throw new ActivityFailed(
        `config map '${args.name}' of namespace '${args.ns}' has no key '${args.key}'`,
      );
    return value;
  },
});

/** What the runner registers. */
export const activities = [setConfigValueActivity, configValueActivity];
