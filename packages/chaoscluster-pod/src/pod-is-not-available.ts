import {
  checkNameSelector,
  defineActivity,
  formatNameSelector,
  nameSelectorArg,
  namespaceArg,
  z,
} from '@chaoskit/core';
import { coreApi, listPods, podName } from './list-pods.js';
import { describeSelection, notAsExpected } from './pod-state.js';

export const podIsNotAvailableActivity = defineActivity({
  name: 'pod_is_not_available',
  kind: 'probe',
  module: 'chaoscluster.pod.probes',
  doc: 'Returns true when none of the pods labelled name=<name> (or matching label_selector) is Running, also when there is none; raises ActivityFailed naming each pod that is Running.',
  args: {
    name: z.string().describe('Value of the `name` label of the pods; replaces {name} in label_selector.'),
    ns: namespaceArg('Namespace of the pods.'),
    label_selector: nameSelectorArg(),
  },
  check: checkNameSelector,
  rbac: [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }],
  async run(args, ctx): Promise<boolean> {
    const { core } = coreApi(ctx.secrets);
    const selector = formatNameSelector(args.label_selector ?? '', args.name);
    const pods = await listPods(core, args.ns, selector);
    const running = pods.filter((pod) => pod.status?.phase === 'Running');
    if (running.length > 0)
      throw notAsExpected(
        running.map((pod) => `pod ${podName(pod)} is Running, expected it not to be available`),
        pods.length,
        `${describeSelection(selector, args.ns)} are Running`,
      );
    ctx.log(
      pods.length === 0
        ? `no pod matched '${selector}' in namespace ${args.ns}`
        : `${describeSelection(selector, args.ns)}: none of ${pods.length} is Running`,
    );
    return true;
  },
});

export const podIsNotAvailable = podIsNotAvailableActivity.fn;
