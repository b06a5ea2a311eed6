// The actions that create one of 0.25.1's generated policies (deny all ingress, deny all egress,
// allow DNS) for the pods of ns that label_selectors picks; a remove_ action of each deletes it.

import { defineActivity, namespaceArg } from '@chaoskit/core';
import type { V1NetworkPolicy } from '@kubernetes/client-node';
import { ACTIONS } from './modules.js';
import { type LabelSelectors, labelSelectorsArg } from './policies.js';
import { CREATE_RBAC, createPolicy } from './requests.js';

export interface GeneratedPolicyAction {
  name: string;
  doc: string;
  returns: string;
  /** The description of label_selectors: which pods the policy is for. */
  labelSelectors: string;
  policy: (labelSelectors: LabelSelectors | null) => V1NetworkPolicy;
  /** The action that removes the policy, named when it already exists. */
  remover: string;
}

export function defineGeneratedPolicy(action: GeneratedPolicyAction) {
  const { labelSelectors, policy, remover, ...described } = action;
  return defineActivity({
    ...described,
    kind: 'action',
    module: ACTIONS,
    args: {
      label_selectors: labelSelectorsArg(labelSelectors),
      ns: namespaceArg('Namespace of the pods, where the policy is created.'),
    },
    rbac: CREATE_RBAC,
    run: (args, ctx) => createPolicy(ctx, args.ns, policy(args.label_selectors), `; ${remover} removes it`),
  });
}
