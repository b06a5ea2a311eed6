import type { ConformanceCase } from '../case.js';
import { CaseContext, type ClusterInfo } from '../case-context.js';
import { sweep } from './sweep.js';

export interface ScenarioResult {
  name: string;
  outcome: 'passed' | 'failed' | 'skipped';
  durationMs: number;
  error?: string;
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
      log(`- ${result.activity}: skipped (${reason})`);
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
          result.outcome = 'failed';
          result.scenarios.push({
            name: s.name,
            outcome: 'failed',
            durationMs: Date.now() - began,
            error: (err as Error).message ?? String(err),
          });
        }
      }
    } catch (err) {
      result.outcome = 'failed';
      result.reason = `setting up the case failed: ${(err as Error).message}`;
    } finally {
      await t?.dispose();
      if (t) await sweep(cluster.kc, { caseId: t.id }).catch(() => undefined);
    }
    result.durationMs = Date.now() - started;
    const passed = result.scenarios.filter((s) => s.outcome === 'passed').length;
    log(
      `${result.outcome === 'passed' ? '✓' : '✗'} ${result.activity}: ${passed}/${c.scenarios.length} scenarios (${(result.durationMs / 1000).toFixed(1)}s)`,
    );
    for (const s of result.scenarios.filter((x) => x.outcome === 'failed'))
      log(`    ✗ ${s.name}: ${s.error}`);
  }
  return results;
}
