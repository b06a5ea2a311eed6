// Which npm package provides an experiment's module. Any package may: it declares its modules in
// its package.json (`"chaoskit": { "modules": ["my.module.actions"] }`) and its entry point
// exports its activities (made with core's defineActivity) and, optionally, aliases of
// activities defined elsewhere (core's aliasActivity). The runner reads package.json files to
// find the modules (no code is loaded for that), then imports only the package of a module an
// experiment names, so the CLI starts fast and users install only what their experiments use.
//
// Packages are looked for in the node_modules directories Node would search from the
// experiment's directory, then from the working directory, then from the runner's own install:
// a globally installed runner finds the packages next to the experiment, and under pnpm (whose
// node_modules holds only the project's direct dependencies) the project's own.

import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join, parse, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type ActivityAlias, type AnyActivity, activitiesIn } from '@chaoskit/core';
import { canonicalModule, isActivity, isAlias, registry, spelledAs, suggest } from '@chaoskit/core/runner';
import { exports as entryExports, legacy as legacyEntry } from 'resolve.exports';
import { BUNDLED } from '../package/bundled.js';
import { importModule } from '../package/import-module.js';
import { CHAOSKIT_PACKAGES, chaoskitPackageOf } from '../package/known-packages.js';
import { PROMETHEUS_MODULE, prometheusQueryActivity } from './prometheus.js';

/** Where to look for packages, besides the runner's own install. */
export interface Lookup {
  /** The experiment's directory: looked at first. */
  experimentDir?: string;
  /** The working directory (default: process.cwd()). */
  cwd?: string;
}

/** An installed package that declares experiment modules. */
export interface Provider {
  name: string;
  version: string;
  /** Its directory (symbolic links resolved). */
  dir: string;
  /** The modules it declares, as written in its package.json. */
  modules: string[];
  /** How a package built into the bundled command is imported (D149); else from `dir`. */
  load?: () => Promise<Record<string, unknown>>;
}

/** What a loaded provider registered. */
export interface LoadedProvider extends Provider {
  activities: AnyActivity[];
  aliases: ActivityAlias[];
}

const MODULE_NAME = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;
/** The runner's directory: read at the call, as the single file (D157) is built on another machine. */
const runnerHome = () => dirname(fileURLToPath(import.meta.url));

/** The node_modules directories Node searches from `dir`, nearest first. */
function nodeModulesChain(dir: string): string[] {
  const out: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (basename(at) !== 'node_modules') out.push(join(at, 'node_modules'));
    if (at === parse(at).root) return out;
  }
}

function realpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function readManifest(dir: string): Record<string, unknown> | undefined {
  try {
    const text = readFileSync(join(dir, 'package.json'), 'utf8');
    // Most packages declare nothing: skip them without parsing.
    if (!text.includes('"chaoskit"')) return undefined;
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The modules a manifest declares (valid dotted names only), or undefined when it declares none. */
export function declaredModules(manifest: Record<string, unknown>): string[] | undefined {
  const field = manifest.chaoskit as { modules?: unknown } | undefined;
  if (!field || !Array.isArray(field.modules)) return undefined;
  const modules = field.modules.filter((m): m is string => typeof m === 'string' && MODULE_NAME.test(m));
  return modules.length ? modules : undefined;
}

const scanned = new Map<string, Provider[]>();

/** The providers installed directly in one node_modules directory (cached for the process). */
function scan(nodeModules: string): Provider[] {
  const cached = scanned.get(nodeModules);
  if (cached) return cached;
  const found: Provider[] = [];
  const entries = (dir: string) => {
    try {
      return readdirSync(dir, { withFileTypes: true }).filter(
        (e) => !e.name.startsWith('.') && (e.isDirectory() || e.isSymbolicLink()),
      );
    } catch {
      return [];
    }
  };
  const consider = (dir: string) => {
    const manifest = readManifest(dir);
    const modules = manifest && declaredModules(manifest);
    const real = modules && realpath(dir);
    if (!manifest || !modules || !real || typeof manifest.name !== 'string') return;
    found.push({ name: manifest.name, version: String(manifest.version ?? ''), dir: real, modules });
  };
  for (const entry of entries(nodeModules)) {
    const dir = join(nodeModules, entry.name);
    if (entry.name.startsWith('@')) for (const scoped of entries(dir)) consider(join(dir, scoped.name));
    else consider(dir);
  }
  scanned.set(nodeModules, found);
  return found;
}

/** Every node_modules directory searched, in order: the experiment's, the working directory's, the runner's. */
export function searchPath(lookup: Lookup = {}): string[] {
  const dirs = [
    ...(lookup.experimentDir ? nodeModulesChain(lookup.experimentDir) : []),
    ...nodeModulesChain(lookup.cwd ?? process.cwd()),
    ...nodeModulesChain(runnerHome()),
  ];
  return [...new Set(dirs)];
}

/**
 * The installed providers, each package once (the first found wins), and which provides each
 * module (canonical name; the first package in search order that declares it wins). In the
 * bundled command its own activity packages come first: a copy in node_modules would bring a
 * second @chaoskit/core, with a ledger, clients and rollback context of its own (D149).
 */
export function findProviders(lookup: Lookup = {}): {
  providers: Provider[];
  byModule: Map<string, Provider>;
} {
  const home = runnerHome();
  const providers: Provider[] = BUNDLED.map((p) => ({ ...p, dir: home }));
  const names = new Set(providers.map((p) => p.name));
  for (const dir of searchPath(lookup)) {
    for (const provider of scan(dir)) {
      if (names.has(provider.name)) continue;
      names.add(provider.name);
      providers.push(provider);
    }
  }
  const byModule = new Map<string, Provider>();
  for (const provider of providers) {
    for (const module of provider.modules) {
      const canonical = canonicalModule(module);
      if (!byModule.has(canonical)) byModule.set(canonical, provider);
    }
  }
  return { providers, byModule };
}

/** The file a package's "." resolves to for `import` (its exports, else main, else index.js). */
function entryPoint(provider: Provider): string {
  const manifest = JSON.parse(readFileSync(join(provider.dir, 'package.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  let target: string | undefined;
  try {
    target = (entryExports(manifest, '.') as string[] | undefined)?.[0];
  } catch {
    // No "exports" field (or no "." in it): the legacy fields decide.
  }
  target ??= (legacyEntry(manifest, { browser: false }) as string | undefined) ?? 'index.js';
  return join(provider.dir, target);
}

const loaded = new Map<string, Promise<LoadedProvider>>();

/**
 * Imports a provider and registers its activities and aliases (once per package and directory).
 * Everything it defines must be in a module it declares: the runner finds modules by the
 * declarations alone.
 */
export function loadProvider(provider: Provider): Promise<LoadedProvider> {
  const key = `${provider.name} ${provider.dir}`;
  let promise = loaded.get(key);
  if (!promise) {
    promise = (async () => {
      const mod = provider.load
        ? await provider.load()
        : await importModule(pathToFileURL(entryPoint(provider)).href);
      const activities = Array.isArray(mod.activities)
        ? (mod.activities as unknown[]).filter(isActivity)
        : [...activitiesIn(mod)];
      const aliases = Array.isArray(mod.aliases) ? (mod.aliases as unknown[]).filter(isAlias) : [];
      const declared = new Set(provider.modules.map(canonicalModule));
      const stray = [...activities, ...aliases].find((a) => !declared.has(canonicalModule(a.module)));
      if (stray) {
        throw new Error(
          `${provider.name} defines ${stray.qualifiedName}, but its package.json does not declare the module ${stray.module} ("chaoskit": { "modules": [...] })`,
        );
      }
      registry.register(...activities).alias(...aliases);
      return { ...provider, activities, aliases };
    })();
    promise.catch(() => loaded.delete(key));
    loaded.set(key, promise);
  }
  return promise;
}

/**
 * The known modules, for messages: those of installed packages, and chaoskit's own, spelled as
 * the experiment spells its modules (`chaosk8s.…` for one that wrote `chaosk8s.…`).
 */
function knownModules(byModule: Map<string, Provider>, given: string): string[] {
  const all = new Set([...byModule.keys(), ...Object.values(CHAOSKIT_PACKAGES).flat()]);
  return [...all].map((m) => spelledAs(m, given)).sort();
}

// chaostoolkit-kubernetes's Chaos Mesh modules (`chaosk8s.chaosmesh.…`), which drive Chaos Mesh's
// own resources, are not chaoskit's `chaosmesh.fault.…`, which is chaostoolkit-istio's faults.
const CHAOS_MESH = /^chaoscluster\.chaosmesh(\.|$)/;

/** Why no installed package provides `module`, with what it most likely was meant to be. */
function noProvider(module: string, byModule: Map<string, Provider>): string {
  const known = knownModules(byModule, module);
  const meant = suggest(module, known);
  const chaosMesh = CHAOS_MESH.test(canonicalModule(module))
    ? ": chaostoolkit-kubernetes's Chaos Mesh activities, which chaoskit does not provide (its chaosmesh.fault.* modules are chaostoolkit-istio's Istio faults, not Chaos Mesh)"
    : meant
      ? `: did you mean '${meant}'?`
      : '';
  return `is provided by no installed package${chaosMesh} (known: ${known.join(', ')}). Install the npm package that provides it, next to the experiment or in the working directory: its package.json declares the module in "chaoskit": { "modules": [...] } (chaoskit explain D79)`;
}

/**
 * The activity an experiment names by `module` and `func` (chaosk8s.* and chaosistio.* module
 * names are accepted as aliases). Throws an Error whose message completes "module X …".
 */
export async function resolveActivity(
  module: string,
  func: string,
  lookup: Lookup = {},
): Promise<AnyActivity> {
  const canonical = canonicalModule(module);
  // Built into the runner (D129).
  if (canonical === PROMETHEUS_MODULE) {
    if (func === prometheusQueryActivity.name) return prometheusQueryActivity;
    throw new Error(`has no function '${func}' (it has: ${prometheusQueryActivity.name})`);
  }
  const { byModule } = findProviders(lookup);
  const provider = byModule.get(canonical);
  if (!provider) {
    const ours = chaoskitPackageOf(canonical);
    if (ours) throw new Error(`is provided by ${ours}, which is not installed: run \`npm install ${ours}\``);
    throw new Error(noProvider(module, byModule));
  }
  await loadProvider(provider);
  const activity = registry.get(module, func);
  if (!activity) {
    const offered = registry.names(canonical);
    const meant = suggest(func, offered);
    throw new Error(
      offered.length
        ? `has no function '${func}'${meant ? `: did you mean '${meant}'?` : ''} (it has: ${offered.join(', ')})`
        : `has no function '${func}' (${provider.name} provides no activity in this module yet)`,
    );
  }
  return activity;
}

export interface Installed {
  /** Every activity of the installed packages, by qualified name. */
  activities: AnyActivity[];
  /** Every alias they declare, by qualified name. */
  aliases: ActivityAlias[];
  /** The installed packages that provide modules, with what each registered. */
  packages: LoadedProvider[];
  /** chaoskit's activity packages that are not installed. */
  missing: string[];
  /** Packages that could not be loaded, and why. */
  problems: Array<{ package: string; problem: string }>;
}

/** Every installed package that provides modules, loaded. */
export async function installedActivities(lookup: Lookup = {}): Promise<Installed> {
  const { providers } = findProviders(lookup);
  const packages: LoadedProvider[] = [];
  const problems: Installed['problems'] = [];
  for (const provider of providers) {
    await loadProvider(provider).then(
      (done) => packages.push(done),
      (err: Error) => problems.push({ package: provider.name, problem: err.message }),
    );
  }
  const names = new Set(providers.map((p) => p.name));
  const byName = (a: { qualifiedName: string }, b: { qualifiedName: string }) =>
    a.qualifiedName < b.qualifiedName ? -1 : a.qualifiedName > b.qualifiedName ? 1 : 0;
  return {
    activities: packages.flatMap((p) => p.activities).sort(byName),
    aliases: packages.flatMap((p) => p.aliases).sort(byName),
    packages,
    missing: Object.keys(CHAOSKIT_PACKAGES).filter((name) => !names.has(name)),
    problems,
  };
}
