// The argument schemas the node activities share, and the rule that ties the two pod arguments.

import { kubernetesName, labelSelectorString, namespaceArg } from '@chaoskit/core';

/** `name`: one node's name. */
export function nodeNameArg(doc: string) {
  return kubernetesName('a node name').nullable().default(null).describe(doc);
}

/** `label_selector` of the nodes. */
export function nodeSelectorArg(doc: string) {
  return labelSelectorString().nullable().default(null).describe(doc);
}

/** `pod_label_selector` and `pod_namespace`: keep the nodes hosting matching pods. */
export function hostingPodArgs() {
  return {
    pod_label_selector: labelSelectorString()
      .nullable()
      .default(null)
      .describe(
        'Keep only the nodes hosting at least one pod that matches this label selector, in pod_namespace (give both).',
      ),
    pod_namespace: namespaceArg(undefined, 'selection')
      .unwrap()
      .nullable()
      .default(null)
      .describe('Namespace of the pods that pod_label_selector matches (give both).'),
  };
}

/**
 * A `check` hook (D29, docs/decisions.md): 0.25.1 silently ignored one of pod_label_selector
 * and pod_namespace without the other, and so acted on nodes the experiment did not mean. The
 * refusal says what to write instead: the missing half, or nothing of the filter (what 0.25.1
 * did).
 */
export function checkHostingPods(args: { pod_label_selector: string | null; pod_namespace: string | null }) {
  if (args.pod_label_selector && !args.pod_namespace) {
    return {
      argument: 'pod_namespace' as const,
      accepted: `the namespace of the pods that pod_label_selector '${args.pod_label_selector}' matches (the two go together: chaoskit explain D29): write pod_namespace: <their namespace> to act on the nodes hosting those pods, or remove pod_label_selector to act on the nodes the other arguments select, as chaostoolkit-kubernetes 0.25.1 did (it ignored pod_label_selector alone)`,
    };
  }
  if (args.pod_namespace && !args.pod_label_selector) {
    return {
      argument: 'pod_label_selector' as const,
      accepted: `a label selector of the pods of namespace '${args.pod_namespace}' whose nodes are meant (the two go together: chaoskit explain D29): write pod_label_selector: "app=<your app>" to act on the nodes hosting those pods, or remove pod_namespace to act on the nodes the other arguments select, as chaostoolkit-kubernetes 0.25.1 did (it ignored pod_namespace alone)`,
    };
  }
  return undefined;
}
