// The order vitest hands files to its workers. A run's wall time is set by its tail: a file of
// minutes started last keeps one worker busy while the others sit idle. Vitest starts the
// longest files first only where its own cache of durations exists, which a CI machine's fresh
// checkout lacks (there it falls back to file size, and runs the projects one after the other).
// So the files that take minutes on CI are named here, longest first (per-file times of a loaded
// run, 2026-11); every other file follows in vitest's own order, the short unit files last,
// where they fill the workers the long files leave. A stale list costs time, never a result.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const LONGEST = [
  'packages/conformance/src/mesh-traffic.cluster.test.ts',
  'packages/runner/src/resilience.cluster.test.ts',
  'test/packaging/e2e.test.ts',
  'test/packaging/vitest-app.test.ts',
  'packages/runner/src/deploy/in-pod.cluster.test.ts',
  'packages/conformance/src/running.cluster.test.ts',
  'packages/runner/src/bad-experiments.cluster.test.ts',
  'packages/conformance/src/kit/kit-local.cluster.test.ts',
  'packages/conformance/src/cases-objects.cluster.test.ts',
  'packages/cluster/src/up-down.cluster.test.ts',
  'packages/runner/src/masking.cluster.test.ts',
  'packages/runner/src/extension.cluster.test.ts',
  'packages/runner/src/interruptions.cluster.test.ts',
  'packages/conformance/src/cases-workloads.cluster.test.ts',
  'packages/conformance/src/kit/kit.cluster.test.ts',
  'test/packaging/bench.test.ts',
  'packages/conformance/src/cases-traffic.cluster.test.ts',
  'packages/conformance/src/differential/differential.cluster.test.ts',
  'packages/conformance/src/differential/format.test.ts',
];

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const rank = (spec: TestSpecification) => {
      const at = LONGEST.indexOf(relative(root, spec.moduleId));
      return at === -1 ? LONGEST.length : at;
    };
    // Array.prototype.sort is stable: unlisted files keep vitest's order among themselves.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
