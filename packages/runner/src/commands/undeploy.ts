// `chaoskit undeploy`: removes what `chaoskit deploy` applied for one experiment, by its labels.
import { type Command, InvalidArgumentError } from 'commander';
import { removeDeployment } from '../deploy/apply.js';
import { checkName, checkNamespace } from '../deploy/inputs.js';
import { EXIT } from '../exit-codes.js';
import { deployClient } from './cluster-choice.js';
import { withCluster } from './options.js';
import { fail, session } from './session.js';

export function register(program: Command): void {
  withCluster(program.command('undeploy'))
    .description(
      "remove a deployed experiment: every object labelled with its name in the namespace's deployment",
    )
    .argument('<name>', "the experiment's name in the cluster (its chaoskit.io/experiment label)", (name) =>
      checkName(name, 'the name'),
    )
    .option('-n, --namespace <namespace>', 'the namespace of the deployment', 'default')
    .action(async (name: string, opts: { namespace: string; context?: string; kubeconfig?: string }) => {
      try {
        checkNamespace(opts.namespace);
        const say = (line: string) => process.stdout.write(`${line}\n`);
        const removed = await removeDeployment(deployClient(opts), name, opts.namespace, say);
        if (removed === 0) say(`no object of experiment '${name}' deployed in namespace '${opts.namespace}'`);
      } catch (err) {
        session.exitCode = fail(err, err instanceof InvalidArgumentError ? EXIT.usage : 1);
      }
    });
}
