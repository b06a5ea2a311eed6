// Fault handles on the shared cluster: each fault is undone through its record — when disposed
// after a thrown error, by withFault, by settle() when the test forgot it — and the object read
// before and after is the same; the record is gone.
import { deploy, sharedCluster } from '@chaoskit/cluster/testing';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, describe } from 'vitest';
import { expect, test } from './index.js';
import { createChaos, withFault } from './plain.js';

const { kc } = sharedCluster();
const objects = kc.makeApiClient(CustomObjectsApi);
const core = kc.makeApiClient(CoreV1Api);
const VS = { group: 'networking.istio.io', version: 'v1', plural: 'virtualservices', name: 'reviews' };
const route = { destination: { host: 'reviews', subset: 'v1' } };
let ns = '';

/** What a revert must give back: the spec, the labels and annotations (chaoskit's marks too). */
async function reviews() {
  const vs = (await objects.getNamespacedCustomObject({ ...VS, namespace: ns })) as {
    metadata: { labels?: unknown; annotations?: unknown };
    spec: unknown;
  };
  return { labels: vs.metadata.labels, annotations: vs.metadata.annotations, spec: vs.spec };
}

/** Whether the record of run `runId` is in the ledger namespace. */
async function recorded(runId: string): Promise<boolean> {
  const maps = await core.listNamespacedConfigMap({ namespace: 'default' });
  return maps.items.some((m) => m.metadata?.name === `chaoskit-run-${runId}`);
}

describe('a fault handle', () => {
  test.beforeEach(async ({ chaos }) => {
    // One namespace per test, deleted after it.
    const namespace = await chaos.testNamespace('vitest-faults');
    ns = namespace.name;
    await objects.createNamespacedCustomObject({
      ...VS,
      namespace: ns,
      body: {
        apiVersion: 'networking.istio.io/v1',
        kind: 'VirtualService',
        metadata: { name: 'reviews', labels: { team: 'a' } },
        spec: { hosts: ['reviews'], http: [{ route: [route] }] },
      },
    });
    return () => namespace.remove();
  });

  test('is reverted through its record when disposed after a thrown error', async ({ chaos }) => {
    const before = await reviews();
    let runId = '';
    await expect(async () => {
      await using fault = await chaos.addAbortFault({
        virtualServiceName: 'reviews',
        ns,
        httpStatus: 503,
        routes: [route],
      });
      runId = fault.runId;
      expect(fault.result.spec.http?.[0]?.fault).toEqual({
        abort: { httpStatus: 503, percentage: { value: 100 } },
      });
      expect((await reviews()).spec).toEqual(fault.result.spec);
      expect(await recorded(runId)).toBe(true);
      throw new Error('the assertion after the fault failed');
    }).rejects.toThrow('the assertion after the fault failed');
    expect(await reviews()).toEqual(before);
    expect(await recorded(runId)).toBe(false);
  });

  test('is reverted by withFault when the body throws, and after it returns (a runner without fixtures)', async () => {
    const { kubeconfigPath, context } = sharedCluster();
    const before = await reviews();
    const body = async () => {
      const chaos = createChaos({ kubeconfigPath, context });
      await withFault(
        chaos.addAbortFault({ virtualServiceName: 'reviews', ns, httpStatus: 500, routes: [route] }),
        async (abort) => {
          expect(abort.result.spec.http?.[0]?.fault).toMatchObject({ abort: { httpStatus: 500 } });
          throw new Error('body failed'); // the abort is reverted all the same
        },
      );
    };
    await expect(body()).rejects.toThrow('body failed');
    expect(await reviews()).toEqual(before);
    const chaos = createChaos({ kubeconfigPath, context });
    const answer = await withFault(
      () => chaos.addDelayFault({ virtualServiceName: 'reviews', ns, fixedDelay: '1s', routes: [route] }),
      async (delay) => {
        expect((await reviews()).spec).toEqual(delay.result.spec);
        return delay.result.spec.http?.[0]?.fault;
      },
    );
    expect(answer).toEqual({ delay: { fixedDelay: '1s', percentage: { value: 100 } } });
    expect(await reviews()).toEqual(before);
    expect(await chaos.settle()).toEqual([]);
  });

  test('left in place is named by settle(), which undoes it', async ({ chaos }) => {
    const before = await reviews();
    const fault = await chaos.addAbortFault({
      virtualServiceName: 'reviews',
      ns,
      httpStatus: 503,
      routes: [route],
    });
    const left = await chaos.settle();
    expect(left).toEqual([
      expect.stringMatching(
        new RegExp(
          `^chaosmesh\\.fault\\.actions\\.add_abort_fault \\(run ${fault.runId}\\): .*'reviews' in namespace '${ns}'`,
        ),
      ),
    ]);
    expect(await reviews()).toEqual(before);
    expect(await recorded(fault.runId)).toBe(false);
    expect(await chaos.settle()).toEqual([]);
  });

  test('of an action that fails leaves nothing: bad input changes nothing, and is refused by name', async ({
    chaos,
  }) => {
    const before = await reviews();
    await expect(
      // @ts-expect-error httpStatus must be a number
      chaos.addAbortFault({ virtualServiceName: 'reviews', ns, httpStatus: 'teapot', routes: [route] }),
    ).rejects.toThrow(/chaosmesh\.fault\.actions\.add_abort_fault.*httpStatus/s);
    expect(await reviews()).toEqual(before);
    expect(await chaos.settle()).toEqual([]);
  });

  test('of pods terminated has nothing to revert: the record goes at once', async ({ chaos }) => {
    await deploy(kc, ns, 'web', 3);
    await using killed = await chaos.terminatePods({ ns, labelSelector: 'app=web', qty: 1 });
    expect(killed.result.pods).toHaveLength(1);
    await expect(chaos.probe.deploymentFullyAvailable({ name: 'web', ns })).toRecoverWithin('120s');
    expect(await chaos.settle()).toEqual([]);
    expect(await recorded(killed.runId)).toBe(false);
  });
});

describe('probes as matchers', () => {
  test('a probe that cannot hold does not, within the time', async ({ chaos }) => {
    await using ns = await chaos.testNamespace('vitest-probes');
    await expect(chaos.probe.deploymentFullyAvailable({ name: 'absent', ns: ns.name })).not.toHoldWithin(
      '3s',
    );
    await expect(
      expect(chaos.probe.deploymentFullyAvailable({ name: 'absent', ns: ns.name })).toHoldWithin('2s'),
    ).rejects.toThrow(/chaos\.probe\.deploymentFullyAvailable to hold within 2s, and it did not/);
  });

  test('toReturnWithin reads what the probe returns: a value, an asymmetric matcher, a predicate', async ({
    chaos,
  }) => {
    await using ns = await chaos.testNamespace('vitest-probes');
    const running = () => chaos.probe.countPods({ labelSelector: 'app=api', phase: 'Running', ns: ns.name });
    await deploy(kc, ns.name, 'api', 2);
    await expect(running()).toReturnWithin('60s', 2);
    await expect(running()).toReturnWithin('5s', expect.any(Number));
    await expect(running()).toReturnWithin('5s', (pods: number) => pods >= 2);
    await expect(running()).not.toReturnWithin('2s', 3);
    await expect(expect(running()).toReturnWithin('2s', 5)).rejects.toThrow(
      /chaos\.probe\.countPods to return what was expected within 2s, and it did not.*it returned 2/s,
    );
  });

  test('await runs a probe once, with its typed result', async ({ chaos }) => {
    await using ns = await chaos.testNamespace('vitest-probes');
    await deploy(kc, ns.name, 'api', 2);
    const available: boolean = await chaos.probe.deploymentFullyAvailable({ name: 'api', ns: ns.name });
    expect(available).toBe(true);
  });
});

describe('a test namespace', () => {
  test("never disposed is named by the test's end, which deletes it", async ({ chaos }) => {
    const namespace = await chaos.testNamespace('vitest-undisposed');
    // Mid-test it is in use: only the end (the fixture's settle) names it.
    expect(await chaos.settle()).toEqual([]);
    expect(await chaos.settle({ namespaces: true })).toEqual([
      expect.stringMatching(
        new RegExp(
          `^namespace ${namespace.name} \\(chaos\\.testNamespace\\) was never disposed: write \`await using`,
        ),
      ),
    ]);
    const after = await core
      .readNamespace({ name: namespace.name })
      .catch((err: { code?: number }) => (err.code === 404 ? undefined : Promise.reject(err)));
    // Deleted: gone, or on its way (its pods and objects go first).
    expect(after === undefined || after.metadata?.deletionTimestamp !== undefined).toBe(true);
    expect(await chaos.settle({ namespaces: true })).toEqual([]);
  });
});

describe('the fixture', () => {
  let left: { runId: string; namespace: string; before: unknown } | undefined;

  test.fails('fails a test that leaves a fault in place', async ({ chaos }) => {
    // Made here, not with chaos.testNamespace: the fixture would delete it before afterAll reads it.
    const namespace = { name: `vitest-left-${Date.now().toString(36)}` };
    await core.createNamespace({ body: { metadata: { name: namespace.name } } });
    const body = {
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { name: 'reviews' },
      spec: { hosts: ['reviews'], http: [{ route: [route] }] },
    };
    await objects.createNamespacedCustomObject({ ...VS, namespace: namespace.name, body });
    const fault = await chaos.addAbortFault({
      virtualServiceName: 'reviews',
      ns: namespace.name,
      httpStatus: 503,
      routes: [route],
    });
    // Never disposed: the fixture fails the test after it, and undoes the abort.
    left = { runId: fault.runId, namespace: namespace.name, before: body.spec };
  });

  let undisposed = '';
  test.fails('fails a test that leaves its test namespace', async ({ chaos }) => {
    undisposed = (await chaos.testNamespace('vitest-undisposed')).name;
  });

  afterAll(async () => {
    // The tests themselves got as far as the fault and the namespace: their failures are the fixture's.
    expect(undisposed).not.toBe('');
    const ns = await core
      .readNamespace({ name: undisposed })
      .catch((err: { code?: number }) => (err.code === 404 ? undefined : Promise.reject(err)));
    expect(ns === undefined || ns.metadata?.deletionTimestamp !== undefined).toBe(true);
    expect(left).toBeDefined();
    const { runId, namespace, before } = left!;
    const vs = (await objects.getNamespacedCustomObject({ ...VS, namespace })) as { spec: unknown };
    expect(vs.spec).toEqual(before);
    expect(await recorded(runId)).toBe(false);
    await core.deleteNamespace({ name: namespace });
  });
});
