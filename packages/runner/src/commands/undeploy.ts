// `chaoskit undeploy`: removes what `chaoskit deploy` applied for one experiment, by its labels.
import { ConfigMaps, isApiError, type KubeClient } from '@chaoskit/core';
import { claimedRun, deploymentRecordName } from '@chaoskit/core/runner';
import { type Command, InvalidArgumentError } from 'commander';
import { deployClient } from '../cluster/choice.js';
import { missingNamespace } from '../cluster/namespace-hint.js';
import { removeDeployment } from '../deploy/apply.js';
import { checkName } from '../deploy/inputs.js';
import { EXIT } from '../run/exit-codes.js';
import { deploymentNamespace, withCluster } from './options.js';
import { fail, session } from './session.js';

/**
 * Refuses while a run of the deployment has its record in place: its changes are undone as its
 * runner (D158), whose rights go with the deployment.
 */
async function noRecordLeft(kube: KubeClient, name: string, namespace: string): Promise<void> {
  const record = deploymentRecordName(name);
  const found = await kube
    .get<Parameters<typeof claimedRun>[0]>(ConfigMaps, record, namespace)
    .catch((err: unknown) => (isApiError(err, 'NotFound') ? undefined : Promise.reject(err)));
  if (!found) return;
  const run = claimedRun(found) ?? '<run>';
  throw new Error(
    `a run of '${name}' has its record in place (ConfigMap ${record} in namespace '${namespace}'), and its changes are undone as the runner this would remove: chaoskit status --ledger-namespace ${namespace} shows them; chaoskit revert ${run} --ledger-namespace ${namespace} undoes them (or --dismiss removes the record), then undeploy`,
  );
}

export function register(program: Command): void {
  withCluster(program.command('undeploy'))
    .description(
      "remove a deployed experiment: every object labelled with its name in the namespace's deployment",
    )
    .argument('<name>', "the experiment's name in the cluster (its chaoskit.io/experiment label)", (name) =>
      checkName(name, 'the name'),
    )
    .option(
      '-n, --namespace <namespace>',
      "the namespace of the deployment (default: the kubeconfig context's, else default)",
    )
    .action(async (name: string, opts: { namespace?: string; context?: string; kubeconfig?: string }) => {
      try {
        const namespace = deploymentNamespace(opts);
        const say = (line: string) => process.stdout.write(`${line}\n`);
        const kube = deployClient(opts);
        await noRecordLeft(kube, name, namespace);
        const removed = await removeDeployment(kube, name, namespace, say);
        if (removed === 0) {
          const missing = await missingNamespace(kube, namespace);
          if (missing) throw new Error(missing);
          say(`no object of experiment '${name}' deployed in namespace '${namespace}'`);
        }
      } catch (err) {
        session.exitCode = fail(err, err instanceof InvalidArgumentError ? EXIT.usage : 1);
      }
    });
}
