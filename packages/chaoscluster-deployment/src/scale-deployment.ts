import { Deployments, scaleAction } from '@chaoskit/core';
import { ACTIONS } from './modules.js';

export const scaleDeploymentActivity = scaleAction(Deployments, {
  name: 'scale_deployment',
  module: ACTIONS,
  doc: 'Scales the deployment up or down by setting its spec.replicas. Returns the name and the replicas now asked for; fails with ActivityFailed when there is no such deployment.',
});

export const scaleDeployment = scaleDeploymentActivity.fn;
