// `chaoskit halt` and `chaoskit resume`: the safety lever (D128, D159). Halted, no run that
// changes the cluster starts, and every run under way there is interrupted and plays its
// rollbacks: in the whole cluster, or with -n only the runs that record in that namespace.
import { type Command, InvalidArgumentError } from 'commander';
import { deployClient } from '../cluster/choice.js';
import { checkNamespace } from '../deploy/inputs.js';
import {
  CLUSTER_HALT_NAMESPACE,
  checkReason,
  clearHalt,
  describeHalt,
  HALT_NAME,
  leverProtected,
  scopeOf,
  setHalt,
} from '../guards/halt.js';
import { EXIT } from '../run/exit-codes.js';
import { withCluster } from './options.js';
import { fail, session } from './session.js';

interface LeverFlags {
  namespace?: string;
  context?: string;
  kubeconfig?: string;
}

const NAMESPACE_HELP =
  'only the runs that record in this ledger namespace (their --ledger-namespace); without it, every run in the cluster';
/** The lever's namespace: -n's, checked before any request, else the cluster's. */
const namespaceOf = (opts: LeverFlags) =>
  opts.namespace === undefined ? CLUSTER_HALT_NAMESPACE : checkNamespace(opts.namespace);
const say = (line: string) => process.stdout.write(`${line}\n`);

/** What a lever without its policy lets anyone do: said when it is moved. */
async function sayProtection(kube: ReturnType<typeof deployClient>, namespace: string): Promise<void> {
  const held = await leverProtected(kube).catch(() => undefined);
  if (held === true) return;
  process.stderr.write(
    held === false
      ? `chaoskit: the lever is not protected: the ValidatingAdmissionPolicy ${HALT_NAME} is not in force, so any identity that may write ConfigMaps in namespace '${namespace}' may set or lift it, and say it was someone else; chaoskit rbac --halt prints the policy and the Roles of who may halt and who may resume\n`
      : `chaoskit: whether the lever is protected (ValidatingAdmissionPolicy ${HALT_NAME}) could not be checked: this identity may not read it\n`,
  );
}

export function register(program: Command): void {
  withCluster(program.command('halt'))
    .description(
      `stop chaos: runs under way are interrupted and roll back, no new run starts (ConfigMap ${HALT_NAME} in ${CLUSTER_HALT_NAMESPACE}, or in -n's namespace) until chaoskit resume`,
    )
    .option('--reason <text>', 'why, as runs and their journals will say it (one line)', 'no reason given')
    .option('-n, --namespace <namespace>', NAMESPACE_HELP)
    .action(async (opts: LeverFlags & { reason: string }) => {
      try {
        const namespace = namespaceOf(opts);
        const reason = checkReason(opts.reason);
        const kube = deployClient(opts);
        const halt = await setHalt(kube, namespace, reason);
        say(describeHalt(halt));
        await sayProtection(kube, namespace);
      } catch (err) {
        session.exitCode = fail(err, err instanceof InvalidArgumentError ? EXIT.usage : 1);
      }
    });
  withCluster(program.command('resume'))
    .description('lift chaoskit halt: runs may start again')
    .option('-n, --namespace <namespace>', NAMESPACE_HELP)
    .action(async (opts: LeverFlags) => {
      try {
        const namespace = namespaceOf(opts);
        const scope = scopeOf(namespace);
        say(
          (await clearHalt(deployClient(opts), namespace))
            ? `chaoskit is resumed ${scope}: runs may start again`
            : `chaoskit was not halted ${scope}`,
        );
      } catch (err) {
        session.exitCode = fail(err, err instanceof InvalidArgumentError ? EXIT.usage : 1);
      }
    });
}
