// `chaoskit halt` and `chaoskit resume`: the safety lever (D128). Halted, no run that changes
// the cluster starts, and every run under way there is interrupted and plays its rollbacks.
import type { Command } from 'commander';
import { EXIT } from '../exit-codes.js';
import { clearHalt, describeHalt, HALT_NAME, setHalt } from '../guards/halt.js';
import { deployClient } from './cluster-choice.js';
import { withCluster } from './options.js';
import { fail, session } from './session.js';

interface LeverFlags {
  namespace?: string;
  context?: string;
  kubeconfig?: string;
}

const NAMESPACE_HELP =
  "the ledger namespace the runs watch (default $CHAOSKIT_LEDGER_NAMESPACE, else default; a run's --ledger-namespace)";
const namespaceOf = (opts: LeverFlags) =>
  opts.namespace ?? process.env.CHAOSKIT_LEDGER_NAMESPACE ?? 'default';
const say = (line: string) => process.stdout.write(`${line}\n`);

export function register(program: Command): void {
  withCluster(program.command('halt'))
    .description(
      `stop chaos in the cluster: runs under way are interrupted and roll back, no new run starts (ConfigMap ${HALT_NAME}) until chaoskit resume`,
    )
    .option('--reason <text>', 'why, as runs and their journals will say it', 'no reason given')
    .option('-n, --namespace <namespace>', NAMESPACE_HELP)
    .action(async (opts: LeverFlags & { reason: string }) => {
      try {
        const namespace = namespaceOf(opts);
        const halt = await setHalt(deployClient(opts), namespace, opts.reason);
        say(describeHalt(halt, namespace));
      } catch (err) {
        session.exitCode = fail(err, EXIT.failed);
      }
    });
  withCluster(program.command('resume'))
    .description('lift chaoskit halt: runs may start again')
    .option('-n, --namespace <namespace>', NAMESPACE_HELP)
    .action(async (opts: LeverFlags) => {
      try {
        const namespace = namespaceOf(opts);
        say(
          (await clearHalt(deployClient(opts), namespace))
            ? `chaoskit is resumed in namespace '${namespace}': runs may start again`
            : `chaoskit was not halted in namespace '${namespace}'`,
        );
      } catch (err) {
        session.exitCode = fail(err, EXIT.failed);
      }
    });
}
