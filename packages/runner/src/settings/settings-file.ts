// Chaos Toolkit's settings file (D162): what `chaos settings` reads and changes, and `chaos run`
// takes its controls and runtime strategies from. chaoskit reads it when `--settings` names it
// (run), or to show or change it (settings, info settings); shown, its values are masked: it
// holds credentials (auths, vault, notification URLs, controls' arguments).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { DocumentFileError, readDocumentFile } from '@chaoskit/core';
import { dump } from 'js-yaml';

export type Settings = Record<string, unknown>;

/** Chaos Toolkit's default settings file. */
export const DEFAULT_SETTINGS = join(homedir(), '.chaostoolkit', 'settings.yaml');

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The settings at `path`; undefined without a file, as Chaos Toolkit reads none; an error naming it when it is not settings. */
export function readSettings(path: string): Settings | undefined {
  if (!existsSync(path)) return undefined;
  if (readFileSync(path, 'utf8').trim() === '') return {};
  let document: unknown;
  try {
    document = readDocumentFile(path, 'yaml').document;
  } catch (err) {
    if (err instanceof DocumentFileError) throw new Error(`the settings file ${path}: ${err.message}`);
    throw err;
  }
  if (!isMapping(document)) throw new Error(`the settings file ${path} is not a mapping of settings`);
  return document;
}

// What chaoskit takes from the settings of a run; the rest is said not to apply.
const APPLIED = ['runtime', 'controls'];

/** The settings `--settings` names for a run (none without a file), and a warning naming what does not apply. */
export function runSettings(path: string | undefined, warn: (line: string) => void): Settings | undefined {
  const settings = path === undefined ? undefined : readSettings(path);
  const ignored = Object.keys(settings ?? {}).filter((key) => !APPLIED.includes(key));
  if (ignored.length)
    warn(
      `the settings file's ${ignored.join(', ')} ${ignored.length === 1 ? 'does' : 'do'} not apply: chaoskit takes its runtime and controls only (D162)`,
    );
  return settings;
}

/** Writes the settings as YAML, as Chaos Toolkit does, its directory made if missing. */
export function saveSettings(path: string, settings: Settings): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, dump(settings, { lineWidth: -1, noRefs: true }));
}

/**
 * Where a dotted key (`runtime.rollbacks.strategy`, `auths.example\.com.type`, `controls[0]`)
 * is in the settings, as Chaos Toolkit reads it: its parent and its key or index there;
 * undefined when any part of it is absent.
 */
export function locate(
  settings: Settings,
  key: string,
): { parent: Record<string, unknown> | unknown[]; at: string | number } | undefined {
  let parent: Record<string, unknown> | unknown[] | undefined;
  let at: string | number | undefined;
  let current: unknown = settings;
  for (const raw of key.split(/(?<!\\)\./)) {
    const [, name = '', index] = /^(.*?)(?:\[(\d+)\])?$/s.exec(raw.replaceAll('\\', '')) ?? [];
    if (!isMapping(current) || !(name in current)) return undefined;
    [parent, at, current] = [current, name, current[name]];
    if (index !== undefined) {
      if (!Array.isArray(current) || Number(index) >= current.length) return undefined;
      [parent, at, current] = [current, Number(index), current[Number(index)]];
    }
  }
  return parent === undefined || at === undefined ? undefined : { parent, at };
}

/** The value at `at` of a located key. */
export const valueAt = (found: NonNullable<ReturnType<typeof locate>>): unknown =>
  (found.parent as Record<string | number, unknown>)[found.at];

// Shown as they are: what names the configured things, and the runtime's strategies.
const NAMING = new Set(['type', 'module', 'func', 'name', 'scope', 'strategy']);

/**
 * The settings as they may be shown: text values masked (`***`) but the runtime's and those of
 * keys that name what is configured (type, module, func, name, scope, strategy). Chaos Toolkit
 * prints them as they are, credentials included.
 */
export function shownSettings(value: unknown, key = '', inRuntime = false): unknown {
  if (Array.isArray(value)) return value.map((v) => shownSettings(v, key, inRuntime));
  if (isMapping(value))
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        shownSettings(v, k, inRuntime || (key === '' && k === 'runtime')),
      ]),
    );
  return typeof value === 'string' && !inRuntime && !NAMING.has(key) ? '***' : value;
}
