// The deprecated modules: their activities as in 0.25.1, their reuse of the modern argument schemas, the
// warning given once, and the refusals reported under the deprecated activity's name.
import { join } from 'node:path';
import {
  createDeploymentActivity,
  deleteDeploymentActivity,
  activities as deploymentActivities,
  deploymentFullyAvailableActivity,
  scaleDeploymentActivity,
} from '@chaoskit/chaoscluster-deployment';
import {
  deletePodsActivity,
  activities as podActivities,
  readPodLogsActivity,
} from '@chaoskit/chaoscluster-pod';
import {
  deleteReplicaSetActivity,
  activities as replicaSetActivities,
} from '@chaoskit/chaoscluster-replicaset';
import { activities as serviceActivities } from '@chaoskit/chaoscluster-service';
import { argumentSignatures, expectAsDeclared, refusals, scratchFiles } from '@chaoskit/cluster/testing';
import { defineActivity, isChaosError, z } from '@chaoskit/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deploymentIsFullyAvailableActivity } from './deployment-is-fully-available.js';
import { delegate, deprecationMessage, resetDeprecationWarnings, warnDeprecated } from './deprecation.js';
import { activities, aliases } from './index.js';
import { killMicroserviceActivity } from './kill-microservice.js';
import { readMicroservicesLogsActivity } from './read-microservices-logs.js';
import { scaleMicroserviceActivity } from './scale-microservice.js';
import { serviceEndpointIsInitializedActivity } from './service-endpoint-is-initialized.js';
import { startMicroserviceActivity } from './start-microservice.js';

const { dir, write } = scratchFiles('chaoskit-deprecated-');
afterEach(() => {
  vi.restoreAllMocks();
  resetDeprecationWarnings();
});

const refusal = refusals(isChaosError);

describe('the activities of chaostoolkit-kubernetes 0.25.1', () => {
  it('are every activity the package defines, in the modules its package.json declares', () =>
    expectAsDeclared(import.meta.url));

  it('declares every operation of chaoscluster.actions and chaoscluster.probes with the 0.25.1 arguments', () => {
    expect(argumentSignatures(activities)).toMatchObject({
      'chaoscluster.actions.kill_microservice': [
        'name*',
        'ns="default"',
        'label_selector="name in ({name})"',
      ],
      'chaoscluster.actions.remove_service_endpoint': ['name*', 'ns="default"'],
      'chaoscluster.actions.scale_microservice': ['name*', 'replicas*', 'ns="default"'],
      'chaoscluster.actions.start_microservice': ['spec_path*', 'ns="default"'],
      'chaoscluster.probes.all_microservices_healthy': ['ns="default"'],
      'chaoscluster.probes.microservice_available_and_healthy': [
        'name*',
        'ns="default"',
        'label_selector=null',
      ],
      'chaoscluster.probes.microservice_is_not_available': [
        'name*',
        'ns="default"',
        'label_selector="name in ({name})"',
      ],
      'chaoscluster.probes.service_endpoint_is_initialized': [
        'name*',
        'ns="default"',
        'label_selector="name in ({name})"',
      ],
      'chaoscluster.probes.deployment_is_fully_available': [
        'name*',
        'ns="default"',
        'label_selector=null',
        'timeout=30',
      ],
      'chaoscluster.probes.deployment_is_not_fully_available': [
        'name*',
        'ns="default"',
        'label_selector=null',
        'timeout=30',
      ],
      'chaoscluster.probes.read_microservices_logs': [
        'name=null',
        'last=null',
        'ns="default"',
        'from_previous=false',
        'label_selector="name in ({name})"',
        'container_name=null',
      ],
    });
  });

  it('marks every one deprecated, naming its replacement, in the JSON Schema too', () => {
    for (const a of activities) {
      expect(a.deprecated, a.name).toBe(true);
      expect(a.deprecationNote, a.name).toBeTruthy();
      expect(a.jsonSchema().deprecated).toBe(true);
      expect(a.kind).toBe(a.module === 'chaoscluster.actions' ? 'action' : 'probe');
      expect(a.doc).toMatch(/^Deprecated/);
    }
    expect(killMicroserviceActivity.deprecationNote).toBe(
      'chaoscluster.deployment.actions.delete_deployment, chaoscluster.replicaset.actions.delete_replica_set, chaoscluster.pod.actions.delete_pods',
    );
    expect(scaleMicroserviceActivity.deprecationNote).toBe(
      'chaoscluster.deployment.actions.scale_deployment',
    );
  });

  it('reuses the argument schemas of the modern activities instead of writing them again', () => {
    expect(scaleMicroserviceActivity.schema.shape.replicas).toBe(
      scaleDeploymentActivity.schema.shape.replicas,
    );
    expect(startMicroserviceActivity.schema.shape.spec_path).toBe(
      createDeploymentActivity.schema.shape.spec_path,
    );
    expect(deploymentIsFullyAvailableActivity.schema.shape.timeout).toBe(
      deploymentFullyAvailableActivity.schema.shape.timeout,
    );
    expect(readMicroservicesLogsActivity.schema.shape.last).toBe(readPodLogsActivity.schema.shape.last);
  });

  it('declares the RBAC of everything it delegates to (kill_microservice: deployments, replica sets, pods)', () => {
    expect(killMicroserviceActivity.rbac).toEqual([
      ...deleteDeploymentActivity.rbac,
      ...deleteReplicaSetActivity.rbac,
      ...deletePodsActivity.rbac,
    ]);
    expect(scaleMicroserviceActivity.rbac).toEqual(scaleDeploymentActivity.rbac);
  });
});

describe('the names 0.25.1 imports into chaosk8s.actions and chaosk8s.probes', () => {
  it('are aliases of the modern definitions, not copies', () => {
    expect(Object.fromEntries(aliases.map((a) => [a.qualifiedName, a.activity.qualifiedName]))).toEqual({
      'chaoscluster.actions.create_deployment': 'chaoscluster.deployment.actions.create_deployment',
      'chaoscluster.actions.delete_deployment': 'chaoscluster.deployment.actions.delete_deployment',
      'chaoscluster.actions.scale_deployment': 'chaoscluster.deployment.actions.scale_deployment',
      'chaoscluster.actions.delete_replica_set': 'chaoscluster.replicaset.actions.delete_replica_set',
      'chaoscluster.actions.delete_pods': 'chaoscluster.pod.actions.delete_pods',
      'chaoscluster.actions.delete_service': 'chaoscluster.service.actions.delete_service',
      'chaoscluster.probes.read_pod_logs': 'chaoscluster.pod.probes.read_pod_logs',
      'chaoscluster.probes.pod_is_not_available': 'chaoscluster.pod.probes.pod_is_not_available',
      'chaoscluster.probes.all_pods_healthy': 'chaoscluster.pod.probes.all_pods_healthy',
      'chaoscluster.probes.deployment_available_and_healthy':
        'chaoscluster.deployment.probes.deployment_available_and_healthy',
      'chaoscluster.probes.deployment_not_fully_available':
        'chaoscluster.deployment.probes.deployment_not_fully_available',
      'chaoscluster.probes.deployment_fully_available':
        'chaoscluster.deployment.probes.deployment_fully_available',
      'chaoscluster.probes.service_is_initialized': 'chaoscluster.service.probes.service_is_initialized',
    });
    const modern = [...deploymentActivities, ...podActivities, ...replicaSetActivities, ...serviceActivities];
    for (const alias of aliases) {
      // The very definition the modern package exports.
      expect(alias.activity).toBe(modern.find((a) => a.qualifiedName === alias.activity.qualifiedName));
      expect(alias.name).toBe(alias.activity.name);
      expect(alias.activity.deprecated).toBe(false);
    }
  });
});

describe('validation', () => {
  it("applies the modern activity's own rules, naming the deprecated activity", () => {
    const logs = refusal(() => readMicroservicesLogsActivity.validate({}));
    expect(logs.argument).toBe('name');
    expect(logs.message).toMatch(/^chaoscluster\.probes\.read_microservices_logs: /);
    const kill = refusal(() =>
      killMicroserviceActivity.validate({ name: 'web', label_selector: 'name in ({name}' }),
    );
    expect(kill.argument).toBe('label_selector');
    expect(kill.message).toMatch(/^chaoscluster\.actions\.kill_microservice: /);
  });

  it('start_microservice reads the file while validating and refuses one in another namespace', () => {
    const doc = (namespace?: string) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', ...(namespace ? { namespace } : {}) },
      spec: { selector: { matchLabels: { app: 'web' } }, template: {} },
    });
    const good = write('web.json', JSON.stringify(doc()));
    expect(startMicroserviceActivity.validate({ spec_path: good }).spec_path.body.metadata?.name).toBe('web');
    expect(
      refusal(() => startMicroserviceActivity.validate({ spec_path: join(dir, 'nope.json') })).argument,
    ).toBe('spec_path');
    const elsewhere = write('elsewhere.json', JSON.stringify(doc('other')));
    const err = refusal(() => startMicroserviceActivity.validate({ spec_path: elsewhere, ns: 'shop' }));
    expect(err.argument).toBe('ns');
    expect(err.message).toMatch(/^chaoscluster\.actions\.start_microservice: /);
  });

  it('service_endpoint_is_initialized checks its name and the selector once {name} is filled in (D13)', () => {
    expect(serviceEndpointIsInitializedActivity.validate({ name: 'web' }).label_selector).toBe(
      'name in ({name})',
    );
    expect(refusal(() => serviceEndpointIsInitializedActivity.validate({ name: 'Web_1' })).argument).toBe(
      'name',
    );
    expect(
      refusal(() =>
        serviceEndpointIsInitializedActivity.validate({ name: 'web', label_selector: 'a in ({name}' }),
      ).argument,
    ).toBe('label_selector');
  });
});

// The identity a running activity finds in its context.
const identity = (module: string, name: string) => ({
  name,
  module,
  kind: 'action' as const,
  qualifiedName: `${module}.${name}`,
});
const oldThing = identity('chaoscluster.actions', 'old_thing');

describe('delegate', () => {
  const modern = defineActivity({
    name: 'modern_thing',
    kind: 'action',
    module: 'chaoscluster.test.actions',
    doc: 'A modern activity.',
    args: { count: z.int().min(0).describe('How many.') },
    rbac: [],
    run: (args) => ({ counted: args.count }),
  });

  it("runs the modern activity with this call's context and returns its result", async () => {
    const lines: string[] = [];
    const ctx = { activity: oldThing, callOptions: { log: (m: string) => lines.push(m) } };
    expect(await delegate(modern, { count: 2 }, ctx)).toEqual({
      counted: 2,
    });
  });

  it("reports the modern activity's refusal as the deprecated one's", async () => {
    const ctx = { activity: oldThing, callOptions: {} };
    const err = await delegate(modern, { count: -1 }, ctx).catch((e) => e);
    expect(isChaosError(err, 'InvalidArgument')).toBe(true);
    expect(err.activity).toBe('chaoscluster.actions.old_thing');
    expect(err.argument).toBe('count');
    expect(err.message).toMatch(/^chaoscluster\.actions\.old_thing: argument 'count': expected an integer/);
  });
});

describe('the deprecation warning', () => {
  it('is given once per process and activity, through the log and on stderr, naming the replacement', () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const lines: string[] = [];
    const ctx = {
      activity: identity('chaoscluster.actions', 'kill_microservice'),
      log: (m: string) => lines.push(m),
    };
    const scaleCtx = { ...ctx, activity: identity('chaoscluster.actions', 'scale_microservice') };
    const replacement =
      'chaoscluster.deployment.actions.delete_deployment, chaoscluster.pod.actions.delete_pods';
    warnDeprecated(replacement, ctx);
    warnDeprecated(replacement, ctx);
    const text =
      'kill_microservice is deprecated and will be removed; use chaoscluster.deployment.actions.delete_deployment, chaoscluster.pod.actions.delete_pods instead';
    expect(deprecationMessage('kill_microservice', replacement)).toBe(text);
    expect(lines).toEqual([text]);
    expect(stderr.mock.calls).toEqual([[`chaoskit: warning: ${text}\n`]]);
    warnDeprecated('x', scaleCtx);
    expect(lines).toHaveLength(2);
    resetDeprecationWarnings();
    warnDeprecated(replacement, ctx);
    expect(lines).toHaveLength(3);
  });

  it('is given by the activity itself before it runs, not when its arguments are refused', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const lines: string[] = [];
    await scaleMicroserviceActivity
      .call({ name: 'web' }, { log: (m) => lines.push(m) })
      .catch(() => undefined);
    expect(lines).toEqual([]);
    expect(stderr).not.toHaveBeenCalled();
    // No cluster here: the call fails after the warning, on the missing configuration.
    const env = { ...process.env };
    process.env.CLUSTERCONFIG = join(dir, 'no-such-kubeconfig');
    delete process.env.KUBECONFIG;
    delete process.env.CLUSTER_HOST;
    delete process.env.RUNNER_IN_POD;
    try {
      await scaleMicroserviceActivity
        .call({ name: 'web', replicas: 2 }, { log: (m) => lines.push(m) })
        .catch(() => undefined);
    } finally {
      process.env = env;
    }
    expect(lines[0]).toBe(
      'scale_microservice is deprecated and will be removed; use chaoscluster.deployment.actions.scale_deployment instead',
    );
    expect(stderr).toHaveBeenCalledTimes(1);
  });
});
