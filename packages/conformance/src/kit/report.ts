import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CaseResult } from './run-cases.js';

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

/** Everything skipped, with its reason: whole cases and single scenarios. */
export function skippedItems(results: readonly CaseResult[]): string[] {
  return results.flatMap((r) =>
    r.outcome === 'skipped' && r.scenarios.length === 0
      ? [`\`${r.activity}\`: ${r.reason}`]
      : r.scenarios
          .filter((x) => x.outcome === 'skipped')
          .map((x) => `\`${r.activity}\` — ${x.name}: ${x.reason}`),
  );
}

/** JUnit XML: one testsuite per activity, one testcase per scenario. */
export function junit(results: readonly CaseResult[], info: ReportInfo): string {
  const s = summary(results);
  const suites = results.map((r) => {
    const cases = r.scenarios.length
      ? r.scenarios.map(
          (sc) =>
            `    <testcase classname="${xml(r.activity)}" name="${xml(sc.name)}" time="${(sc.durationMs / 1000).toFixed(3)}">${
              sc.outcome === 'failed'
                ? `<failure message="${xml(sc.error ?? '')}"/>`
                : sc.outcome === 'skipped'
                  ? `<skipped message="${xml(sc.reason ?? '')}"/>`
                  : ''
            }</testcase>`,
        )
      : [
          `    <testcase classname="${xml(r.activity)}" name="${xml(r.activity)}" time="0">${
            r.outcome === 'skipped'
              ? `<skipped message="${xml(r.reason ?? '')}"/>`
              : `<failure message="${xml(r.reason ?? '')}"/>`
          }</testcase>`,
        ];
    const failures =
      r.scenarios.filter((x) => x.outcome === 'failed').length +
      (r.scenarios.length === 0 && r.outcome === 'failed' ? 1 : 0);
    const skipped = r.scenarios.length
      ? r.scenarios.filter((x) => x.outcome === 'skipped').length
      : r.outcome === 'skipped'
        ? 1
        : 0;
    return `  <testsuite name="${xml(r.activity)}" tests="${Math.max(1, r.scenarios.length)}" failures="${failures}" skipped="${skipped}" time="${(r.durationMs / 1000).toFixed(3)}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="chaoskit conformance (${xml(info.provider)}, Kubernetes ${xml(info.kubernetesVersion)})" tests="${s.total}" failures="${s.failed}" skipped="${s.skipped}">\n${suites.join('\n')}\n</testsuites>\n`;
}

/** A readable report: activity × outcome × duration × Kubernetes version. */
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
      const outcome = r.outcome === 'skipped' ? `skipped: ${r.reason}` : r.outcome;
      return `| \`${r.activity}\` | ${r.kind} | ${outcome} | ${passed}/${r.scenarios.length}${skipped ? ` (${skipped} skipped)` : ''} | ${(r.durationMs / 1000).toFixed(1)} s | ${info.kubernetesVersion} |`;
    }),
  ];
  const failures = results.flatMap((r) => [
    ...(r.outcome === 'failed' && r.reason ? [`- \`${r.activity}\`: ${r.reason}`] : []),
    ...r.scenarios
      .filter((x) => x.outcome === 'failed')
      .map((x) => `- \`${r.activity}\` — ${x.name}: ${x.error}`),
  ]);
  if (failures.length) lines.push('', '## Failures', '', ...failures);
  const skipped = skippedItems(results);
  if (skipped.length) lines.push('', '## Skipped, and why', '', ...skipped.map((x) => `- ${x}`));
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
