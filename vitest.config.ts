import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/longest-first.js';

// Tests import sibling packages from source, so `vitest` needs no build step.
const packagesDir = fileURLToPath(new URL('./packages', import.meta.url));
const alias = {
  // Test-only helpers of the cluster package (not part of its published API).
  '@chaoskit/cluster/testing': `${packagesDir}/cluster/src/testing.ts`,
  '@chaoskit/cluster/observability': `${packagesDir}/cluster/src/observability.ts`,
  // What only the runner needs of core.
  '@chaoskit/core/runner': `${packagesDir}/core/src/runner.ts`,
  ...Object.fromEntries(
    readdirSync(packagesDir).map((dir) => [`@chaoskit/${dir}`, `${packagesDir}/${dir}/src/index.ts`]),
  ),
};

// Every project shares one pool of workers, so the unit, repo and packaging files run beside the
// cluster files, filling the workers a cluster file leaves idle. Vitest runs projects of
// different maxWorkers one after the other, and a project left at its default (cores - 1 = 1 on
// a 2-core machine) after every other, one file at a time: on CI that was a serial tail of
// minutes. Four workers, on 2 cores: the cluster files mostly wait on their clusters (D153). A
// fresh clone's `.ci/run` beside `stress-ng --cpu 1` took 1314 s with two, 1110 s with three,
// 879, 885 and 865 s with four, every test passing.
const maxWorkers = 4;

export default defineConfig({
  resolve: { alias },
  test: {
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts'],
          exclude: ['packages/*/src/**/*.cluster.test.ts', '**/node_modules/**'],
          // A timeout bounds a hang; it is not a speed check. Tests that load every activity
          // package and case transform hundreds of files, which on a shared, loaded CI machine
          // takes longer than vitest's 5 s default (coverage.test.ts timed out at load 37).
          testTimeout: 60_000,
          maxWorkers,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'cluster',
          // One disposable local cluster serves every file; files that need a cluster of
          // their own start one.
          include: ['packages/*/src/**/*.cluster.test.ts'],
          globalSetup: ['packages/cluster/src/vitest-global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
          maxWorkers,
        },
      },
      {
        test: {
          name: 'repo',
          // Checks of the repository as a whole (e.g. that it points at nothing outside it).
          include: ['test/*.test.ts'],
          testTimeout: 60_000,
          maxWorkers,
        },
      },
      {
        // What users install: manifests, tarballs, declaration files. Built packages, no aliases
        // (the global setup runs the build; turbo's cache makes it quick when nothing changed).
        test: {
          name: 'packaging',
          include: ['test/packaging/**/*.test.ts'],
          globalSetup: ['test/packaging/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
          maxWorkers,
        },
      },
    ],
  },
});
