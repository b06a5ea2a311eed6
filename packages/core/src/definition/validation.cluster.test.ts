import { randomBytes } from 'node:crypto';
import { readAuditLog } from '@chaoskit/cluster';
import {
  createNamespace,
  serviceAccountToken,
  sharedCluster,
  testNamespace,
} from '@chaoskit/cluster/testing';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSecrets, secretsFor } from '../config/secrets.js';
import { isChaosError } from '../errors/errors.js';

const cluster = sharedCluster();

// A fixture activity made only of core's shared pieces, as an activity package would be. It is
// the example of README.md (region `define-activity`), imported from the package as a reader
// would import it.
// #region define-activity
import {
  checkPodSelection,
  defineActivity,
  lastArg,
  Pods,
  podSelectionArgs,
  selectPods,
  z,
} from '@chaoskit/core';
import type { V1Pod } from '@kubernetes/client-node';

export const selectAndCount = defineActivity({
  name: 'select_and_count', // the experiment's `func`
  kind: 'probe',
  module: 'chaoskit.fixture.probes', // the experiment's `module`
  doc: 'Selects pods like terminate_pods does and returns their names (a test fixture).',
  returns: 'the names of the pods selected',
  // Names exactly as in experiments, with defaults and docs: the camelCase export takes them
  // as labelSelector, since, gracePeriod.
  args: {
    ...podSelectionArgs(),
    since: lastArg('Only pods this recent.'),
    grace_period: z.int().default(-1).describe('Grace period in seconds; negative means the pod default.'),
  },
  check: checkPodSelection, // cross-argument rules (a percentage qty is 1 to 100)
  rbac: [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }],
  async run(args, ctx) {
    // ctx.kube: the cluster the secrets point at, as JSON (every page; retried; dry runs in plan mode)
    const pods = await ctx.kube.list<V1Pod>(Pods, { namespace: args.ns, labelSelector: args.label_selector });
    ctx.log(`listed ${pods.length} pods in ${args.ns}`);
    const { selected } = selectPods(pods, args);
    return selected.map((p) => p.metadata?.name);
  },
});
// #endregion

let ns: Awaited<ReturnType<typeof testNamespace>>;
let secrets: Record<string, unknown>;
let identity: string;
const began = new Date();

beforeAll(async () => {
  ns = await testNamespace(cluster.kc, 'validation');
  const prober = await serviceAccountToken(cluster.kc, ns.name, 'prober', [{ role: 'view' }]);
  identity = prober.identity;
  secrets = {
    CLUSTER_HOST: cluster.credentials.server,
    CLUSTER_API_KEY: prober.token,
    CLUSTER_CA_CERT_FILE: cluster.credentials.caFile,
  };
});
afterAll(async () => {
  await ns.remove();
});

const bad: Array<[string, Record<string, unknown> | unknown, string]> = [
  ['an unknown argument', { labelselector: 'app=web' }, 'labelselector'],
  ['secrets given as an argument', { secrets: {} }, 'secrets'],
  ['qty as a string', { qty: '3' }, 'qty'],
  ['a negative qty', { qty: -1 }, 'qty'],
  ['a fractional qty', { qty: 1.5 }, 'qty'],
  ['an unknown mode', { mode: 'random' }, 'mode'],
  ['an unknown order', { order: 'newest' }, 'order'],
  ['percentage 0', { mode: 'percentage', qty: 0 }, 'qty'],
  ['percentage 150', { mode: 'percentage', qty: 150 }, 'qty'],
  ['an unterminated regex group', { name_pattern: '([a-z' }, 'name_pattern'],
  ['a regex starting with a quantifier', { name_pattern: '*web' }, 'name_pattern'],
  ['a selector value with a space', { label_selector: 'app=we b' }, 'label_selector'],
  ['an unterminated set', { label_selector: 'app in (a,b' }, 'label_selector'],
  ['a selector with no key', { label_selector: '=web' }, 'label_selector'],
  ['a dangling operator', { label_selector: 'app!' }, 'label_selector'],
  ['a selector key over 63 characters', { label_selector: `${'k'.repeat(64)}=v` }, 'label_selector'],
  ['a selector that is a number', { label_selector: 42 }, 'label_selector'],
  ['all as a string', { all: 'yes' }, 'all'],
  ['rand as a number', { rand: 1 }, 'rand'],
  ['a negative seed', { seed: -5 }, 'seed'],
  ['a seed that is text', { seed: 'abc' }, 'seed'],
  ['an upper-case namespace', { ns: 'Default' }, 'ns'],
  ['an empty namespace', { ns: '' }, 'ns'],
  ['a 64-character namespace', { ns: 'a'.repeat(64) }, 'ns'],
  ['a namespace that is a number', { ns: 7 }, 'ns'],
  ['an unparseable duration', { since: 'garbage' }, 'since'],
  ['a duration in the future', { since: 'in 5 minutes' }, 'since'],
  ['a grace period that is text', { grace_period: 'soon' }, 'grace_period'],
  ['arguments that are a list', ['qty', 1], ''],
];

describe('bad input is refused before any request', () => {
  it.each(bad)('refuses %s with InvalidArgument naming the argument', async (_what, args, argument) => {
    const err = await selectAndCount.call(args, { secrets }).catch((e: unknown) => e);
    expect(isChaosError(err, 'InvalidArgument'), String(err)).toBe(true);
    const message = (err as Error).message;
    expect(message).toContain('chaoskit.fixture.probes.select_and_count');
    if (argument) expect(message).toContain(`'${argument}'`);
    expect(message).toMatch(/expected .+/);
  });

  it(`left no trace in the apiserver's audit log (${bad.length} bad inputs), while a valid call does`, async () => {
    const before = await readAuditLog(cluster.auditLogPath, { user: identity, since: began });
    expect(before).toEqual([]);
    expect(await selectAndCount.call({ ns: ns.name }, { secrets })).toEqual([]);
    const after = await readAuditLog(cluster.auditLogPath, { user: identity, since: began });
    expect(after.map((e) => `${e.verb} ${e.objectRef?.resource}`)).toEqual(['list pods']);
  });
});

describe('secrets never appear in output', () => {
  it('keeps an environment secret out of errors and log lines', async () => {
    const value = `tok-${randomBytes(12).toString('hex')}`;
    const env = { CHAOSKIT_TEST_SECRET: value };
    const resolved = secretsFor(
      resolveSecrets({ creds: { CLUSTER_API_KEY: { type: 'env', key: 'CHAOSKIT_TEST_SECRET' } } }, env),
      ['creds'],
    );
    const output: string[] = [];
    const capture = (chunk: unknown) => {
      output.push(String(chunk));
      return true;
    };
    const originalWrite = process.stderr.write.bind(process.stderr);
    process.stderr.write = capture as typeof process.stderr.write;
    try {
      // The secret as an argument value: refused, and the message masks it.
      const invalid = await selectAndCount
        .call({ label_selector: `app=${value} x` }, { secrets: { ...secrets, ...resolved } })
        .catch((e: unknown) => e);
      output.push((invalid as Error).message);
      // The secret as a (wrong) credential: the server refuses it, and nothing echoes it.
      const refused = await selectAndCount
        .call(
          { ns: ns.name },
          { secrets: { ...secrets, ...resolved, CLUSTER_VERIFY_SSL: 'false' }, log: (m) => output.push(m) },
        )
        .catch((e: unknown) => e);
      expect(isChaosError(refused, 'Unauthorized'), String(refused)).toBe(true);
      output.push((refused as Error).message, JSON.stringify(refused), String((refused as Error).stack));
    } finally {
      process.stderr.write = originalWrite;
    }
    expect(output.join('\n')).toContain('***');
    expect(output.join('\n')).not.toContain(value);
  });
});

describe("the README's example", () => {
  // What the example expects: a kubeconfig (KUBECONFIG, as in a reader's shell) with the local
  // cluster's context `chaoskit-local`, and namespace `catalog` holding three pods created a
  // second apart, the oldest first.
  const NS = 'catalog';
  const core = cluster.kc.makeApiClient(CoreV1Api);
  const previousKubeconfig = process.env.KUBECONFIG;
  beforeAll(async () => {
    process.env.KUBECONFIG = cluster.kubeconfigPath;
    await createNamespace(cluster.kc, NS);
    for (const [i, name] of ['c-first', 'a-second', 'b-third'].entries()) {
      // Creation timestamps have a resolution of one second.
      if (i > 0) await new Promise((r) => setTimeout(r, 1100));
      await core.createNamespacedPod({
        namespace: NS,
        body: {
          metadata: { name },
          spec: { containers: [{ name: 'main', image: 'example.invalid/main:1' }] },
        },
      });
    }
  });
  afterAll(async () => {
    if (previousKubeconfig === undefined) delete process.env.KUBECONFIG;
    else process.env.KUBECONFIG = previousKubeconfig;
    await core.deleteNamespace({ name: NS }).catch(() => undefined);
  });

  it('selects the two oldest pods of the namespace, called as an experiment does and as the export', async () => {
    // #region call
    // As an experiment calls it: its arguments as written, its secrets.
    const secrets = { CLUSTER_CONTEXT: 'chaoskit-local' };
    const oldest = await selectAndCount.call({ ns: 'catalog', qty: 2, order: 'oldest' }, { secrets });
    // The camelCase export: typed options, validated the same way.
    const same = await selectAndCount.fn({ ns: 'catalog', qty: 2, order: 'oldest', secrets });
    // The JSON Schema of its arguments, for discovery and editors.
    const schema = selectAndCount.jsonSchema();
    // #endregion

    const pods = (await core.listNamespacedPod({ namespace: NS })).items;
    const byAge = pods
      .sort((a, b) => a.metadata!.creationTimestamp!.getTime() - b.metadata!.creationTimestamp!.getTime())
      .map((p) => p.metadata!.name);
    expect(byAge).toEqual(['c-first', 'a-second', 'b-third']);
    expect(oldest).toEqual(byAge.slice(0, 2));
    expect(same).toEqual(oldest);
    expect(Object.keys((schema as { properties: object }).properties)).toEqual(
      expect.arrayContaining(['qty', 'order', 'ns', 'label_selector', 'since', 'grace_period']),
    );
  });
});
