// Which clusters a fleet run reaches: the kubeconfig contexts `--contexts a,b,c` names, in that
// order, or every one (`--all-contexts`, sorted by name as `kubectl config get-contexts` lists
// them). A context's name selects a cluster: it is masked in every line and file, and the run
// calls each context by its place instead, `context 2` (D114).

import {
  contextCount,
  kubeconfigFiles,
  loadKubeconfig,
  maskEnvironmentTargets,
  registerTarget,
} from '@chaoskit/core/runner';
import { clusterEnv } from '../cluster/choice.js';
import { checkNamespace } from '../deploy/inputs.js';
import { Refusal } from '../output/errors.js';

/** One context of the fleet. */
export interface FleetContext {
  /** Its name in the kubeconfig: never shown (D90, D114). */
  readonly name: string;
  /** What lines and files call it: `context 2`, by its place in the run. */
  readonly label: string;
  /** The environment its activities (and their processes) choose their cluster from. */
  readonly env: NodeJS.ProcessEnv;
  /** The namespace the kubeconfig gives the context, if any: its runs' record's by default (D163). */
  readonly namespace?: string;
}

export interface ContextChoice {
  /** The contexts named, in order (`--contexts`). */
  contexts?: readonly string[] | undefined;
  /** Every context of the kubeconfig (`--all-contexts`). */
  all?: boolean | undefined;
  /** The kubeconfig file (`--kubeconfig`); default the environment's. */
  kubeconfig?: string | undefined;
}

export const labelOf = (index: number) => `context ${index + 1}`;

/** Where a context's run records: the namespace named for the whole fleet, else the context's own, else default (D163). */
export const recordsNamespaceOf = (context: FleetContext, named: string | undefined): string =>
  named ?? context.namespace ?? 'default';

/** `--contexts`' text: names separated by commas. */
export function parseContextList(text: string): string[] {
  return text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

/**
 * The fleet's contexts, each checked against the kubeconfig (no request is sent). Refused:
 * both ways of naming them or neither, a name given twice, a name the kubeconfig does not have
 * (shown back: it was typed, D90), a kubeconfig that is missing or has no context.
 */
export function fleetContexts(choice: ContextChoice, env: NodeJS.ProcessEnv = process.env): FleetContext[] {
  if (choice.all && choice.contexts)
    throw new Refusal('--contexts and --all-contexts both choose the contexts: give one of them');
  const files = kubeconfigFiles(
    clusterEnv({ ...(choice.kubeconfig ? { kubeconfig: choice.kubeconfig } : {}) }, env),
  );
  const from = choice.kubeconfig ? `--kubeconfig ${choice.kubeconfig}` : files.from;
  if (files.existing.length === 0)
    throw new Refusal(`a fleet run reads its contexts from a kubeconfig, and ${from} names no file`);
  const { contexts } = loadKubeconfig(files.existing);
  // Every name of the kubeconfig is masked from now on, those not run too.
  for (const context of contexts) registerTarget(context.name);
  let names: string[];
  if (choice.all) {
    names = contexts.map((c) => c.name).sort();
    if (names.length === 0) throw new Refusal(`--all-contexts: the kubeconfig (${from}) has no context`);
  } else {
    names = [...(choice.contexts ?? [])];
    if (names.length === 0)
      throw new Refusal('--contexts takes the kubeconfig contexts to run on, separated by commas (a,b,c)');
    const twice = names.find((name, i) => names.indexOf(name) !== i);
    if (twice !== undefined) throw new Refusal(`--contexts names '${twice}' twice: each context runs once`);
    const missing = names.filter((name) => !contexts.some((c) => c.name === name));
    if (missing.length)
      throw new Refusal(
        `${missing.map((m) => `context '${m}'`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not in the kubeconfig (${from}), which has ${contextCount(contexts.length)} (kubectl config get-contexts lists them)`,
      );
  }
  const fleet = names.map((name, index) => {
    const namespace = contexts.find((c) => c.name === name)?.namespace;
    return {
      name,
      label: labelOf(index),
      env: clusterEnv(
        { context: name, ...(choice.kubeconfig ? { kubeconfig: choice.kubeconfig } : {}) },
        env,
      ),
      ...(namespace === undefined
        ? {}
        : { namespace: checkNamespace(namespace, `the namespace of ${labelOf(index)} in the kubeconfig`) }),
    };
  });
  // Each context's server, user and files are masked before any line is said, not when its turn comes.
  for (const context of fleet) maskEnvironmentTargets(context.env);
  return fleet;
}
