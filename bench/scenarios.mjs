// What the bench does, the same thing three ways: a chaoskit activity, the Python original of
// the same name (chaostoolkit-kubernetes 0.25.1, chaostoolkit-istio 0.1.4, called with the same
// arguments — the experiments use Chaos Toolkit's module names, which both accept), and the
// kubectl command an operator would type for it; for the scenarios that count, delete or evict,
// also the reference client's command (benchref: client-go, no client-side rate limit).

const probe = (module, func, args) => ({ type: 'probe', module, func, args });
const action = (module, func, args) => ({ type: 'action', module, func, args });

/**
 * `steps`: the activities (one experiment; `chaoskit call` and the in-process runs call them in
 * turn). `kubectl(fx, prepared)`: a shell command, `$KUBECTL` being kubectl with the kubectl
 * identity's kubeconfig. `reset`: what to restore before each destructive run. `prepare`:
 * untimed work before each run (kubectl's targets chosen at random, as the activities do).
 * `reference`: the arguments of benchref doing the same work (absent: no reference).
 */
export function scenarios(fx) {
  const { sizes } = fx;
  const tenth = Math.max(1, Math.round(sizes.bench / 10));
  const hundredth = Math.max(1, Math.round(sizes['bench-1k'] / 10));
  const percent = Math.max(1, Math.round(sizes.bench / 100));
  // `bench-<round>-0`, `…-100`, `…-200` …: one pod in a hundred, chosen by name (the fixture's names).
  const pattern = 'bench-[0-9]+-(0|[0-9]*00)$';
  /** terminate_pods of `qty` pods of `app` in `ns`, at random; `ns` is also the reset's pod set. */
  const randomTermination = (id, which, ns, app, qty) => ({
    id,
    title: `terminate_pods, ${which}`,
    reset: ns,
    steps: [
      action('chaosk8s.pod.actions', 'terminate_pods', {
        label_selector: `app=${app}`,
        ns,
        rand: true,
        qty,
        grace_period: 0,
      }),
    ],
    prepare: () => fx.randomPods(ns, app, qty),
    kubectl: (names) => `$KUBECTL delete pods -n ${ns} --grace-period=0 --wait=false ${names.join(' ')}`,
    reference: ['terminate', '-n', ns, '-l', `app=${app}`, '-qty', String(qty)],
  });
  return [
    {
      id: 'start',
      title: 'a one-probe experiment (count_pods over 3 pods): start → first API request',
      steps: [probe('chaosk8s.pod.probes', 'count_pods', { label_selector: 'app=small', ns: 'bench-small' })],
      kubectl: () => '$KUBECTL get pods -n bench-small -l app=small -o name | wc -l',
    },
    {
      id: 'count',
      title: `count_pods, ${sizes.bench} pods (phase Running)`,
      steps: [
        probe('chaosk8s.pod.probes', 'count_pods', {
          label_selector: 'app=bench',
          phase: 'Running',
          ns: 'bench',
        }),
      ],
      kubectl: () =>
        '$KUBECTL get pods -n bench -l app=bench --field-selector status.phase=Running -o name | wc -l',
      reference: ['count', '-n', 'bench', '-l', 'app=bench', '-phase', 'Running'],
    },
    {
      id: 'phase',
      title: `pods_in_phase, ${sizes.bench} pods`,
      steps: [
        probe('chaosk8s.pod.probes', 'pods_in_phase', {
          label_selector: 'app=bench',
          phase: 'Running',
          ns: 'bench',
        }),
      ],
      // The pods not Running: none means every pod is.
      kubectl: () =>
        '$KUBECTL get pods -n bench -l app=bench --field-selector status.phase!=Running -o name | wc -l',
      reference: ['count', '-n', 'bench', '-l', 'app=bench', '-phase', 'Running'],
    },
    randomTermination(
      'terminate-tenth',
      `${tenth} of ${sizes.bench} (10 %, at random)`,
      'bench',
      'bench',
      tenth,
    ),
    randomTermination(
      'terminate-percent',
      `${percent} of ${sizes.bench} (1 %, at random)`,
      'bench',
      'bench',
      percent,
    ),
    {
      id: 'name-pattern',
      title: `terminate_pods, every pod of ${sizes.bench} whose name matches ${pattern} (1 %)`,
      reset: 'bench',
      steps: [
        action('chaosk8s.pod.actions', 'terminate_pods', {
          label_selector: 'app=bench',
          name_pattern: pattern,
          ns: 'bench',
          all: true,
          grace_period: 0,
        }),
      ],
      kubectl: () =>
        `$KUBECTL get pods -n bench -l app=bench -o name | grep -E '/${pattern}' | xargs $KUBECTL delete -n bench --grace-period=0 --wait=false`,
      reference: ['terminate', '-n', 'bench', '-l', 'app=bench', '-pattern', pattern],
    },
    randomTermination(
      'terminate-hundred',
      `${hundredth} of ${sizes['bench-1k']} (at random)`,
      'bench-1k',
      'thousand',
      hundredth,
    ),
    {
      id: 'drain',
      title: `drain_nodes, one node of ${sizes.drain} pods`,
      reset: 'drain',
      steps: [action('chaosk8s.node.actions', 'drain_nodes', { name: fx.drainNode, timeout: 600 })],
      kubectl: () =>
        `$KUBECTL drain ${fx.drainNode} --ignore-daemonsets --delete-emptydir-data --timeout=600s`,
      reference: ['drain', '-node', fx.drainNode],
    },
    {
      id: 'exec',
      title: `exec_in_pods, ${sizes.exec} pods`,
      steps: [
        action('chaosk8s.pod.actions', 'exec_in_pods', {
          cmd: 'true',
          label_selector: 'app=exec',
          ns: 'bench-exec',
          all: true,
          // The originals run nothing in a pod without a container of this name.
          container_name: 'app',
        }),
      ],
      // One kubectl exec per pod, as a shell loop would.
      kubectl: () =>
        'for p in $($KUBECTL get pods -n bench-exec -l app=exec -o name); do $KUBECTL exec -n bench-exec "$p" -- true || exit 1; done',
    },
    {
      id: 'fault',
      title: 'set_fault then unset_fault, a VirtualService of 50 routes',
      steps: [
        action('chaosistio.fault.actions', 'set_fault', {
          virtual_service_name: 'web',
          routes: [{ destination: { host: 'svc-25', subset: 'v1' } }],
          fault: { abort: { httpStatus: 503, percentage: { value: 50 } } },
          ns: 'bench-mesh',
          version: 'networking.istio.io/v1',
        }),
        action('chaosistio.fault.actions', 'unset_fault', {
          virtual_service_name: 'web',
          // The originals need a subset in every destination they match.
          routes: [{ destination: { host: 'svc-25', subset: 'v1' } }],
          ns: 'bench-mesh',
          version: 'networking.istio.io/v1',
        }),
      ],
      kubectl: () =>
        `$KUBECTL patch virtualservice web -n bench-mesh --type json -p '[{"op":"add","path":"/spec/http/25/fault","value":{"abort":{"httpStatus":503,"percentage":{"value":50}}}}]' && ` +
        `$KUBECTL patch virtualservice web -n bench-mesh --type json -p '[{"op":"remove","path":"/spec/http/25/fault"}]'`,
    },
  ];
}

/** The Chaos Toolkit experiment of a scenario (both runners read it). */
export function experimentOf(scenario) {
  return {
    title: `bench: ${scenario.id}`,
    description: scenario.title,
    method: scenario.steps.map((s, i) => ({
      type: s.type,
      name: `${s.func}-${i}`,
      provider: { type: 'python', module: s.module, func: s.func, arguments: s.args },
    })),
  };
}
