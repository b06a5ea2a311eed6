import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One cluster for the run: a local one, or CHAOSKIT_CONTEXT=<a context of your kubeconfig>.
    globalSetup: ['@chaoskit/vitest/global-setup'],
    // Bounds on a hang, not speed checks: a cluster's pods take their time on a busy machine.
    testTimeout: 300_000,
    hookTimeout: 900_000,
    projects: [
      { extends: true, test: { name: 'app', include: ['tests/**/*.test.ts'] } },
      // A test that fails on purpose: its fault is reverted all the same (chaoskit's packaging
      // test runs it on a cluster it set up, and compares the objects before and after).
      { extends: true, test: { name: 'fails-on-purpose', include: ['fails-on-purpose/**/*.test.ts'] } },
    ],
  },
});
