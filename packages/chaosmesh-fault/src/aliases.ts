// 0.1.4's fault/actions.py imports get_virtual_service from fault/probes.py, so Python resolves
// chaosistio.fault.actions.get_virtual_service: the probe, found in the actions module as well.

import { aliasActivity } from '@chaoskit/core';
import { getVirtualServiceActivity } from './get-virtual-service.js';
import { ACTIONS } from './modules.js';

export const aliases = [aliasActivity(ACTIONS, getVirtualServiceActivity)];
