// How the runner finds the package of a module: package.json declarations, in the experiment's
// directory, then the working directory, then its own install; only the package named is loaded.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CHAOSKIT_PACKAGES, chaoskitPackageOf } from '../package/known-packages.js';
import { declaredModules, findProviders, resolveActivity, searchPath } from './resolve-activity.js';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'chaoskit-resolve-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A project directory with @chaoskit/core linked in, as npm would install it. */
function project(name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'node_modules', '@chaoskit'), { recursive: true });
  symlinkSync(join(repo, 'packages', 'core'), join(dir, 'node_modules', '@chaoskit', 'core'), 'dir');
  return dir;
}

/** An installed package declaring `modules`, whose entry point is `code`. */
function install(dir: string, name: string, modules: string[], code: string, manifest: object = {}): void {
  const pkg = join(dir, 'node_modules', name);
  mkdirSync(pkg, { recursive: true });
  writeFileSync(
    join(pkg, 'package.json'),
    JSON.stringify({
      name,
      version: '1.0.0',
      type: 'module',
      exports: './main.js',
      chaoskit: { modules },
      ...manifest,
    }),
  );
  writeFileSync(join(pkg, 'main.js'), code);
}

const probe = (module: string, name: string, returns: string) => `
import { defineActivity } from '@chaoskit/core';
export const activity = defineActivity({
  name: '${name}', kind: 'probe', module: '${module}', doc: 'A test probe.', args: {}, rbac: [],
  run: () => '${returns}',
});
`;

describe('finding the package of a module', () => {
  const experiment = project('experiment');
  const cwd = project('cwd');
  install(
    experiment,
    'near-ext',
    ['near.checks.probes'],
    probe('near.checks.probes', 'which', 'the experiment one'),
  );
  install(cwd, 'near-ext', ['near.checks.probes'], probe('near.checks.probes', 'which', 'the cwd one'));
  install(cwd, 'far-ext', ['far.checks.probes'], probe('far.checks.probes', 'which', 'the cwd one'));
  // Loading this one fails: it proves that only the package of a module named is imported.
  install(cwd, 'never-loaded', ['never.checks.probes'], "throw new Error('never-loaded was imported');");
  install(cwd, 'stray-ext', ['stray.checks.probes'], probe('stray.other.probes', 'which', 'stray'));
  install(cwd, 'not-an-extension', [], 'export const x = 1;', { chaoskit: { modules: ['Not A Module'] } });

  it('looks in the experiment directory, then the working directory, then its own install', () => {
    const path = searchPath({ experimentDir: experiment, cwd });
    expect(path.indexOf(join(experiment, 'node_modules'))).toBe(0);
    expect(path.indexOf(join(cwd, 'node_modules'))).toBeGreaterThan(0);
    expect(path.indexOf(join(repo, 'node_modules'))).toBeGreaterThan(path.indexOf(join(cwd, 'node_modules')));
  });

  it('reads the modules from package.json files: the first package found wins', () => {
    const { byModule, providers } = findProviders({ experimentDir: experiment, cwd });
    expect(byModule.get('near.checks.probes')?.dir).toBe(join(experiment, 'node_modules', 'near-ext'));
    expect(byModule.get('far.checks.probes')?.dir).toBe(join(cwd, 'node_modules', 'far-ext'));
    // chaoskit's own packages, from the runner's install.
    expect(byModule.get('chaoscluster.pod.probes')?.name).toBe('@chaoskit/chaoscluster-pod');
    expect(providers.map((p) => p.name)).not.toContain('not-an-extension');
    expect(providers.filter((p) => p.name === 'near-ext')).toHaveLength(1);
  });

  it('imports only the package of the module named, and runs its activity', async () => {
    const near = await resolveActivity('near.checks.probes', 'which', { experimentDir: experiment, cwd });
    expect(await near.call({})).toBe('the experiment one');
    const far = await resolveActivity('far.checks.probes', 'which', { experimentDir: experiment, cwd });
    expect(await far.call({})).toBe('the cwd one');
    await expect(resolveActivity('never.checks.probes', 'which', { cwd })).rejects.toThrow(
      'never-loaded was imported',
    );
  });

  it('refuses a package that defines an activity in a module it does not declare', async () => {
    await expect(resolveActivity('stray.checks.probes', 'which', { cwd })).rejects.toThrow(
      'stray-ext defines stray.other.probes.which, but its package.json does not declare the module stray.other.probes',
    );
  });

  it('says which package to install, or that none provides the module, listing the known ones', async () => {
    await expect(resolveActivity('nobody.checks.probes', 'which', { cwd })).rejects.toThrow(
      /^is provided by no installed package(: did you mean '[a-z.]+'\?)? \(known: chaoscluster\.actions, .*far\.checks\.probes, .*\)\. Install the npm package that provides it, next to the experiment or in the working directory: its package\.json declares the module in "chaoskit": \{ "modules": \[\.\.\.\] \}/,
    );
    expect(chaoskitPackageOf('chaoscluster.statefulset.probes')).toBe('@chaoskit/chaoscluster-statefulset');
  });

  it('names the functions a module has, aliases included', async () => {
    await expect(resolveActivity('chaosk8s.deployment.probes', 'nope', { cwd })).rejects.toThrow(
      "has no function 'nope' (it has: deployment_available_and_healthy, deployment_fully_available, deployment_not_fully_available, read_pod_logs)",
    );
  });

  it('says what a typo was meant to be, in the spelling the experiment uses', async () => {
    await expect(resolveActivity('chaosk8s.pod.probes', 'count_podz', { cwd })).rejects.toThrow(
      /^has no function 'count_podz': did you mean 'count_pods'\? \(it has: /,
    );
    // Written as chaostoolkit-kubernetes names its modules: suggested and listed so.
    const typo = await resolveActivity('chaosk8s.pod.probez', 'count_pods', { cwd }).catch((e: Error) => e);
    expect((typo as Error).message).toMatch(
      /^is provided by no installed package: did you mean 'chaosk8s\.pod\.probes'\? \(known: chaosk8s\.actions, /,
    );
    expect((typo as Error).message).not.toContain('chaoscluster.');
    // chaostoolkit-kubernetes's Chaos Mesh modules are not chaoskit's Istio faults.
    await expect(
      resolveActivity('chaosk8s.chaosmesh.network.actions', 'add_network_delay', { cwd }),
    ).rejects.toThrow(
      /Chaos Mesh activities, which chaoskit does not provide \(its chaosmesh\.fault\.\* modules are chaostoolkit-istio's Istio faults/,
    );
  });
});

describe('declarations', () => {
  it('keep only dotted module names', () => {
    expect(declaredModules({ chaoskit: { modules: ['a.b', 'A.B', 3, 'c'] } })).toEqual(['a.b']);
    expect(declaredModules({ chaoskit: {} })).toBeUndefined();
    expect(declaredModules({})).toBeUndefined();
  });

  it("of chaoskit's own packages are the ones the runner names when a package is missing", () => {
    const declared: Record<string, string[]> = {};
    for (const dir of readdirSync(join(repo, 'packages'))) {
      const manifest = JSON.parse(readFileSync(join(repo, 'packages', dir, 'package.json'), 'utf8'));
      const modules = declaredModules(manifest);
      if (modules) declared[manifest.name] = modules;
    }
    expect(declared).toEqual(CHAOSKIT_PACKAGES);
  });
});
