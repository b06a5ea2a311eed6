// The experiment of `run`, `validate` and `plan`: loaded, given the command line's variables,
// and checked, before any of them touches the cluster.
import { InvalidArgumentError } from 'commander';
import { experimentBase, loadExperiment, type Prepared, prepareExperiment } from '../experiment.js';
import { loadVarFiles, parseVar } from '../vars.js';
import { session } from './session.js';

/** --var-file, then --var over it. */
async function gatherVars(opts: { var: string[]; varFile: string[] }) {
  const vars = await loadVarFiles(opts.varFile, process.env);
  for (const text of opts.var) {
    try {
      const [key, value] = parseVar(text);
      vars.configuration = { ...vars.configuration, [key]: value };
    } catch (err) {
      throw new InvalidArgumentError((err as Error).message);
    }
  }
  return vars;
}

/** The experiment at `source`, prepared; its warnings said once. */
export async function prepareFrom(source: string, opts: Record<string, unknown>): Promise<Prepared> {
  const prepared = await prepareExperiment(
    await loadExperiment(source, (line) => session.logger.debug(line)),
    await gatherVars(opts as { var: string[]; varFile: string[] }),
    process.env,
    { ...opts, base: experimentBase(source) },
  );
  for (const warning of prepared.warnings) session.logger.warn(warning);
  return prepared;
}
