// Chaos Toolkit's global controls (D162): the settings file's `controls` and each `run
// --control-file`, a mapping of control name → control. They apply at every level, as the
// experiment's own automatic controls do, so they join its `controls`: a js control runs, a
// Python one is refused unless skipped by name (D96), a safeguard is run natively (D127).
import { dirname, isAbsolute, resolve } from 'node:path';
import { DocumentFileError, readDocumentFile } from '@chaoskit/core';
import { InvalidArgumentError } from 'commander';

type Json = Record<string, unknown>;

const isMapping = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The controls of a mapping read from `where`, each named by its key; a js control's relative
 * module path is made absolute from `dir`, where it was written (the experiment's own are read
 * from the experiment's directory).
 */
export function controlsOf(mapping: unknown, where: string, dir: string): Json[] {
  if (mapping === undefined || mapping === null) return [];
  if (!isMapping(mapping))
    throw new InvalidArgumentError(`${where}: controls are a mapping of control name to control`);
  return Object.entries(mapping).map(([name, control]) => {
    if (!isMapping(control))
      throw new InvalidArgumentError(`${where}: control '${name}' is not a mapping (provider, arguments…)`);
    const provider = control.provider;
    const module = isMapping(provider) ? provider.module : undefined;
    const relative = typeof module === 'string' && /^\.\.?\//.test(module) && !isAbsolute(module);
    return {
      ...control,
      name,
      ...(relative && isMapping(provider) ? { provider: { ...provider, module: resolve(dir, module) } } : {}),
    };
  });
}

/** The controls of each `--control-file` (JSON, or YAML for .yaml and .yml), in the order given. */
export function controlFiles(paths: readonly string[]): Json[] {
  return paths.flatMap((path) => {
    let document: unknown;
    try {
      document = readDocumentFile(path).document;
    } catch (err) {
      if (err instanceof DocumentFileError)
        throw new InvalidArgumentError(`--control-file ${path}: ${err.message}`);
      throw err;
    }
    return controlsOf(document, `--control-file ${path}`, dirname(resolve(path)));
  });
}

/** The experiment with the global controls after its own; a name it already uses is refused. */
export function withGlobalControls(experiment: Json, controls: readonly Json[]): void {
  // Controls that are not a list are the experiment's problem, which validation names.
  if (controls.length === 0 || (experiment.controls !== undefined && !Array.isArray(experiment.controls)))
    return;
  const own = (experiment.controls as unknown[] | undefined) ?? [];
  const names = new Set(own.map((c) => (isMapping(c) ? c.name : undefined)));
  const taken = controls.find((c) => names.has(c.name));
  if (taken)
    throw new InvalidArgumentError(
      `global control '${String(taken.name)}': the experiment declares a control of that name; rename one of them`,
    );
  experiment.controls = [...own, ...controls];
}
