import {
  checkNameSelector,
  defineActivity,
  formatNameSelector,
  nameSelectorArg,
  objectName,
  z,
} from '@chaoskit/core';
import { ns } from './args.js';
import { listPods } from './list-pods.js';
import { PROBES } from './modules.js';
import { describeSelection, notAsExpected } from './probe-failures.js';

export const podIsNotAvailableActivity = defineActivity({
  name: 'pod_is_not_available',
  kind: 'probe',
  module: PROBES,
  doc: 'Returns true when none of the pods labelled name=<name> (or matching label_selector) is Running, also when there is none; raises ActivityFailed naming each pod that is Running.',
  returns: '`true`, or `ActivityFailed` naming each pod and what was expected',
  args: {
    name: z.string().describe('Value of the `name` label of the pods; replaces {name} in label_selector.'),
    ns,
    label_selector: nameSelectorArg(),
  },
  check: checkNameSelector,
  rbac: [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }],
  async run(args, ctx): Promise<boolean> {
    const selector = formatNameSelector(args.label_selector ?? '', args.name);
    // Every matching pod, not only the Running ones: the messages count them all.
    const pods = await listPods(ctx.kube, args.ns, selector);
    const running = pods.filter((pod) => pod.status?.phase === 'Running');
    if (running.length > 0)
      throw notAsExpected(
        running.map((pod) => `pod ${objectName(pod)} is Running, expected it not to be available`),
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
