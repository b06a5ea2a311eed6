// Chaos Toolkit's controls (D81): hooks called around the experiment, the hypothesis, the method,
// the rollbacks and each activity. A chaoskit control is a JavaScript module (a file, or an
// installed package) exporting hook functions under Chaos Toolkit's names, declared with the
// provider type `js`; Python controls cannot be loaded: they are refused unless skipped by name,
// but for Chaos Toolkit's safeguards and tracing, which chaoskit runs itself (D127, D132).

import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type ResolvedSecrets, redact, substitute } from '@chaoskit/core/runner';
import { isObject } from '../experiment/raw.js';
import { importModule } from '../package/import-module.js';
import { type DeclaredControl, declaredControls, listOf } from './declared.js';
import { isSafeguards } from './safeguards.js';
import { isTracingControl } from './tracing.js';

type Json = Record<string, unknown>;

/** Where a hook is called: Chaos Toolkit's levels. */
export type ControlLevel = 'experiment' | 'hypothesis' | 'method' | 'rollback' | 'activity';

/** The names a control module may export, as Chaos Toolkit's Python controls have them. */
export const HOOKS = [
  'configure_control',
  'before_experiment_control',
  'after_experiment_control',
  'before_hypothesis_control',
  'after_hypothesis_control',
  'before_method_control',
  'after_method_control',
  'before_rollback_control',
  'after_rollback_control',
  'before_activity_control',
  'after_activity_control',
  'cleanup_control',
] as const;

export type HookName = (typeof HOOKS)[number];

/** What every hook receives (one object; `context` and `state` as Chaos Toolkit gives them). */
export interface HookInput {
  /** The control's `provider.arguments`, with `${name}` substituted. */
  arguments: Json;
  /** A copy of the experiment (the hooks cannot change what runs). */
  experiment: Json;
  configuration: Json;
  secrets: Json;
  /** What the hook is about: the experiment, the hypothesis, or the activity (a copy). */
  context?: unknown;
  /** After-hooks: the journal, the hypothesis' state, the method's or rollbacks' runs, the activity's run. */
  state?: unknown;
  /** A line in the run's log (redacted). */
  log: (line: string) => void;
}

export type Hook = (input: HookInput) => unknown;

/**
 * Thrown by a hook to stop the run, as Chaos Toolkit's `InterruptExecution`: the run stops at
 * its next safe point and plays its rollbacks (D70). Recognised by its name, so a control need
 * not import chaoskit to throw one.
 */
export class InterruptExecution extends Error {
  override name = 'InterruptExecution';
}

/** A control's hook interrupted the run. */
export class ControlInterrupted extends Error {
  constructor(
    readonly control: string,
    message: string,
  ) {
    super(message);
  }
}

/** Controls that name no provider, or refer to no control of the experiment (as Chaos Toolkit checks). */
export function controlProblems(experiment: Json): string[] {
  const top = Array.isArray(experiment.controls) ? experiment.controls.filter(isObject) : [];
  const problems: string[] = [];
  for (const control of declaredControls(experiment)) {
    if (control.ref !== undefined) {
      if (!top.some((t) => t.name === control.ref && t.ref === undefined))
        problems.push(
          `control '${control.name}' refers to '${control.ref}', which is not one of the experiment's controls`,
        );
    } else if (!control.provider)
      problems.push(
        `control '${control.name}' must have a provider (or a ref to one of the experiment's controls)`,
      );
  }
  return [...new Set(problems)];
}

/**
 * The controls chaoskit cannot run, once per control name (D81, D96). A Python control is
 * refused: it may be a safeguard, and the run would go on unguarded. Skipped by name
 * (`--skip-control`, the chaoskit extension's `skip_controls`), it is a warning. A provider of
 * another type is a warning: Chaos Toolkit does not run those either.
 */
export function unrunnableControls(
  experiment: Json,
  skipped: readonly string[],
): { problems: string[]; warnings: string[] } {
  const seen = new Set<string>();
  const problems: string[] = [];
  const warnings: string[] = [];
  for (const control of declaredControls(experiment)) {
    const type = control.provider?.type;
    if (!control.provider || type === 'js' || seen.has(control.name)) continue;
    seen.add(control.name);
    const module = typeof control.provider.module === 'string' ? ` (module ${control.provider.module})` : '';
    // chaoskit runs Chaos Toolkit's safeguards (D127) and tracing (D132) itself, from the
    // experiment's own controls.
    const safeguards = isSafeguards(control) && !skipped.includes(control.name);
    const tracing = isTracingControl(control) && !skipped.includes(control.name);
    if ((safeguards || tracing) && listOf(experiment.controls).includes(control)) continue;
    if (safeguards)
      problems.push(
        `control '${control.name}' is a safeguards control declared on an activity or the hypothesis, where Chaos Toolkit never starts it: declare it in the experiment's controls`,
      );
    else if (tracing)
      problems.push(
        `control '${control.name}' is a tracing control declared on an activity or the hypothesis: chaoskit traces the whole run, declare it in the experiment's controls`,
      );
    else if (type !== 'python')
      warnings.push(
        `control '${control.name}' has provider type ${JSON.stringify(type)}, which chaoskit does not know (js: a JavaScript module): it does not run, as in Chaos Toolkit`,
      );
    else if (skipped.includes(control.name))
      warnings.push(
        `control '${control.name}' is a Python control${module}, skipped as asked: none of its hooks apply to this run`,
      );
    else
      problems.push(
        `control '${control.name}' is a Python control${module}: chaoskit cannot load Python modules, so none of its hooks would apply (a safeguard it implements would not guard the run). Write it as a chaoskit control (provider type js), remove it, or run without it knowingly: --skip-control ${control.name}, or skip_controls: [${control.name}] in the chaoskit extension`,
      );
  }
  for (const name of new Set(skipped))
    if (!declaredControls(experiment).some((c) => c.name === name && c.provider?.type === 'python'))
      warnings.push(`'${name}' is skipped, but no Python control of the experiment has that name`);
  return { problems, warnings };
}

export type ControlModule = Partial<Record<HookName, Hook>>;

/**
 * Loads a control's module: a path (relative to the experiment's directory), or an installed
 * package, looked for from the experiment's directory, the working directory, then the
 * runner's own.
 */
async function importControl(spec: string, base: string): Promise<ControlModule> {
  const isPath = spec.startsWith('../') || spec.startsWith('../../') || isAbsolute(spec);
  let url: string | undefined;
  if (isPath) url = pathToFileURL(resolve(base, spec)).href;
  else {
    for (const dir of [base, process.cwd()]) {
      try {
        url = pathToFileURL(createRequire(join(dir, 'noop.js')).resolve(spec)).href;
        break;
      } catch {}
    }
  }
  return (await importModule(url ?? spec)) as ControlModule;
}

/** A js control loaded: its declaration and its hooks. */
interface Loaded {
  declared: DeclaredControl;
  module: ControlModule;
}

export interface ControlsOptions {
  configuration: Json;
  secrets: ResolvedSecrets;
  /** A line a hook logged (redacted). */
  log: (control: string, line: string) => void;
  /** A hook failed (the run goes on). */
  failed: (control: string, hook: HookName, message: string) => void;
  /** A hook threw InterruptExecution: called (and awaited) before ControlInterrupted is thrown. */
  interrupt: (control: string, message: string) => unknown;
}

/**
 * The experiment's js controls, loaded (by `prepareExperiment`, so `validate` reports a module
 * that cannot be loaded); problems are returned as lines.
 */
export async function loadControls(
  experiment: Json,
  base: string,
): Promise<{ loaded: Map<string, ControlModule>; problems: string[] }> {
  const loaded = new Map<string, ControlModule>();
  const problems: string[] = [];
  for (const control of declaredControls(experiment)) {
    if (control.provider?.type !== 'js' || loaded.has(control.name)) continue;
    const spec = control.provider.module;
    if (typeof spec !== 'string' || !spec) {
      problems.push(`control '${control.name}': a js control needs provider.module (a file or a package)`);
      continue;
    }
    try {
      const module = await importControl(spec, base);
      if (!HOOKS.some((hook) => typeof module[hook] === 'function')) {
        problems.push(
          `control '${control.name}': module ${spec} exports none of the control hooks (${HOOKS.join(', ')})`,
        );
        continue;
      }
      loaded.set(control.name, module);
    } catch (err) {
      problems.push(
        `control '${control.name}': module ${spec} cannot be loaded (${redact((err as Error).message)})`,
      );
    }
  }
  return { loaded, problems };
}

/** The hooks of a run: which controls apply where, as Chaos Toolkit scopes them. */
export class Controls {
  readonly #experiment: Json;
  readonly #modules: Map<string, ControlModule>;
  readonly #options: ControlsOptions;

  constructor(experiment: Json, modules: Map<string, ControlModule>, options: ControlsOptions) {
    this.#experiment = experiment;
    this.#modules = modules;
    this.#options = options;
  }

  /** `configure_control` of each control, once per name, in declaration order. */
  async configure(): Promise<void> {
    for (const control of this.#unique()) await this.#call(control, 'configure_control', {});
  }

  /** `cleanup_control` of each control, once per name. */
  async cleanup(): Promise<void> {
    for (const control of this.#unique()) await this.#call(control, 'cleanup_control', {});
  }

  /** The before-hooks of `level` for `context`. */
  async before(level: ControlLevel, context: Json): Promise<void> {
    for (const control of this.#at(level, context))
      if (control.declared.scope !== 'after')
        await this.#call(control, `before_${level}_control` as HookName, { context });
  }

  /** The after-hooks of `level` for `context`, with `state` (the journal, the runs, …). */
  async after(level: ControlLevel, context: Json, state: unknown): Promise<void> {
    for (const control of this.#at(level, context))
      if (control.declared.scope !== 'before')
        await this.#call(control, `after_${level}_control` as HookName, { context, state });
  }

  #unique(): Loaded[] {
    const seen = new Set<string>();
    const out: Loaded[] = [];
    for (const declared of declaredControls(this.#experiment)) {
      const module = this.#modules.get(declared.name);
      if (!module || seen.has(declared.name) || declared.provider?.type !== 'js') continue;
      seen.add(declared.name);
      out.push({ declared, module });
    }
    return out;
  }

  /**
   * Chaos Toolkit's scoping: at the experiment level, the experiment's controls; at the method
   * and rollback levels, its automatic ones; at the hypothesis and activity levels, its
   * automatic ones not redeclared there, then those declared there (a `ref` names one of the
   * experiment's).
   */
  #at(level: ControlLevel, context: Json): Loaded[] {
    const top = listOf(this.#experiment.controls);
    const automatic = top.filter((c) => c.automatic !== false);
    let chosen: DeclaredControl[];
    if (level === 'experiment') chosen = top;
    else if (level === 'method' || level === 'rollback') chosen = automatic;
    else {
      const local = listOf(context.controls).map((c) =>
        c.ref !== undefined ? (top.find((t) => t.name === c.ref) ?? c) : c,
      );
      chosen = [...automatic.filter((c) => !local.some((l) => l.name === c.name)), ...local];
    }
    return chosen.flatMap((declared) => {
      const module = declared.provider?.type === 'js' ? this.#modules.get(declared.name) : undefined;
      return module ? [{ declared, module }] : [];
    });
  }

  async #call(control: Loaded, hook: HookName, input: { context?: unknown; state?: unknown }): Promise<void> {
    const fn = control.module[hook];
    if (typeof fn !== 'function') return;
    const { configuration, secrets, log, failed, interrupt } = this.#options;
    const name = control.declared.name;
    try {
      await fn({
        arguments: substitute(control.declared.provider?.arguments ?? {}, configuration, secrets) as Json,
        experiment: structuredClone(this.#experiment),
        configuration: structuredClone(configuration),
        secrets: structuredClone(secrets),
        ...('context' in input ? { context: structuredClone(input.context) } : {}),
        ...('state' in input ? { state: structuredClone(input.state) } : {}),
        log: (line: string) => log(name, redact(String(line))),
      });
    } catch (err) {
      const message = redact((err as Error)?.message ?? String(err));
      if ((err as Error)?.name === 'InterruptExecution') {
        await interrupt(name, message);
        throw new ControlInterrupted(name, message);
      }
      failed(name, hook, message);
    }
  }
}
