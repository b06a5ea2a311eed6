import { afterAll, beforeAll, describe, it } from 'vitest';
import type { ConformanceCase } from './case.js';
import { CaseContext, type ClusterInfo, ScenarioSkipped } from './case-context.js';

/**
 * Runs conformance cases under vitest: one describe per activity, one test per scenario. A
 * scenario that cannot run on this cluster (ScenarioSkipped) is reported skipped, with its
 * reason as the note.
 */
export function describeCases(cluster: ClusterInfo, cases: readonly ConformanceCase[]): void {
  for (const c of cases) {
    describe(c.activity.qualifiedName, () => {
      let t: CaseContext;
      beforeAll(async () => {
        t = await CaseContext.create(cluster, c, (line) => console.log(line));
      });
      afterAll(async () => {
        await t?.dispose();
      });
      for (const s of c.scenarios) {
        it(
          s.name,
          async (ctx) => {
            await t.beginScenario();
            try {
              await s.run(t);
            } catch (err) {
              if (err instanceof ScenarioSkipped) ctx.skip(err.message);
              throw err;
            }
          },
          s.timeoutMs ?? 60_000,
        );
      }
    });
  }
}
