// What the pod of a deployed experiment reads: the experiment and the files it references, as
// one ConfigMap's keys, mounted at EXPERIMENT_DIR. The experiment is copied with each reference
// pointed at its file in the mount: spec_path-like arguments (`*_path`, relative to the working
// directory, as `chaoskit run` reads them) and js controls given as a path (relative to the
// experiment's directory).

import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { declaredControls } from '../controls/declared.js';
import { activitiesOf, isObject } from '../experiment/raw.js';

type Json = Record<string, unknown>;

/** Where the ConfigMap is mounted in the pod. */
export const EXPERIMENT_DIR = '/chaoskit/experiment';
/** The experiment's key in the ConfigMap. */
export const EXPERIMENT_KEY = 'experiment.json';
/** What a ConfigMap may hold (the API refuses more). */
export const MAX_CONFIGMAP_BYTES = 1024 * 1024 - 16 * 1024;

export interface ExperimentFiles {
  /** The ConfigMap's data: the experiment (JSON) and each file referenced, by key. */
  data: Record<string, string>;
  /** The files taken in, as the experiment named them. */
  files: string[];
}

const isPath = (v: string) => v.startsWith('./') || v.startsWith('../') || isAbsolute(v);

/** A ConfigMap key for the n-th file: its base name, kept readable, made a valid key. */
function keyOf(n: number, path: string): string {
  return `file-${n}-${basename(path).replace(/[^-._a-zA-Z0-9]/g, '_')}`.slice(0, 253);
}

/**
 * The experiment and its files as a ConfigMap's data. `experimentPath` is where the file was
 * read from (its directory is where relative control modules are). A file that cannot be read
 * is refused, naming the activity or control and the argument.
 */
export function experimentFiles(raw: Json, experimentPath: string, cwd = process.cwd()): ExperimentFiles {
  const copy = structuredClone(raw);
  const data: Record<string, string> = {};
  const files: string[] = [];
  const byPath = new Map<string, string>();
  const take = (path: string, from: string, where: string): string => {
    const full = resolve(from, path);
    let key = byPath.get(full);
    if (!key) {
      try {
        if (!statSync(full).isFile()) throw new Error('it is not a file');
        key = keyOf(byPath.size + 1, full);
        data[key] = readFileSync(full, 'utf8');
      } catch (err) {
        const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
        throw new Error(
          `${where}: the file '${path}' cannot be read (${reason}); deploy takes the files an experiment references into its ConfigMap`,
        );
      }
      byPath.set(full, key);
      files.push(path);
    }
    return `${EXPERIMENT_DIR}/${key}`;
  };
  for (const activity of activitiesOf(copy)) {
    const provider = activity.provider;
    if (!isObject(provider) || provider.type !== 'python' || !isObject(provider.arguments)) continue;
    for (const [name, value] of Object.entries(provider.arguments)) {
      // A value given as ${name} is known only when the run resolves it: left as it is.
      if (!name.endsWith('_path') || typeof value !== 'string' || value.includes('${')) continue;
      provider.arguments[name] = take(value, cwd, `activity '${String(activity.name)}', argument ${name}`);
    }
  }
  const base = dirname(resolve(cwd, experimentPath));
  for (const control of declaredControls(copy)) {
    const provider = (control as { provider?: unknown }).provider;
    if (!isObject(provider) || provider.type !== 'js' || typeof provider.module !== 'string') continue;
    if (!isPath(provider.module)) continue;
    provider.module = take(provider.module, base, `control '${String(control.name)}', provider.module`);
  }
  data[EXPERIMENT_KEY] = `${JSON.stringify(copy, null, 2)}\n`;
  const size = Object.values(data).reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  if (size > MAX_CONFIGMAP_BYTES)
    throw new Error(
      `the experiment and its ${files.length} file(s) are ${size} bytes; a ConfigMap holds at most ${MAX_CONFIGMAP_BYTES}`,
    );
  return { data, files };
}

/** The environment variables the experiment's configuration and secrets read (`type: env`). */
export function environmentKeys(raw: Json): string[] {
  const keys = new Set<string>();
  const visit = (value: unknown) => {
    if (!isObject(value)) return;
    if (value.type === 'env' && typeof value.key === 'string') keys.add(value.key);
    else for (const inner of Object.values(value)) visit(inner);
  };
  visit(raw.configuration);
  visit(raw.secrets);
  return [...keys].sort();
}
