import {
  accepting,
  bulk,
  checkNameSelector,
  defineActivity,
  formatNameSelector,
  type InvalidArgument,
  isChaosError,
  NAME_SELECTOR_TEMPLATE,
  nameSelectorArg,
  namespaceArg,
  parseSince,
  withReadRetry,
  z,
} from '@chaoskit/core';
import { defaultContainer } from './containers.js';
import { coreApi, listPods, podName } from './list-pods.js';

const QUALIFIED = 'chaoscluster.pod.probes.read_pod_logs';

const lastSchema = accepting(
  z.union([z.string(), z.number()]).superRefine((value, ctx) => {
    try {
      parseSince(QUALIFIED, value);
    } catch (err) {
      if (!isChaosError(err, 'InvalidArgument')) throw err;
      ctx.addIssue({ code: 'custom', message: (err as InvalidArgument).accepted });
    }
  }),
  'a number of seconds or a duration such as "90s", "5 minutes", "1h30m", "2 hours ago"',
);

export const readPodLogsActivity = defineActivity({
  name: 'read_pod_logs',
  kind: 'probe',
  module: 'chaoscluster.pod.probes',
  doc: 'Reads the logs of the pods labelled name=<name> (or matching label_selector), each line prefixed by its timestamp. Returns a mapping of pod name to log text.',
  args: {
    name: z
      .string()
      .nullable()
      .default(null)
      .describe(
        'Value of the `name` label of the pods; replaces {name} in label_selector. Without it, give a label_selector of your own.',
      ),
    last: lastSchema
      .nullable()
      .default(null)
      .describe(
        'Only the logs of the last N seconds: a number of seconds or a duration such as "5 minutes", "90s", "1h30m". Null or 0: all the logs.',
      ),
    ns: namespaceArg('Namespace of the pods.'),
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
    const since = args.last === null ? 0 : parseSince(QUALIFIED, args.last);
    const { core } = coreApi(ctx.secrets);
    const selector = formatNameSelector(args.label_selector ?? '', args.name);
    const pods = await listPods(core, args.ns, selector);
    if (pods.length === 0) ctx.log(`no pod matched '${selector}' in namespace ${args.ns}`);
    const logs = new Map<string, string>();
    await bulk(
      pods,
      async (pod) => {
        const name = podName(pod);
        const container = args.container_name ?? defaultContainer(pod);
        const text = await withReadRetry(
          () =>
            core.readNamespacedPodLog({
              name,
              namespace: args.ns,
              ...(container ? { container } : {}),
              previous: args.from_previous,
              timestamps: true,
              ...(since > 0 ? { sinceSeconds: since } : {}),
            }),
          { context: { verb: 'read the logs of', resource: 'pod', name, namespace: args.ns } },
        );
        logs.set(name, text ?? '');
      },
      { name: podName, verb: 'read the logs of' },
    );
    return Object.fromEntries(pods.map((pod) => [podName(pod), logs.get(podName(pod)) ?? ''])) as Record<
      string,
      string
    >;
  },
});

export const readPodLogs = readPodLogsActivity.fn;
