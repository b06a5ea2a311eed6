// `chaoskit init`: an experiment scaffolded from the installed activities — asked on a terminal
// (Chaos Toolkit's `chaos init` wizard), or given with flags for scripts and tests. What is
// written is validated first: it passes `chaoskit validate`.

import { type AnyActivity, z } from '@chaoskit/core';
import { InvalidArgumentError } from 'commander';
import { dump } from 'js-yaml';
import { resolveActivity } from '../activities/resolve-activity.js';
import { originalModule } from '../experiment/format.js';

type Json = Record<string, unknown>;

export type Phase = 'hypothesis' | 'method' | 'rollbacks';

export interface ScaffoldActivity {
  phase: Phase;
  /**
   * The activity as `module.func`, written so in the experiment: Chaos Toolkit's names
   * (chaosk8s.*, chaosistio.*) or chaoskit's (chaoscluster.*, chaosmesh.*).
   */
  activity: string;
  arguments: Json;
  /** A steady-state probe's tolerance (default `true`). */
  tolerance?: unknown;
  background?: boolean;
}

export interface Scaffold {
  title: string;
  description: string;
  activities: ScaffoldActivity[];
}

/** A value given on the command line or at a prompt: JSON when it reads as JSON, else the text. */
export function parseValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * The flags of `init`, in the order given: `--probe`, `--activity`, `--rollback` each open an
 * activity, and the `--arg key=value`, `--tolerance` and `--background` after it are its own
 * (commander calls the parsers in command-line order).
 */
export function initFlags() {
  const activities: ScaffoldActivity[] = [];
  const last = (flag: string) => {
    const current = activities.at(-1);
    if (!current)
      throw new InvalidArgumentError(
        `${flag} belongs to an activity: give --probe, --activity or --rollback first`,
      );
    return current;
  };
  const open = (phase: Phase) => (value: string) => {
    activities.push({ phase, activity: value, arguments: {} });
    return activities;
  };
  return {
    activities,
    probe: open('hypothesis'),
    activity: open('method'),
    rollback: open('rollbacks'),
    arg: (text: string) => {
      const cut = text.indexOf('=');
      if (cut <= 0)
        throw new InvalidArgumentError(`--arg takes key=value (a JSON value, or text), got ${text}`);
      last('--arg').arguments[text.slice(0, cut)] = parseValue(text.slice(cut + 1));
      return activities;
    },
    tolerance: (text: string) => {
      const current = last('--tolerance');
      if (current.phase !== 'hypothesis') throw new InvalidArgumentError('--tolerance belongs to a --probe');
      current.tolerance = parseValue(text);
      return activities;
    },
    background: () => {
      const current = last('--background');
      if (current.phase === 'hypothesis')
        throw new InvalidArgumentError('--background belongs to --activity or --rollback');
      current.background = true;
      return activities;
    },
  };
}

/** Splits `module.func` and finds the activity; the error says what is installed. */
export async function findActivity(
  qualified: string,
): Promise<{ activity: AnyActivity; module: string; func: string }> {
  const cut = qualified.lastIndexOf('.');
  if (cut <= 0) throw new Error(`${qualified}: an activity is module.func (chaoskit discover lists them)`);
  const [module, func] = [qualified.slice(0, cut), qualified.slice(cut + 1)];
  const activity = await resolveActivity(module, func).catch((err: Error) => {
    throw new Error(`module '${module}' ${err.message}`);
  });
  return { activity, module, func };
}

/**
 * The experiment of a scaffold (Chaos Toolkit's format; activity names are their functions').
 * Modules are written as the scaffold names them, so Chaos Toolkit's names stay Chaos Toolkit's.
 */
export async function buildExperiment(scaffold: Scaffold): Promise<Json> {
  const names = new Set<string>();
  const unique = (base: string) => {
    let name = base;
    for (let i = 2; names.has(name); i++) name = `${base}-${i}`;
    names.add(name);
    return name;
  };
  const lists: Record<Phase, Json[]> = { hypothesis: [], method: [], rollbacks: [] };
  for (const item of scaffold.activities) {
    const { activity, module, func } = await findActivity(item.activity);
    if (item.phase === 'hypothesis' && activity.kind !== 'probe')
      throw new Error(`${activity.qualifiedName} is an action: the steady-state hypothesis holds probes`);
    if (item.phase === 'rollbacks' && activity.kind !== 'action')
      throw new Error(`${activity.qualifiedName} is a probe: rollbacks are actions`);
    lists[item.phase].push({
      type: activity.kind,
      name: unique(func.replaceAll('_', '-')),
      provider: {
        type: 'python',
        module,
        func,
        ...(Object.keys(item.arguments).length ? { arguments: item.arguments } : {}),
      },
      ...(item.phase === 'hypothesis' ? { tolerance: item.tolerance ?? true } : {}),
      ...(item.background ? { background: true } : {}),
    });
  }
  return {
    title: scaffold.title,
    description: scaffold.description,
    ...(lists.hypothesis.length
      ? { 'steady-state-hypothesis': { title: `${scaffold.title}: steady state`, probes: lists.hypothesis } }
      : {}),
    method: lists.method,
    ...(lists.rollbacks.length ? { rollbacks: lists.rollbacks } : {}),
  };
}

/** The text of the experiment file: YAML for .yaml/.yml, JSON otherwise (Chaos Toolkit's rule). */
export function renderExperiment(experiment: Json, path: string): string {
  return /\.ya?ml$/i.test(path)
    ? dump(experiment, { lineWidth: 100, noRefs: true })
    : `${JSON.stringify(experiment, null, 2)}\n`;
}

/**
 * The wizard: asks on the terminal (stderr) for the title, the description, the steady-state
 * probes, the method and the rollbacks, from the installed activities — by Chaos Toolkit's
 * names (chaosk8s.*, chaosistio.*), so the experiment runs with `chaos` too; each argument is
 * checked by the activity's own schema as it is typed.
 */
export async function askOnTerminal(
  installed: readonly AnyActivity[],
  defaultPath: string,
  /** Whether the experiment may be written there: true, or why not (asked again). */
  writable: (path: string) => true | string = () => true,
): Promise<Scaffold & { path: string }> {
  // Loaded only here: the other commands start without the prompt library.
  const [{ default: input }, { default: confirm }, { default: search }] = await Promise.all([
    import('@inquirer/input'),
    import('@inquirer/confirm'),
    import('@inquirer/search'),
  ]);
  const output = process.stderr;
  const context = { output };
  const say = (text: string) => output.write(`${text}\n`);
  say(
    'An experiment is a steady-state hypothesis (optional: probes whose results must be within a tolerance),\n' +
      'a method (the actions and probes that vary the system) and rollbacks (optional: actions that undo).',
  );
  const title = await input({ message: "Experiment's title", required: true }, context);
  const description = await input({ message: 'What it checks (description)', required: true }, context);
  const activities: ScaffoldActivity[] = [];

  const pick = async (phase: Phase, message: string, kinds: Array<'probe' | 'action'>) => {
    const offered = installed.filter((a) => kinds.includes(a.kind) && !a.deprecated);
    for (;;) {
      const picked = await search<{ activity: AnyActivity; name: string } | null>(
        {
          message,
          source: (term) => {
            const done = { name: '(done)', value: null };
            const matching = offered
              .map((a) => ({ a, name: `${originalModule(a.module)}.${a.name}` }))
              .filter(({ a, name }) => !term || [name, a.qualifiedName, a.doc].some((t) => t.includes(term)))
              .map(({ a, name }) => ({ name, value: { activity: a, name }, description: a.doc }));
            // Enter on an empty filter ends the list; on a filter, takes the first match.
            return term ? [...matching, done] : [done, ...matching];
          },
        },
        context,
      );
      if (!picked) return;
      const chosen = picked.activity;
      const args: Json = {};
      for (const arg of chosen.arguments) {
        const shown = 'default' in arg ? JSON.stringify(arg.default) : undefined;
        const schema = z.object({ [arg.name]: chosen.schema.shape[arg.name]! });
        const answer = await input(
          {
            message: `${arg.name}: ${arg.accepted}${arg.required ? '' : ' (Enter: the default)'}`,
            ...(shown !== undefined ? { default: shown } : {}),
            required: arg.required,
            validate: (text) =>
              schema.safeParse({ [arg.name]: parseValue(text) }).success ||
              text.startsWith('${') ||
              `not ${arg.accepted}`,
          },
          context,
        );
        if (answer !== shown) args[arg.name] = parseValue(answer);
      }
      const item: ScaffoldActivity = { phase, activity: picked.name, arguments: args };
      if (phase === 'hypothesis')
        item.tolerance = parseValue(
          await input(
            { message: 'Tolerance: the value the probe must return (JSON)', default: 'true' },
            context,
          ),
        );
      activities.push(item);
    }
  };
  if (await confirm({ message: 'Define a steady-state hypothesis now?', default: true }, context))
    await pick('hypothesis', 'A steady-state probe (type to filter)', ['probe']);
  await pick('method', 'A method activity (type to filter)', ['action', 'probe']);
  if (await confirm({ message: 'Add rollbacks?', default: false }, context))
    await pick('rollbacks', 'A rollback action (type to filter)', ['action']);
  const path = await input(
    { message: 'Save it as (.yaml, .yml: YAML; else JSON)', default: defaultPath, validate: writable },
    context,
  );
  return { title, description, activities, path };
}
