import {
  bulk,
  checkPodSelection,
  defineActivity,
  type ExecOutcome,
  objectName,
  podSelectionArgs,
  selectPods,
  z,
} from '@chaoskit/core';
import { cmd } from './args.js';
import { parseCommand } from './command.js';
import { containersOf } from './containers.js';
import { listPods } from './list-pods.js';
import { ACTIONS } from './modules.js';

/** What exec_in_pods returns for each pod it ran the command in. */
export interface ExecInPodResult extends ExecOutcome {
  pod_name: string;
  /** The container the command ran in (container_name, else the pod's default container). */
  container_name: string;
  /** The `cmd` argument as given. */
  cmd: string | string[];
}

export const execInPodsActivity = defineActivity({
  name: 'exec_in_pods',
  kind: 'action',
  module: ACTIONS,
  doc: 'Runs a command in a container of the selected pods (with neither label_selector nor name_pattern, every pod of the namespace is a candidate). Returns, per pod, {pod_name, container_name, cmd, exit_code, stdout, stderr, timed_out, message}. The seed of a random choice is logged.',
  returns:
    'one entry per pod: `{ pod_name, container_name, cmd, exit_code, stdout, stderr, timed_out, message }`',
  args: {
    cmd,
    ...podSelectionArgs(),
    container_name: z
      .string()
      .nullable()
      .default(null)
      .describe(
        "Container to run the command in; pods without it are skipped. Default: the pod's default container (annotation kubectl.kubernetes.io/default-container, else the first).",
      ),
    request_timeout: z
      .int()
      .min(1)
      .default(60)
      .describe(
        'Seconds to wait for the command to finish in each pod; a command still running then is reported with timed_out true.',
      ),
  },
  check: checkPodSelection,
  // Exec over a WebSocket is a GET, authorized as `get` on pods/exec; from Kubernetes 1.35
  // (AuthorizePodWebsocketUpgradeCreatePermission) the apiserver also checks `create`.
  rbac: [
    { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
    { apiGroups: [''], resources: ['pods/exec'], verbs: ['get', 'create'] },
  ],
  async run(args, ctx): Promise<ExecInPodResult[]> {
    // Validated by `cmd` already: it splits.
    const argv = parseCommand(args.cmd);
    const pods = await listPods(ctx.kube, args.ns, args.label_selector);
    const { selected, seed } = selectPods(pods, args);
    if (seed !== undefined) ctx.log(`random choice of pods, seed ${seed} (give seed: ${seed} to repeat it)`);
    if (selected.length === 0) ctx.log(`no pod of namespace ${args.ns} matched; nothing run`);
    const { targets, skipped } = containersOf(selected, args.container_name);
    for (const line of skipped) ctx.log(line);

    const result = (pod: string, container: string, outcome: ExecOutcome): ExecInPodResult => ({
      pod_name: pod,
      container_name: container,
      cmd: args.cmd,
      ...outcome,
    });
    // A command cannot be dry-run: in plan mode the targets are reported and nothing runs.
    if (ctx.dryRun) {
      ctx.log(
        `plan: would run ${JSON.stringify(argv)} in ${targets.map((t) => objectName(t.pod)).join(', ') || 'no pod'}`,
      );
      const notRun = {
        exit_code: null,
        stdout: '',
        stderr: '',
        timed_out: false,
        message: 'not run: plan mode',
      };
      return targets.map(({ pod, container }) => result(objectName(pod), container, notRun));
    }
    if (targets.length === 0) return [];
    const exec = await ctx.podExec();
    const results = new Map<string, ExecInPodResult>();
    await bulk(
      targets,
      async ({ pod, container }) => {
        const name = objectName(pod);
        const outcome = await exec({ namespace: args.ns, pod: name, container }, argv, args.request_timeout);
        results.set(name, result(name, container, outcome));
      },
      {
        name: (t) => objectName(t.pod),
        verb: 'run the command in',
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        // An abort closes the exec connections under way at once; no other pod gets the command.
        words: {
          done: 'finished in',
          interrupted: 'cut off in',
          notDone: 'not run in',
          note: 'A command cut off may go on in its container: closing its exec connection does not stop it',
        },
      },
    );
    const list = targets.map((t) => results.get(objectName(t.pod))!);
    if (list.length)
      ctx.log(
        `ran ${JSON.stringify(argv)} in ${list.length} pod(s): ${list
          .map((r) => `${r.pod_name} (${r.timed_out ? 'timed out' : `exit ${r.exit_code}`})`)
          .join(', ')}`,
      );
    return list;
  },
});

export const execInPods = execInPodsActivity.fn;
