import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { ProviderName } from '@chaoskit/cluster';
import {
  auditLogSize,
  type MeshTraffic,
  type MeshTrafficOptions,
  meshTraffic,
  readAuditLog,
  xdsBootstrap,
} from '@chaoskit/cluster';
import { type AnyActivity, isChaosError, pollUntil, type ResultOf } from '@chaoskit/core';
import { invokeActivity } from '@chaoskit/runner';
import {
  AppsV1Api,
  AuthorizationV1Api,
  CoreV1Api,
  type KubeConfig,
  RbacAuthorizationV1Api,
  type V1Pod,
} from '@kubernetes/client-node';
import type { ConformanceCase } from './case.js';
import type { RunningPods } from './running/app.js';
import type { TrafficMeasurement } from './traffic-measurement.js';
import { workloadDoc } from './workload-doc.js';

/** What a case knows of the cluster it runs on. */
export interface ClusterInfo {
  provider: ProviderName;
  /** An admin kubeconfig, for fixtures and assertions (never given to the activity). */
  kc: KubeConfig;
  server: string;
  /** PEM file of the server's CA, when the activity must be given one explicitly. */
  caFile?: string;
  /** The apiserver's audit log, where the kit can read it (local provider). */
  auditLogPath?: string;
  /** Whether the cluster's nodes are kwok's: cases may then create and delete nodes. */
  fakeNodes: boolean;
  /** kwok's pod log file (CRI format), where a case can write log lines (local provider). */
  podLogFile?: string;
  /** The kit run's id: everything the run creates carries it, so the run can sweep its own. */
  runId?: string;
  /**
   * istiod's plaintext xDS address (host:port), reachable from this machine: the scenarios that
   * send real traffic through the mesh run a proxyless gRPC client against it (`t.meshTraffic`).
   */
  meshXds?: string;
  /** Why there is no `meshXds` here: what those scenarios say when they are skipped. */
  noMeshXds?: string;
  /** Where pods really run, for the scenarios on running containers (src/running); else why not. */
  running?: RunningPods;
  noRunning?: string;
}

/**
 * Thrown by a scenario that needs what this cluster cannot give (the apiserver's audit log on a
 * user's cluster): the kit reports the scenario as skipped, with this reason, not as failed.
 */
export class ScenarioSkipped extends Error {
  override readonly name = 'ScenarioSkipped';
}

export const CASE_LABEL = 'chaoskit.io/conformance';
export const RUN_LABEL = 'chaoskit.io/conformance-run';

/**
 * The world of one case: its own namespace, an identity holding exactly the RBAC rules the
 * activity declares, helpers to build fixtures, and a cleanup that removes all of it.
 */
export class CaseContext<A extends AnyActivity = AnyActivity> {
  readonly core: CoreV1Api;
  readonly apps: AppsV1Api;
  readonly id: string;
  /** Where the case's identity lives. */
  readonly home: string;
  /** The current scenario's own namespace (fresh for every scenario). */
  ns: string;
  private scenarios = 0;
  private clusterWide = false;
  /** Credentials of the case's identity, as an experiment's secrets would give them. */
  secrets: Record<string, unknown> = {};
  /** The audit user name of the case's identity. */
  identity = '';
  /** What real traffic did in the current scenario (the kit's reports show it). */
  traffic: TrafficMeasurement[] = [];
  private readonly cleanups: Array<() => Promise<unknown>> = [];
  /** What ends with the current scenario (processes it started), before the next one begins. */
  private readonly scenarioCleanups: Array<() => Promise<unknown>> = [];

  constructor(
    readonly cluster: ClusterInfo,
    readonly activity: A,
    readonly log: (line: string) => void = () => {},
  ) {
    this.core = cluster.kc.makeApiClient(CoreV1Api);
    this.apps = cluster.kc.makeApiClient(AppsV1Api);
    this.id = `${activity.name.replace(/_/g, '-').slice(0, 30)}-${randomBytes(3).toString('hex')}`;
    this.home = `ck-${this.id}`;
    this.ns = this.home;
  }

  get kc(): KubeConfig {
    return this.cluster.kc;
  }

  /** The labels of everything the case creates: its id, and the kit run's. */
  get labels(): Record<string, string> {
    return { [CASE_LABEL]: this.id, ...(this.cluster.runId ? { [RUN_LABEL]: this.cluster.runId } : {}) };
  }

  static async create<A extends AnyActivity>(
    cluster: ClusterInfo,
    c: ConformanceCase<A>,
    log?: (line: string) => void,
  ): Promise<CaseContext<A>> {
    const t = new CaseContext<A>(cluster, c.activity, log);
    await t.setUp();
    return t;
  }

  private async setUp(): Promise<void> {
    await this.createNamespace(this.home);
    await this.createIdentity();
  }

  private async createNamespace(name: string): Promise<void> {
    await this.core.createNamespace({ body: { metadata: { name, labels: this.labels } } });
    this.onCleanup(() => this.core.deleteNamespace({ name }));
    await this.until('the default service account', async () =>
      (await this.core.listNamespacedServiceAccount({ namespace: name })).items.some(
        (s) => s.metadata?.name === 'default',
      ),
    );
  }

  /** A fresh namespace for the next scenario, where the case identity holds its rules. */
  async beginScenario(): Promise<void> {
    await this.endScenario();
    this.traffic = [];
    this.ns = `${this.home}-${++this.scenarios}`;
    await this.createNamespace(this.ns);
    if (!this.clusterWide) await this.bindIn(this.ns);
  }

  private async bindIn(namespace: string): Promise<void> {
    const rbac = this.kc.makeApiClient(RbacAuthorizationV1Api);
    const name = `chaoskit-${this.id}`;
    await rbac.createNamespacedRoleBinding({
      namespace,
      body: {
        metadata: { name, labels: this.labels },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
        subjects: [{ kind: 'ServiceAccount', name: 'activity', namespace: this.home }],
      },
    });
    // The authorizer sees a new binding a moment later, and an activity on core's pooled
    // connection can reach the cluster before it does: wait until the identity is allowed.
    const rule = this.activity.rbac[0];
    if (!rule) return;
    const authz = this.kc.makeApiClient(AuthorizationV1Api);
    const [group = '', resource = '', verb = ''] = [rule.apiGroups[0], rule.resources[0], rule.verbs[0]];
    await this.until(`the role binding in ${namespace} to take effect`, async () => {
      const review = await authz.createSubjectAccessReview({
        body: {
          spec: {
            user: this.identity,
            groups: ['system:serviceaccounts', `system:serviceaccounts:${this.home}`, 'system:authenticated'],
            resourceAttributes: { namespace, group, resource, verb },
          },
        },
      });
      return review.status?.allowed === true;
    });
  }

  /** A ServiceAccount bound to a ClusterRole made of the activity's declared rules, only. */
  private async createIdentity(): Promise<void> {
    const rbac = this.kc.makeApiClient(RbacAuthorizationV1Api);
    const name = `chaoskit-${this.id}`;
    const labels = this.labels;
    await this.core.createNamespacedServiceAccount({
      namespace: this.home,
      body: { metadata: { name: 'activity', labels } },
    });
    await rbac.createClusterRole({
      body: { metadata: { name, labels }, rules: this.activity.rbac.map((r) => ({ ...r })) },
    });
    this.onCleanup(() => rbac.deleteClusterRole({ name }));
    // Namespaced rules apply in the scenarios' namespaces only; activities on cluster-wide
    // objects (nodes and the pods on them, CRDs) get a cluster-wide binding.
    this.clusterWide = this.activity.rbac.some((r) =>
      r.resources.some((res) => ['nodes', 'customresourcedefinitions', '*'].includes(res)),
    );
    if (this.clusterWide) {
      const roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name };
      const subjects = [{ kind: 'ServiceAccount', name: 'activity', namespace: this.home }];
      await rbac.createClusterRoleBinding({ body: { metadata: { name, labels }, roleRef, subjects } });
      this.onCleanup(() => rbac.deleteClusterRoleBinding({ name }));
    }
    const token = await this.core.createNamespacedServiceAccountToken({
      name: 'activity',
      namespace: this.home,
      body: { spec: { audiences: [], expirationSeconds: 3600 } },
    });
    this.identity = `system:serviceaccount:${this.home}:activity`;
    this.secrets = {
      CLUSTER_HOST: this.cluster.server,
      CLUSTER_API_KEY: token.status!.token!,
      ...(this.cluster.caFile ? { CLUSTER_CA_CERT_FILE: this.cluster.caFile } : {}),
    };
  }

  onCleanup(fn: () => Promise<unknown>): void {
    this.cleanups.push(fn);
  }

  private async endScenario(): Promise<void> {
    for (const fn of this.scenarioCleanups.reverse()) await fn().catch(() => undefined);
    this.scenarioCleanups.length = 0;
  }

  async dispose(): Promise<void> {
    await this.endScenario();
    for (const fn of this.cleanups.reverse()) await fn().catch(() => undefined);
    this.cleanups.length = 0;
  }

  /**
   * Calls the case's activity (or another one) as an experiment would, with the case identity;
   * resolves to that activity's result type.
   */
  call(args?: Record<string, unknown>): Promise<ResultOf<A>>;
  call<B extends AnyActivity>(args: Record<string, unknown> | undefined, activity: B): Promise<ResultOf<B>>;
  call(args: Record<string, unknown> | undefined, activity: AnyActivity = this.activity): Promise<unknown> {
    return invokeActivity(activity, args ?? {}, {
      secrets: this.secrets,
      log: (m) => this.log(`${activity.name}: ${m}`),
    });
  }

  /**
   * Calls the activity with bad arguments and asserts it is refused with InvalidArgument naming
   * `argument`, and that the identity sent no request at all (the audit log says so, where the
   * kit can read it).
   */
  async expectRefused(
    args: Record<string, unknown>,
    argument: string,
    activity: AnyActivity = this.activity,
  ): Promise<void> {
    // Only what the log gains from here on is read: the whole log of a shared cluster is tens
    // of megabytes by the end of a run.
    const from = this.cluster.auditLogPath ? await auditLogSize(this.cluster.auditLogPath) : 0;
    const err = await this.call(args, activity).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(
      isChaosError(err, 'InvalidArgument'),
      `expected InvalidArgument for ${JSON.stringify(args)}, got ${String(err)}`,
    );
    assert.match((err as Error).message, new RegExp(`'${argument}'`));
    if (this.cluster.auditLogPath) {
      const sent = await readAuditLog(this.cluster.auditLogPath, { user: this.identity, fromByte: from });
      assert.equal(sent.length, 0, `the refused call sent ${sent.length} request(s)`);
    }
  }

  /**
   * Real traffic through the mesh, in the scenario's namespace: gRPC backends on this machine
   * behind ServiceEntries and DestinationRules, and a proxyless gRPC client configured by the
   * cluster's istiod (`@chaoskit/cluster`'s meshTraffic); stopped by the scenario's cleanup.
   * Skips the scenario, with the reason, where the kit cannot reach istiod.
   */
  async meshTraffic(options: Pick<MeshTrafficOptions, 'hosts' | 'routes'>): Promise<MeshTraffic> {
    const address = this.cluster.meshXds;
    if (!address) {
      throw new ScenarioSkipped(
        `needs a mesh data plane: ${this.cluster.noMeshXds ?? 'no istiod xDS address was given'}`,
      );
    }
    const traffic = await meshTraffic({
      ...options,
      cluster: {
        kubeconfig: this.kc.exportConfig(),
        istiod: { xdsBootstrap: (o) => xdsBootstrap(address, o) },
      },
      namespace: this.ns,
      progress: (line) => this.log(line),
    });
    this.scenarioCleanups.push(() => traffic.stop());
    return traffic;
  }

  /** Requests made by the case identity; skips the scenario where there is no audit log. */
  async requestsSince(since: Date) {
    if (!this.cluster.auditLogPath) {
      throw new ScenarioSkipped(
        `needs the apiserver's audit log, which the ${this.cluster.provider} provider cannot read`,
      );
    }
    return readAuditLog(this.cluster.auditLogPath, { user: this.identity, since });
  }

  until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
    return pollUntil(check, { what, timeoutMs });
  }

  // ----- fixtures ---------------------------------------------------------------------------

  /** Bare pods (no controller), Running, in the case namespace; created in order. */
  async createPods(
    names: string[],
    labels: Record<string, string> = {},
    spec: Partial<V1Pod['spec']> = {},
  ): Promise<V1Pod[]> {
    for (const name of names) {
      await this.core.createNamespacedPod({
        namespace: this.ns,
        body: {
          metadata: { name, labels: { ...labels } },
          spec: {
            terminationGracePeriodSeconds: 30,
            containers: [{ name: 'main', image: 'example.invalid/main:1' }],
            ...spec,
          },
        },
      });
    }
    return this.until(`${names.length} running pods`, async () => {
      const pods = (await this.core.listNamespacedPod({ namespace: this.ns })).items.filter(
        (p) => names.includes(p.metadata!.name!) && p.status?.phase === 'Running',
      );
      return pods.length === names.length ? pods : undefined;
    });
  }

  /** A Deployment whose pods are Running and available. */
  async deploy(
    name: string,
    replicas: number,
    extra: { labels?: Record<string, string>; podSpec?: Partial<V1Pod['spec']> } = {},
  ) {
    await this.apps.createNamespacedDeployment({
      namespace: this.ns,
      body: workloadDoc('Deployment', name, replicas, extra),
    });
    await this.until(`deployment ${name} available`, async () => {
      const d = await this.apps.readNamespacedDeployment({ name, namespace: this.ns });
      return (d.status?.availableReplicas ?? 0) === replicas && (d.status?.updatedReplicas ?? 0) === replicas;
    });
  }

  async podNames(labelSelector?: string, includeTerminating = false): Promise<string[]> {
    const pods = await this.core.listNamespacedPod({
      namespace: this.ns,
      ...(labelSelector ? { labelSelector } : {}),
    });
    return pods.items
      .filter((p) => includeTerminating || !p.metadata?.deletionTimestamp)
      .map((p) => p.metadata!.name!)
      .sort();
  }

  /** The pod spec fields that place a pod on one of the case's nodes. */
  onNode(node: string): Partial<V1Pod['spec']> {
    return { nodeName: node, tolerations: [{ key: CASE_LABEL, operator: 'Exists', effect: 'NoSchedule' }] };
  }
}
