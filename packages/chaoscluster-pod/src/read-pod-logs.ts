import {
  bulk,
  checkNameSelector,
  defineActivity,
  formatNameSelector,
  lastArg,
  NAME_SELECTOR_TEMPLATE,
  nameSelectorArg,
  objectName,
  Pods,
  z,
} from '@chaoskit/core';
import { ns } from './args.js';
import { defaultContainer } from './containers.js';
import { listPods } from './list-pods.js';
import { PROBES } from './modules.js';

const LAST =
  'Only the logs of the last N seconds: a number of seconds or a duration such as "5 minutes", "90s", "1h30m". Null or 0: all the logs.';

export const readPodLogsActivity = defineActivity({
  name: 'read_pod_logs',
  kind: 'probe',
  module: PROBES,
  doc: 'Reads the logs of the pods labelled name=<name> (or matching label_selector), each line prefixed by its timestamp. Returns a mapping of pod name to log text.',
  returns: '`{ [pod]: text }`',
  args: {
    name: z
      .string()
      .nullable()
      .default(null)
      .describe(
        'Value of the `name` label of the pods; replaces {name} in label_selector. Without it, give a label_selector of your own.',
      ),
    last: lastArg(LAST),
    ns,
    from_previous: z
      .boolean()
      .default(false)
      .describe("The logs of the container's previous incarnation (before its last restart)."),
    label_selector: nameSelectorArg(),
    container_name: z
      .string()
      .nullable()
      .default(null)
      .describe(
        "Container whose logs to read. Default: the pod's default container (annotation kubectl.kubernetes.io/default-container, else the first).",
      ),
  },
  check(args) {
    if (!args.name && args.label_selector === NAME_SELECTOR_TEMPLATE) {
      return {
        argument: 'name',
        accepted: `a name (the pods labelled name=<name>), or a label_selector of your own: the default label_selector "${NAME_SELECTOR_TEMPLATE}" needs a name`,
        value: args.name,
      };
    }
    return checkNameSelector(args);
  },
  rbac: [
    { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
    { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
  ],
  async run(args, ctx) {
    const selector = formatNameSelector(args.label_selector ?? '', args.name);
    const pods = await listPods(ctx.kube, args.ns, selector);
    if (pods.length === 0) ctx.log(`no pod matched '${selector}' in namespace ${args.ns}`);
    const logs = new Map<string, string>();
    await bulk(
      pods,
      async (pod) => {
        const container = args.container_name ?? defaultContainer(pod);
        const text = await ctx.kube.text(Pods, objectName(pod), args.ns, 'log', {
          container,
          previous: args.from_previous,
          timestamps: true,
          // `last` arrives as whole seconds (lastArg); null or 0 is no limit.
          sinceSeconds: args.last || undefined,
        });
        logs.set(objectName(pod), text);
      },
      { name: objectName, verb: 'read the logs of' },
    );
    return Object.fromEntries(
      pods.map((pod) => [objectName(pod), logs.get(objectName(pod)) ?? '']),
    ) as Record<string, string>;
  },
});

export const readPodLogs = readPodLogsActivity.fn;
