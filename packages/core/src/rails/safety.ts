// The safety rails (D74, docs/decisions.md): what no activity does unless the experiment or the
// command line allows it in so many words — change a protected namespace, touch every node,
// or remove most of a namespace's pods at once. One object per run, given to every call.

import { ChaosError } from '../errors/errors.js';

/** Namespaces the cluster runs on: protected whatever the user adds. */
export const SYSTEM_NAMESPACES: readonly string[] = Object.freeze([
  'kube-system',
  'kube-public',
  'kube-node-lease',
]);

/** The share of a namespace's pods one activity may remove unless allowed more. */
export const DEFAULT_MAX_POD_SHARE = 0.8;

export interface SafetyOptions {
  /** Protected namespaces a run may change anyway (`--allow-namespace`). */
  allowNamespaces?: readonly string[];
  /** Namespaces protected besides the system ones (`--protect-namespace`). */
  protectNamespaces?: readonly string[];
  /** An action may select every node of the cluster (`--allow-all-nodes`). */
  allowAllNodes?: boolean;
  /** The share (0 to 1) of a namespace's pods one action may remove (`--max-pod-share`). */
  maxPodShare?: number;
  /**
   * Asked once, before the run's first change (`run --confirm`), with what that change is;
   * false refuses it and every change after.
   */
  confirm?: (firstChange: string) => Promise<boolean>;
}

/** How to allow what a rail refused, on the command line and in the experiment. */
const HOW = {
  namespace: (ns: string) =>
    `run with --allow-namespace ${ns}, or add to the experiment: extensions: [{name: chaoskit, allow_namespaces: [${ns}]}]`,
  nodes:
    'run with --allow-all-nodes, or add to the experiment: extensions: [{name: chaoskit, allow_all_nodes: true}]',
  pods: (share: number) =>
    `run with --max-pod-share ${share}, or add to the experiment: extensions: [{name: chaoskit, max_pod_share: ${share}}]`,
};

/** Which rail refused: a namespace, every node, a share of pods, or the run not confirmed. */
export type Rail = 'namespace' | 'nodes' | 'pods' | 'confirmation';

/** A safety rail refused an action before it changed anything; the message says how to allow it. */
export class SafetyRefusal extends ChaosError {
  constructor(
    readonly activity: string,
    readonly rail: Rail,
    /** What was refused and how to allow it, without the activity's name. */
    readonly reason: string,
  ) {
    super('Refused', `${activity}: ${reason}`);
  }
}

const percent = (share: number) => `${Math.round(share * 1000) / 10} %`;

export class Safety {
  readonly protectedNamespaces: ReadonlySet<string>;
  readonly allowAllNodes: boolean;
  readonly maxPodShare: number;
  private readonly confirmHook: SafetyOptions['confirm'];
  private confirmation: Promise<boolean> | undefined;

  constructor(options: SafetyOptions = {}) {
    const allowed = new Set(options.allowNamespaces ?? []);
    this.protectedNamespaces = new Set(
      [...SYSTEM_NAMESPACES, ...(options.protectNamespaces ?? [])].filter((ns) => !allowed.has(ns)),
    );
    this.allowAllNodes = options.allowAllNodes === true;
    const share = options.maxPodShare ?? DEFAULT_MAX_POD_SHARE;
    if (!(share > 0 && share <= 1))
      throw new RangeError(`maxPodShare must be above 0 and at most 1 (got ${share})`);
    this.maxPodShare = share;
    this.confirmHook = options.confirm;
  }

  /** Refuses a change in a protected namespace; `argument` names where the namespace came from. */
  checkNamespace(activity: string, namespace: string | null | undefined, argument?: string): void {
    if (!namespace || !this.protectedNamespaces.has(namespace)) return;
    const system = SYSTEM_NAMESPACES.includes(namespace) ? 'a system namespace' : 'a protected namespace';
    throw new SafetyRefusal(
      activity,
      'namespace',
      `${argument ? `argument '${argument}': ` : ''}'${namespace}' is ${system}, changed only when allowed explicitly: ${HOW.namespace(namespace)}`,
    );
  }

  /** Refuses a selection of every node (`selected` of the cluster's `total`). */
  checkNodes(activity: string, selected: number, total: number): void {
    if (this.allowAllNodes || selected < total || total === 0) return;
    throw new SafetyRefusal(
      activity,
      'nodes',
      `the selection is every node of the cluster (${selected} of ${total}); select fewer (name, label_selector, count) or ${HOW.nodes}`,
    );
  }

  /**
   * Refuses an action whose candidates are every node because nothing narrows them: it would
   * pick among all of them (the first, a random one), which no experiment means by accident.
   * `argument` is the missing selector, `accepted` what would narrow the candidates.
   */
  checkNodeSelector(activity: string, argument: string, accepted: string): void {
    if (this.allowAllNodes) return;
    throw new SafetyRefusal(
      activity,
      'nodes',
      `argument '${argument}' is not given, so every node of the cluster is a candidate; give ${accepted}, or ${HOW.nodes}`,
    );
  }

  /**
   * Refuses removing more than the allowed share of a namespace's pods (one pod always may go).
   * `others`: pods other runs removed there and still hold, counted with the selection (D88).
   */
  checkPodShare(
    activity: string,
    namespace: string,
    selected: number,
    counted: number,
    others?: { pods: number; runs: readonly string[] },
  ): void {
    const own = selected - (others?.pods ?? 0);
    // The selected pods are the namespace's: a count made a moment after the selection may miss
    // some that were already going away, never the other way round.
    const total = Math.max(counted, selected);
    if (own <= 1 || total === 0 || selected / total <= this.maxPodShare) return;
    const needed = Math.ceil((selected / total) * 100) / 100;
    const how = `select fewer (qty, label_selector, name_pattern) or ${HOW.pods(Math.min(1, needed))}`;
    const share = `${percent(selected / total)}), more than the ${percent(this.maxPodShare)}`;
    throw new SafetyRefusal(
      activity,
      'pods',
      others?.pods
        ? `the selection is ${own} of the ${total} pods of namespace '${namespace}', and run${others.runs.length === 1 ? '' : 's'} ${others.runs.join(', ')} removed ${others.pods} more that ${others.runs.length === 1 ? 'its record still holds' : 'their records still hold'} (chaoskit status): ${selected} together (${share} that may be removed at once; ${how}`
        : `the selection is ${selected} of the ${total} pods of namespace '${namespace}' (${share} one action may remove; ${how}`,
    );
  }

  /** Waits for the run's confirmation before its first change; refuses when it is not given. */
  async confirmChange(activity: string, change: string): Promise<void> {
    if (!this.confirmHook) return;
    this.confirmation ??= this.confirmHook(`${activity} is about to ${change}`);
    if (!(await this.confirmation))
      throw new SafetyRefusal(activity, 'confirmation', 'the run was not confirmed; nothing was changed');
  }
}

/** The rails when the caller set none: the system namespaces, all nodes and the share refused. */
export const DEFAULT_SAFETY = new Safety();
