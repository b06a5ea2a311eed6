import {
  ActivityFailed,
  checkNameSelector,
  defineActivity,
  formatNameSelector,
  nameSelectorArg,
  namespaceArg,
  Services,
} from '@chaoskit/core';
import type { V1Service } from '@kubernetes/client-node';
import { serviceNameArg } from './args.js';
import { PROBES } from './modules.js';

/** "'app=web,tier=front'", or a word for a Service without labels. */
function labelsOf(service: V1Service): string {
  const labels = Object.entries(service.metadata?.labels ?? {});
  return labels.length ? `'${labels.map(([k, v]) => `${k}=${v}`).join(',')}'` : 'none';
}

export const serviceIsInitializedActivity = defineActivity({
  name: 'service_is_initialized',
  kind: 'probe',
  module: PROBES,
  doc: 'Returns true when namespace ns has a Service called name (when given) that matches label_selector (when given); with neither, when the namespace has any Service. Fails with ActivityFailed otherwise, saying whether the Service is missing or only lacks the labels.',
  returns: '`true`',
  args: {
    name: serviceNameArg('Name of the Service (its own name); none: any Service that label_selector matches.')
      .nullable()
      .default(null),
    ns: namespaceArg('Namespace of the Service.'),
    label_selector: nameSelectorArg(null).describe(
      'Label selector the Service must match; {name} is replaced by the name argument (D75). Default: none.',
    ),
  },
  check: checkNameSelector,
  rbac: [{ apiGroups: [''], resources: ['services'], verbs: ['list'] }],
  async run(args, ctx): Promise<boolean> {
    const labelSelector = args.label_selector ? formatNameSelector(args.label_selector, args.name) : '';
    const fieldSelector = args.name ? `metadata.name=${args.name}` : '';
    // One is enough: the first page of one.
    const {
      items: [found],
    } = await ctx.kube.listPage<V1Service>(Services, {
      namespace: args.ns,
      labelSelector,
      fieldSelector,
      limit: 1,
    });
    if (found) {
      ctx.log(`service ${found.metadata?.name} of namespace ${args.ns} is initialized`);
      return true;
    }
    const where = `namespace '${args.ns}'`;
    if (!args.name) {
      throw new ActivityFailed(
        labelSelector
          ? `no service is initialized: no service of ${where} matches label selector '${labelSelector}'`
          : `no service is initialized: there is no service in ${where}`,
      );
    }
    const head = `service '${args.name}' is not initialized`;
    if (!labelSelector) throw new ActivityFailed(`${head}: there is no service '${args.name}' in ${where}`);
    // Only to say why: a failure to look is no reason to hide the verdict.
    const [named] = await ctx.kube
      .list<V1Service>(Services, { namespace: args.ns, fieldSelector })
      .catch(() => []);
    throw new ActivityFailed(
      named
        ? `${head}: service '${args.name}' of ${where} does not match label selector '${labelSelector}' (its labels: ${labelsOf(named)}); label it, or give a label_selector that matches it ("" for none)`
        : `${head}: there is no service '${args.name}' in ${where}`,
    );
  },
});

export const serviceIsInitialized = serviceIsInitializedActivity.fn;
