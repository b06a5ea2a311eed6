// Test-only (left out of the build): the parts of the experiments tests write, and the file of one.
import { writeFile } from 'node:fs/promises';
import { dump } from 'js-yaml';

/** Writes `experiment` to `path` as YAML, as a user saves an experiment file; gives `path`. */
export async function writeExperiment(path: string, experiment: Record<string, unknown>): Promise<string> {
  await writeFile(path, dump(experiment));
  return path;
}

/** A python provider of a chaoskit activity. */
export const python = (module: string, func: string, args: Record<string, unknown>) => ({
  type: 'python',
  module,
  func,
  arguments: args,
});

/** An action or a probe of an experiment, its provider the chaoskit activity `module`.`func`. */
export const activity = (
  type: 'action' | 'probe',
  name: string,
  module: string,
  func: string,
  args: Record<string, unknown>,
) => ({ type, name, provider: python(module, func, args) });

/** The action `name` that terminates one pod labelled app=web of namespace `ns`, at once. */
export const killOneWebPod = (ns: string, name = 'kill') =>
  activity('action', name, 'chaoscluster.pod.actions', 'terminate_pods', {
    ns,
    label_selector: 'app=web',
    qty: 1,
    grace_period: 0,
  });

/** The probe `web-pods`: how many pods labelled app=web (of `ns`, else the run's), within `tolerance`. */
export const countWebPods = (tolerance: unknown, ns?: string) => ({
  ...activity('probe', 'web-pods', 'chaoscluster.pod.probes', 'count_pods', {
    ...(ns ? { ns } : {}),
    label_selector: 'app=web',
  }),
  tolerance,
});
