import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { trafficLine } from '../traffic-measurement.js';
import type { CaseResult, ScenarioResult } from './run-cases.js';

export interface ReportInfo {
  provider: string;
  kubernetesVersion: string;
  server: string;
  started: Date;
  notes?: string[];
}

const xml = (s: string) =>
  s.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );

export function summary(results: readonly CaseResult[]) {
  const count = (o: CaseResult['outcome']) => results.filter((r) => r.outcome === o).length;
  return {
    total: results.length,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    /** Scenarios skipped inside cases that ran. */
    skippedScenarios: results.flatMap((r) => r.scenarios).filter((x) => x.outcome === 'skipped').length,
  };
}

/**
 * Everything skipped, grouped by its reason (one reason, such as a missing mesh data plane,
 * often skips the scenarios of many cases): each reason once, with what it skipped.
 */
export function skippedByReason(
  results: readonly CaseResult[],
): Array<{ reason: string; skipped: string[] }> {
  const groups = new Map<string, string[]>();
  const add = (reason: string | undefined, what: string) => {
    const key = reason ?? 'no reason given';
    groups.set(key, [...(groups.get(key) ?? []), what]);
  };
  for (const r of results) {
    if (r.outcome === 'skipped' && r.scenarios.length === 0) add(r.reason, `\`${r.activity}\``);
    for (const x of r.scenarios) if (x.outcome === 'skipped') add(x.reason, `\`${r.activity}\` — ${x.name}`);
  }
  return [...groups].map(([reason, skipped]) => ({ reason, skipped }));
}

/** The JUnit test cases of one activity: one per scenario, or one for a case that did not run. */
function testcases(r: CaseResult): Array<{ name: string; durationMs: number } & Partial<ScenarioResult>> {
  if (r.scenarios.length) return r.scenarios;
  return [
    {
      name: r.activity,
      durationMs: 0,
      ...(r.outcome === 'skipped'
        ? { outcome: 'skipped', reason: r.reason }
        : { outcome: 'failed', error: r.reason }),
    },
  ];
}

/**
 * JUnit XML: one testsuite per activity, one testcase per scenario; every count (the root's
 * too) is a count of testcases, as CI tools read it. What real traffic did goes in the
 * testcase's system-out.
 */
export function junit(results: readonly CaseResult[], info: ReportInfo): string {
  const totals = { tests: 0, failures: 0, skipped: 0 };
  const suites = results.map((r) => {
    const cases = testcases(r);
    const failures = cases.filter((c) => c.outcome === 'failed').length;
    const skipped = cases.filter((c) => c.outcome === 'skipped').length;
    totals.tests += cases.length;
    totals.failures += failures;
    totals.skipped += skipped;
    const body = cases.map((c) => {
      const inner = [
        c.outcome === 'failed' ? `<failure message="${xml(c.error ?? '')}"/>` : '',
        c.outcome === 'skipped' ? `<skipped message="${xml(c.reason ?? '')}"/>` : '',
        c.traffic?.length ? `<system-out>${xml(c.traffic.map(trafficLine).join('\n'))}</system-out>` : '',
      ].join('');
      return `    <testcase classname="${xml(r.activity)}" name="${xml(c.name)}" time="${(c.durationMs / 1000).toFixed(3)}">${inner}</testcase>`;
    });
    return `  <testsuite name="${xml(r.activity)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${(r.durationMs / 1000).toFixed(3)}">\n${body.join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="chaoskit conformance (${xml(info.provider)}, Kubernetes ${xml(info.kubernetesVersion)})" tests="${totals.tests}" failures="${totals.failures}" errors="0" skipped="${totals.skipped}">\n${suites.join('\n')}\n</testsuites>\n`;
}

/** A readable report: activity × outcome × duration × Kubernetes version, and what traffic did. */
export function markdown(results: readonly CaseResult[], info: ReportInfo): string {
  const s = summary(results);
  const lines = [
    '# chaoskit conformance report',
    '',
    `- cluster: ${info.provider} (${info.server}), Kubernetes ${info.kubernetesVersion}`,
    `- run: ${info.started.toISOString()}`,
    `- **${s.passed} of ${s.total} activities passed**, ${s.failed} failed, ${s.skipped} skipped; ${s.skippedScenarios} scenario(s) skipped in the cases that ran`,
    ...(info.notes ?? []).map((n) => `- ${n}`),
    '',
    '| activity | kind | outcome | scenarios | duration | Kubernetes |',
    '| --- | --- | --- | --- | --- | --- |',
    ...results.map((r) => {
      const passed = r.scenarios.filter((x) => x.outcome === 'passed').length;
      const skipped = r.scenarios.filter((x) => x.outcome === 'skipped').length;
      return `| \`${r.activity}\` | ${r.kind} | ${r.outcome} | ${passed}/${r.scenarios.length}${skipped ? ` (${skipped} skipped)` : ''} | ${(r.durationMs / 1000).toFixed(1)} s | ${info.kubernetesVersion} |`;
    }),
  ];
  const traffic = results.flatMap((r) =>
    r.scenarios.flatMap((x) =>
      (x.traffic ?? []).map(
        (m) =>
          `| \`${r.activity}\` | ${x.name} | ${m.what} | ${m.route} | ${m.requests} | ${(m.failedShare * 100).toFixed(1)} % | ${m.p50Ms.toFixed(1)} ms |`,
      ),
    ),
  );
  if (traffic.length)
    lines.push(
      '',
      '## Real traffic through the mesh',
      '',
      'What the requests of each traffic scenario did, measured by a client configured by istiod: before the fault (baseline) and with it, per route (`a` is the route the activity acts on, `b` one it must not touch).',
      '',
      '| activity | scenario | measured | route | requests | failed | p50 |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      ...traffic,
    );
  const failures = results.flatMap((r) => [
    ...(r.outcome === 'failed' && r.reason ? [`- \`${r.activity}\`: ${r.reason}`] : []),
    ...r.scenarios
      .filter((x) => x.outcome === 'failed')
      .map((x) => `- \`${r.activity}\` — ${x.name}: ${x.error}`),
  ]);
  if (failures.length) lines.push('', '## Failures', '', ...failures);
  const skipped = skippedByReason(results);
  if (skipped.length) {
    lines.push('', '## Skipped, and why');
    for (const group of skipped)
      lines.push('', `${group.reason}:`, '', ...group.skipped.map((x) => `- ${x}`));
  }
  return `${lines.join('\n')}\n`;
}

export async function writeReports(
  dir: string,
  results: readonly CaseResult[],
  info: ReportInfo,
): Promise<{ junit: string; markdown: string }> {
  await mkdir(dir, { recursive: true });
  const paths = { junit: join(dir, 'conformance.junit.xml'), markdown: join(dir, 'conformance.md') };
  await writeFile(paths.junit, junit(results, info));
  await writeFile(paths.markdown, markdown(results, info));
  return paths;
}
