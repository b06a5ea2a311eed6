import { createDeploymentActivity } from '@chaoskit/chaoscluster-deployment';
import type { Activity } from '@chaoskit/core';
import { defineDeprecated, delegate, modernProblem, rulesOf } from './deprecation.js';
import { ACTIONS } from './modules.js';

// The file is read while the arguments are validated (create_deployment's own spec_path); the
// delegation is given the path again.
const forward = (args: { spec_path: { path: string }; ns: string }) => ({
  spec_path: args.spec_path.path,
  ns: args.ns,
});

// Annotated: the parsed file's type is not exported by the deployment package.
type Shape = typeof createDeploymentActivity.schema.shape;

export const startMicroserviceActivity: Activity<Shape, { name: string; namespace: string }> =
  defineDeprecated({
    name: 'start_microservice',
    kind: 'action',
    module: ACTIONS,
    doc: 'Deprecated: create_deployment. Creates the deployment described by the JSON or YAML file at spec_path, in namespace ns. Returns the name and namespace of the deployment created.',
    returns: '`{ name, namespace }`',
    args: { ...createDeploymentActivity.schema.shape },
    check: (args) => modernProblem(createDeploymentActivity, forward(args)),
    rbac: rulesOf(createDeploymentActivity),
    replacement: createDeploymentActivity.qualifiedName,
    run: (args, ctx) => delegate(createDeploymentActivity, forward(args), ctx),
  });

export const startMicroservice = startMicroserviceActivity.fn;
