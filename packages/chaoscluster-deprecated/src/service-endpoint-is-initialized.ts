import {
  ActivityFailed,
  checkNameSelector,
  formatNameSelector,
  NAME_SELECTOR_TEMPLATE,
  nameSelectorArg,
  namespaceArg,
  Services,
} from '@chaoskit/core';
import type { V1Service } from '@kubernetes/client-node';
import { serviceNameArg } from './args.js';
import { defineDeprecated } from './deprecation.js';
import { PROBES } from './modules.js';

/** "'app=web,tier=front'", or a word for a Service without labels. */
function labelsOf(service: V1Service): string {
  const labels = Object.entries(service.metadata?.labels ?? {});
  return labels.length ? `'${labels.map(([k, v]) => `${k}=${v}`).join(',')}'` : 'none';
}

export const serviceEndpointIsInitializedActivity = defineDeprecated({
  name: 'service_endpoint_is_initialized',
  kind: 'probe',
  module: PROBES,
  doc: 'Deprecated. Returns true when the Service called name exists in namespace ns and matches label_selector (by default: it is labelled name=<name>); fails with ActivityFailed otherwise, saying which of the two is missing.',
  returns: '`true`',
  args: {
    name: serviceNameArg('Name of the Service (its own name).'),
    ns: namespaceArg('Namespace of the Service.'),
    label_selector: nameSelectorArg().describe(
      `Label selector the Service must also match; {name} is replaced by the name argument (D13; the original sent the template unformatted). The default "${NAME_SELECTOR_TEMPLATE}" asks for the label name=<name>; give "" to look by name only.`,
    ),
  },
  check: checkNameSelector,
  rbac: [{ apiGroups: [''], resources: ['services'], verbs: ['list'] }],
  replacement: 'a process provider running `kubectl get service <name>` (chaoskit has no service module)',
  async run(args, ctx): Promise<boolean> {
    const labelSelector = args.label_selector ? formatNameSelector(args.label_selector, args.name) : '';
    const fieldSelector = `metadata.name=${args.name}`;
    const [found] = await ctx.kube.list<V1Service>(Services, {
      namespace: args.ns,
      labelSelector,
      fieldSelector,
    });
    if (found) {
      ctx.log(`service ${args.name} of namespace ${args.ns} is initialized`);
      return true;
    }
    const head = `service '${args.name}' is not initialized`;
    if (!labelSelector)
      throw new ActivityFailed(`${head}: there is no service '${args.name}' in namespace '${args.ns}'`);
    // Only to say why: a failure to look is no reason to hide the verdict.
    const [named] = await ctx.kube
      .list<V1Service>(Services, { namespace: args.ns, fieldSelector })
      .catch(() => []);
    throw new ActivityFailed(
      named
        ? `${head}: service '${args.name}' of namespace '${args.ns}' does not match label selector '${labelSelector}' (its labels: ${labelsOf(named)}); label it, or give a label_selector that matches it ("" for none)`
        : `${head}: there is no service '${args.name}' in namespace '${args.ns}'`,
    );
  },
});

export const serviceEndpointIsInitialized = serviceEndpointIsInitializedActivity.fn;
