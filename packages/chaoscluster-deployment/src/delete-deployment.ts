import {
  ActivityFailed,
  checkNameSelector,
  Deployments,
  defineActivity,
  deleteAll,
  formatNameSelector,
  type KubeClient,
  NAME_SELECTOR_TEMPLATE,
  nameSelectorArg,
  namespaceArg,
  objectName,
  z,
} from '@chaoskit/core';
import type { V1Deployment } from '@kubernetes/client-node';
import { byName, listDeployments } from './deployments.js';
import { ACTIONS } from './modules.js';

export const deleteDeploymentActivity = defineActivity({
  name: 'delete_deployment',
  kind: 'action',
  module: ACTIONS,
  doc: 'Deletes every deployment of the namespace that label_selector matches (by default those labelled name=<name>), with background propagation: their replica sets and pods follow. Returns the names of the deployments deleted; fails when none matches.',
  returns: '`{ deployments: string[] }`',
  args: {
    name: z
      .string()
      .min(1)
      .describe('Name put in place of {name} in label_selector (by default: the value of the label "name").'),
    ns: namespaceArg('Namespace of the deployments.'),
    label_selector: nameSelectorArg().describe(
      `Label selector of the deployments; {name} is replaced by the name argument. The default "${NAME_SELECTOR_TEMPLATE}" matches deployments labelled name=<name>, not the deployment called <name>.`,
    ),
  },
  check: checkNameSelector,
  rbac: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['list', 'delete'] }],
  async run(args, ctx) {
    // The schema's default is the template; null never passes it, but the type allows it.
    const template = args.label_selector ?? NAME_SELECTOR_TEMPLATE;
    const selector = formatNameSelector(template, args.name);
    if (!selector) ctx.log(`label_selector is empty: every deployment of namespace ${args.ns} is deleted`);
    const found = await listDeployments(ctx.kube, args.ns, { labelSelector: selector });
    if (found.length === 0) {
      throw new ActivityFailed(
        await nothingMatched({ ...args, label_selector: template }, selector, () =>
          listByName(ctx.kube, args),
        ),
      );
    }
    // Already gone counts as deleted: that is what was asked for.
    const deleted = await deleteAll(ctx.kube, Deployments, found, {
      query: { propagationPolicy: 'Background' },
    });
    const names = deleted.map(objectName);
    ctx.log(`deleted ${names.length} deployment(s) of namespace ${args.ns}: ${names.join(', ')}`);
    return { deployments: names };
  },
});

export const deleteDeployment = deleteDeploymentActivity.fn;

function listByName(kube: KubeClient, args: { name: string; ns: string }): Promise<V1Deployment[]> {
  return listDeployments(kube, args.ns, { fieldSelector: byName(args.name) });
}

/**
 * Why nothing was deleted, in words a user can act on. The default selector is a classic trap:
 * it matches the label name=<name>, not the deployment's own name, so when a deployment called
 * <name> exists the message says so.
 */
async function nothingMatched(
  args: { name: string; ns: string; label_selector: string },
  selector: string,
  lookUpByName: () => Promise<V1Deployment[]>,
): Promise<string> {
  const base = `no deployment of namespace '${args.ns}' matches label selector '${selector}'; nothing was deleted`;
  if (!args.label_selector.includes('{name}')) return base;
  const named = await lookUpByName().catch(() => []);
  const exists = named.length > 0;
  const hint =
    args.label_selector === NAME_SELECTOR_TEMPLATE
      ? `. The default label_selector "${NAME_SELECTOR_TEMPLATE}" matches deployments labelled name=${args.name}, not the deployment whose own name is '${args.name}'`
      : `. label_selector "${args.label_selector}" matches labels, not the deployment's own name`;
  const seen = exists
    ? `; a deployment called '${args.name}' exists but has no such label: label it name=${args.name}, or give a label_selector that matches its labels (e.g. ${suggestSelector(named[0]!)})`
    : `; there is no deployment called '${args.name}' in namespace '${args.ns}' either`;
  return `${base}${hint}${seen}.`;
}

function suggestSelector(d: V1Deployment): string {
  const labels = Object.entries(d.metadata?.labels ?? {});
  if (labels.length === 0) return "'app=<label>' after labelling it";
  return `'${labels.map(([k, v]) => `${k}=${v}`).join(',')}'`;
}
