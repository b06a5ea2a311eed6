// The experiment of `run`, `validate` and `plan`: loaded, given the command line's variables,
// and checked, before any of them touches the cluster.
import { dirname, resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { loadExperiment } from '../experiment/load.js';
import { loadVarFiles, parseVar } from '../experiment/vars.js';
import { Refusal } from '../output/errors.js';
import { type Json, type Prepared, prepareExperiment } from '../prepare/prepare.js';
import { controlFiles, controlsOf, withGlobalControls } from '../settings/global-controls.js';
import { runStrategies } from '../settings/runtime.js';
import { runSettings } from '../settings/settings-file.js';
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

/**
 * The experiment at `source`, prepared, with `controls` (global ones, D162) after its own; its
 * warnings said once.
 */
export async function prepareFrom(
  source: string,
  opts: Record<string, unknown>,
  controls: readonly Json[] = [],
): Promise<Prepared> {
  if (opts.verifyTls === false && /^https:/i.test(source))
    throw new Refusal(
      `--no-verify-tls: chaoskit does not run an experiment read over TLS it has not verified, which anyone on the way could have changed (D162); trust the server's CA instead: NODE_EXTRA_CA_CERTS=/path/to/ca.pem`,
    );
  const raw = await loadExperiment(source, (line) => session.logger.debug(line));
  withGlobalControls(raw, controls);
  const prepared = await prepareExperiment(
    raw,
    await gatherVars(opts as { var: string[]; varFile: string[] }),
    process.env,
    opts,
  );
  for (const warning of prepared.warnings) session.logger.warn(warning);
  return prepared;
}

/**
 * The experiment of `run`: prepared with the global controls of the settings file (`--settings`,
 * in `opts.settings`) and of `--control-file`; the strategies it plays set in `opts`.
 */
export async function prepareRun(
  source: string,
  opts: Record<string, unknown> & {
    settings?: string;
    controlFile?: string[];
    rollbackStrategy?: string;
    hypothesisStrategy?: string;
  },
): Promise<Prepared> {
  const warn = (line: string) => session.logger.warn(line);
  const settings = runSettings(opts.settings, warn);
  const controls = [
    ...controlsOf(
      settings?.controls,
      `the settings file ${opts.settings}`,
      dirname(resolve(opts.settings ?? '.')),
    ),
    ...controlFiles(opts.controlFile ?? []),
  ];
  const prepared = await prepareFrom(source, opts, controls);
  Object.assign(opts, runStrategies(opts, prepared.experiment as Json, settings, warn));
  return prepared;
}
