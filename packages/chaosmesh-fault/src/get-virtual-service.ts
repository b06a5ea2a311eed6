import { defineActivity } from '@chaoskit/core';
import { ns, PROBE_RBAC, version, virtualServiceName } from './args.js';
import { PROBES } from './modules.js';
import { clusterStore, type VirtualService, where } from './virtual-service.js';

export const getVirtualServiceActivity = defineActivity({
  name: 'get_virtual_service',
  kind: 'probe',
  module: PROBES,
  doc: 'Returns the VirtualService, as the API server gives it in the requested version. A missing VirtualService is ActivityFailed.',
  returns: 'the VirtualService',
  args: { virtual_service_name: virtualServiceName, ns, version },
  rbac: PROBE_RBAC,
  async run(args, ctx): Promise<VirtualService> {
    const vs = await clusterStore(args, ctx).read();
    ctx.log(`read ${where(args)} at resourceVersion ${vs.metadata.resourceVersion}`);
    return vs;
  },
});

export const getVirtualService = getVirtualServiceActivity.fn;
