import { Writable } from 'node:stream';
import {
  accepting,
  bulk,
  checkPodSelection,
  defineActivity,
  podSelectionArgs,
  selectPods,
  toApiError,
  z,
} from '@chaoskit/core';
import { Exec, type KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { CommandError, type ExecStatus, exitCodeOf, parseCommand } from './command.js';
import { defaultContainer, hasContainer } from './containers.js';
import { coreApi, listPods, podName } from './list-pods.js';

const QUALIFIED = 'chaoscluster.pod.actions.exec_in_pods';

/** What exec_in_pods returns for each pod it ran the command in. */
export interface ExecInPodResult {
  pod_name: string;
  /** The container the command ran in (container_name, else the pod's default container). */
  container_name: string;
  /** The `cmd` argument as given. */
  cmd: string | string[];
  /** The command's exit code; null when it was still running at request_timeout. */
  exit_code: number | null;
  stdout: string;
  stderr: string;
  /** True when the command was still running after request_timeout seconds. */
  timed_out: boolean;
  /** The exec's status message ('' on success): why it failed, or that it timed out. */
  message: string;
}

const cmdSchema = accepting(
  z
    .union([z.string(), z.array(z.string())])
    .superRefine((value, ctx) => {
      try {
        parseCommand(value);
      } catch (err) {
        if (!(err instanceof CommandError)) throw err;
        ctx.addIssue({ code: 'custom', message: err.message });
      }
    })
    .describe(
      'The command: a string split like a shell would (no shell runs it: use ["sh", "-c", "…"] for pipes or redirections), or a list of strings used as given.',
    ),
  'a command: a string, split into words as a shell would (quotes respected, no shell operators), or a list of strings',
);

export const execInPodsActivity = defineActivity({
  name: 'exec_in_pods',
  kind: 'action',
  module: 'chaoscluster.pod.actions',
  doc: 'Runs a command in a container of the selected pods (with neither label_selector nor name_pattern, every pod of the namespace is a candidate). Returns, per pod, {pod_name, container_name, cmd, exit_code, stdout, stderr, timed_out, message}. The seed of a random choice is logged.',
  args: {
    cmd: cmdSchema,
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
  async run(args, ctx) {
    const argv = parseCommand(args.cmd);
    const { kc, core } = coreApi(ctx.secrets);
    const pods = await listPods(core, args.ns, args.label_selector);
    const { selected, seed } = selectPods(pods, {
      ...args,
      seed: args.seed ?? undefined,
      activity: QUALIFIED,
    });
    if (seed !== undefined) ctx.log(`random choice of pods, seed ${seed} (give seed: ${seed} to repeat it)`);
    if (selected.length === 0) ctx.log(`no pod of namespace ${args.ns} matched; nothing run`);

    const targets: Array<{ pod: V1Pod; container: string }> = [];
    for (const pod of selected) {
      const container = args.container_name ?? defaultContainer(pod);
      if (container === undefined) {
        ctx.log(`pod ${podName(pod)} has no container; skipped`);
        continue;
      }
      if (args.container_name !== null && !hasContainer(pod, container)) {
        ctx.log(`pod ${podName(pod)} has no container named ${container}; skipped`);
        continue;
      }
      targets.push({ pod, container });
    }

    // A command cannot be dry-run: in plan mode the targets are reported and nothing runs.
    if (ctx.dryRun) {
      ctx.log(
        `plan: would run ${JSON.stringify(argv)} in ${targets.map((t) => podName(t.pod)).join(', ') || 'no pod'}`,
      );
      return targets.map(({ pod, container }) => ({
        pod_name: podName(pod),
        container_name: container,
        cmd: args.cmd,
        exit_code: null,
        stdout: '',
        stderr: '',
        timed_out: false,
        message: 'not run: plan mode',
      }));
    }
    const results = new Map<string, ExecInPodResult>();
    await bulk(
      targets,
      async ({ pod, container }) => {
        const outcome = await execInPod(kc, args.ns, podName(pod), container, argv, args.request_timeout);
        results.set(podName(pod), {
          pod_name: podName(pod),
          container_name: container,
          cmd: args.cmd,
          ...outcome,
        });
      },
      { name: (t) => podName(t.pod), verb: 'run the command in', concurrency: 10 },
    );
    const list = targets.map((t) => results.get(podName(t.pod))!);
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

type Outcome = Pick<ExecInPodResult, 'exit_code' | 'stdout' | 'stderr' | 'timed_out' | 'message'>;

/** What `Exec.exec` resolves to (a `ws` WebSocket), as far as it is used here. */
interface Socket {
  on(event: 'close', listener: () => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  terminate(): void;
}

function collector(chunks: Buffer[]): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      callback();
    },
  });
}

/**
 * Runs `argv` in one container over the exec WebSocket, collecting stdout and stderr apart,
 * until the status arrives or `timeoutSeconds` pass (the connection is then closed and the
 * command reported as timed out, with what it wrote so far).
 */
function execInPod(
  kc: KubeConfig,
  namespace: string,
  pod: string,
  container: string,
  argv: string[],
  timeoutSeconds: number,
): Promise<Outcome> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const text = (chunks: Buffer[]) => Buffer.concat(chunks).toString('utf8');
  return new Promise<Outcome>((resolve, reject) => {
    let socket: Socket | undefined;
    let settled = false;
    const settle = (outcome: Outcome | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const timer = setTimeout(() => {
      settle({
        exit_code: null,
        stdout: text(out),
        stderr: text(err),
        timed_out: true,
        message: `still running after ${timeoutSeconds} s (request_timeout); the exec connection was closed`,
      });
      socket?.terminate();
    }, timeoutSeconds * 1000);
    const onStatus = (status: ExecStatus) => {
      const success = status.status === 'Success';
      settle({
        exit_code: exitCodeOf(status),
        stdout: text(out),
        stderr: text(err),
        timed_out: false,
        message: success ? '' : (status.message ?? status.reason ?? 'Failure'),
      });
    };
    new Exec(kc)
      .exec(namespace, pod, container, argv, collector(out), collector(err), null, false, onStatus)
      .then(
        (ws) => {
          socket = ws as unknown as Socket;
          if (settled) {
            socket.terminate();
            return;
          }
          socket.on('error', (e) => settle(new Error(`exec connection failed: ${e.message}`)));
          socket.on('close', () =>
            settle(new Error("the exec connection closed before the command's exit status arrived")),
          );
        },
        (e: unknown) => settle(openError(e, pod, namespace)),
      );
  });
}

/** The WebSocket upgrade refused ("Unexpected server response: 403") as an ApiError. */
function openError(e: unknown, pod: string, namespace: string): Error {
  const event = e as { message?: unknown; error?: { message?: unknown } };
  const message = String(event.message ?? event.error?.message ?? e);
  const status = /Unexpected server response: (\d{3})/.exec(message);
  const context = { verb: 'exec in', resource: 'pod', name: pod, namespace };
  if (status) return toApiError({ code: Number(status[1]), body: message }, context) as Error;
  return new Error(`exec in pod '${pod}' in namespace '${namespace}': ${message}`);
}
