import type { ConformanceCase } from '../case.js';
import { CaseContext, type ClusterInfo, ScenarioSkipped } from '../case-context.js';
import type { TrafficMeasurement } from '../traffic-measurement.js';
import { apiErrorMessage } from './access.js';
import { sweep } from './sweep.js';

export interface ScenarioResult {
  name: string;
  outcome: 'passed' | 'failed' | 'skipped';
  durationMs: number;
  error?: string;
  /** Why a skipped scenario could not run on this cluster. */
  reason?: string;
  /** What real traffic did, in the scenarios that send it. */
  traffic?: TrafficMeasurement[];
}

export interface CaseResult {
  activity: string;
  kind: 'action' | 'probe';
  outcome: 'passed' | 'failed' | 'skipped';
  durationMs: number;
  reason?: string;
  scenarios: ScenarioResult[];
}

export interface RunCasesOptions {
  log?: (line: string) => void;
  signal?: AbortSignal;
  /** Why a case cannot run here (e.g. node cases without --allow-nodes), or undefined. */
  skip?: (c: ConformanceCase) => string | undefined;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000}s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Runs cases one after the other, each in its own namespaces; everything is swept after each. */
export async function runCases(
  cluster: ClusterInfo,
  cases: readonly ConformanceCase[],
  options: RunCasesOptions = {},
): Promise<CaseResult[]> {
  const log = options.log ?? (() => {});
  const results: CaseResult[] = [];
  for (const c of cases) {
    const started = Date.now();
    const result: CaseResult = {
      activity: c.activity.qualifiedName,
      kind: c.activity.kind,
      outcome: 'passed',
      durationMs: 0,
      scenarios: [],
    };
    results.push(result);
    const reason = options.skip?.(c) ?? (options.signal?.aborted ? 'the run was interrupted' : undefined);
    if (reason) {
      result.outcome = 'skipped';
      result.reason = reason;
      log(`- ${result.activity}: skipped`);
      continue;
    }
    let t: CaseContext | undefined;
    try {
      t = await CaseContext.create(cluster, c);
      for (const s of c.scenarios) {
        if (options.signal?.aborted) break;
        const began = Date.now();
        try {
          await t.beginScenario();
          await withTimeout(s.run(t), s.timeoutMs ?? 60_000, `scenario '${s.name}'`);
          result.scenarios.push({ name: s.name, outcome: 'passed', durationMs: Date.now() - began });
        } catch (err) {
          const durationMs = Date.now() - began;
          if (err instanceof ScenarioSkipped) {
            result.scenarios.push({ name: s.name, outcome: 'skipped', durationMs, reason: err.message });
          } else {
            result.outcome = 'failed';
            const error = apiErrorMessage(err) ?? (err as Error).message ?? String(err);
            result.scenarios.push({ name: s.name, outcome: 'failed', durationMs, error });
          }
        }
        if (t.traffic.length) result.scenarios.at(-1)!.traffic = t.traffic;
      }
      // A case whose every scenario was skipped did not run at all here.
      if (result.scenarios.length > 0 && result.scenarios.every((x) => x.outcome === 'skipped')) {
        result.outcome = 'skipped';
        result.reason = result.scenarios[0]!.reason;
      }
    } catch (err) {
      result.outcome = 'failed';
      result.reason = `setting up the case failed: ${apiErrorMessage(err) ?? (err as Error).message}`;
    } finally {
      await t?.dispose();
      if (t) await sweep(cluster.kc, { caseId: t.id }).catch(() => undefined);
    }
    result.durationMs = Date.now() - started;
    const passed = result.scenarios.filter((s) => s.outcome === 'passed').length;
    const skipped = result.scenarios.filter((s) => s.outcome === 'skipped').length;
    const mark = { passed: '✓', failed: '✗', skipped: '-' }[result.outcome];
    // Why scenarios were skipped is said once, at the end of the run (one reason often skips
    // the scenarios of many cases).
    log(
      `${mark} ${result.activity}: ${passed}/${c.scenarios.length} scenarios${skipped ? ` (${skipped} skipped)` : ''} (${(result.durationMs / 1000).toFixed(1)}s)`,
    );
    for (const s of result.scenarios) if (s.outcome === 'failed') log(`    ✗ ${s.name}: ${s.error}`);
  }
  return results;
}
