// The report as Markdown (for a pull request, a wiki, a chat): the same content as the HTML
// page in tables, without charts. Journal text is user text: `md` makes it literal, so a name
// cannot open a link, a table cell or an HTML tag.
import {
  brief,
  type Comparison,
  formatSeconds,
  PHASE_TITLE,
  phaseName,
  type ReportModel,
  type RunReport,
  steadyWord,
} from './model.js';

/**
 * Literal text in a Markdown line or table cell: no emphasis, link, code, table cell, HTML tag
 * or entity, and, at the start of a line, no heading, list or quote.
 */
export function md(value: unknown): string {
  return String(value)
    .replace(/\r?\n/g, ' ')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replace(/[\\`*_[\]|~]/g, '\\$&')
    .replace(/^(\s*)([#+=-])/, '$1\\$2')
    .replace(/^(\s*\d+)([.)])/, '$1\\$2');
}

const table = (head: string[], rows: string[][]): string =>
  [
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');

function statusOf(run: RunReport): string {
  return `**${md(run.status)}**${run.deviated ? ', **deviated**' : ''}`;
}

function runSection(run: RunReport): string {
  const out: string[] = [`## ${md(run.title)}`, ''];
  if (run.description) out.push(md(run.description), '');
  const facts = [
    `- status: ${statusOf(run)}`,
    `- steady state before: ${steadyWord(run.steadyState.before)}, after: ${steadyWord(run.steadyState.after)}${
      run.steadyState.during.rounds
        ? `, during the method: ${run.steadyState.during.met} of ${run.steadyState.during.rounds} rounds met`
        : ''
    }`,
    `- duration: ${formatSeconds(run.duration)} (started ${md(run.start ?? '–')}, ended ${md(run.end ?? '–')})`,
    `- journal: ${md(run.source)}, by ${md(run.producer)}${run.runId ? `, run id ${md(run.runId)}` : ''}`,
  ];
  out.push(...facts, '', '### Timeline', '');
  out.push(
    run.activities.length
      ? table(
          ['#', 'phase', 'activity', 'type', 'start', 'duration', 'status', 'error'],
          run.activities.map((a, i) => [
            String(i + 1),
            md(phaseName(a)),
            md(a.name),
            md(a.type),
            a.offset === undefined ? '–' : `+${a.offset.toFixed(3)} s`,
            formatSeconds(a.duration),
            md(a.status),
            a.error ? md(brief(a.error, 200)) : '',
          ]),
        )
      : 'No activity ran.',
  );
  const probes = run.activities.filter(
    (a) => a.phase === 'before' || a.phase === 'during' || a.phase === 'after',
  );
  out.push('', `### Steady-state hypothesis${run.hypothesisTitle ? `: ${md(run.hypothesisTitle)}` : ''}`, '');
  out.push(
    probes.length
      ? table(
          ['phase', 'probe', 'value', 'tolerance', 'tolerance met'],
          probes.map((p) => [
            md(phaseName(p)),
            md(p.name),
            md(
              p.target
                ? `${p.target.name}: ${brief(JSON.stringify(p.target.value) ?? '', 120)}`
                : brief(p.output, 120),
            ),
            p.tolerance === undefined ? '–' : md(brief(p.tolerance, 120)),
            p.toleranceMet === undefined ? md(p.status) : p.toleranceMet ? 'met' : '**not met**',
          ]),
        )
      : 'No steady-state probe ran.',
  );
  out.push('', '### What the actions touched', '');
  const actions = run.activities.filter((a) => a.phase === 'method' || a.phase === 'rollbacks');
  if (actions.length === 0) out.push('No action ran.');
  for (const a of actions) {
    out.push(
      `- **${md(a.name)}** (${md(PHASE_TITLE[a.phase])}, ${md(a.type)}, ${md(a.status)}, ${formatSeconds(a.duration)})${
        a.provider ? `: ${md(a.provider)}` : ''
      }`,
    );
    for (const line of a.logs) out.push(`  - ${md(line)}`);
    out.push(`  - output: ${md(brief(a.output, 300))}`);
    if (a.error) out.push(`  - error: ${md(brief(a.error, 300))}`);
  }
  if (run.leftInPlace.length) {
    out.push(
      '',
      `**Still in place when the run ended**${run.runId ? ` (chaoskit revert ${md(run.runId)} undoes them)` : ''}:`,
      '',
      ...run.leftInPlace.map((l) => `- ${md(l)}`),
    );
  }
  return out.join('\n');
}

function comparisonSection({ runs, rows }: Comparison): string {
  return [
    `## Comparison of ${runs.length} runs`,
    '',
    table(
      ['journal', 'experiment', 'status', 'deviated', 'steady state before', 'after', 'duration', 'failed'],
      runs.map((r) => [
        md(r.label),
        md(r.title),
        md(r.status),
        r.deviated ? '**yes**' : 'no',
        steadyWord(r.steadyState.before),
        steadyWord(r.steadyState.after),
        formatSeconds(r.duration),
        String(r.activities.filter((a) => a.status === 'failed').length),
      ]),
    ),
    '',
    '### Durations side by side',
    '',
    table(
      ['phase', 'activity', ...runs.map((r) => md(r.label))],
      [
        ['', 'whole run', ...runs.map((r) => `${formatSeconds(r.duration)} ${md(r.outcome)}`)],
        ...rows.map((row) => [
          md(PHASE_TITLE[row.phase]),
          md(row.name),
          ...row.cells.map((c) => (c ? `${formatSeconds(c.duration)} ${md(c.status)}` : '–')),
        ]),
      ],
    ),
  ].join('\n');
}

export function renderMarkdown(model: ReportModel, generator: string, title?: string): string {
  const [first] = model.runs;
  const heading =
    title !== undefined
      ? md(title)
      : model.runs.length === 1 && first
        ? `Chaos report: ${md(first.title)}`
        : `Chaos report: ${model.runs.length} runs`;
  const parts = [
    `# ${heading}`,
    `From ${model.runs.map((r) => md(r.source)).join(', ')}, by ${md(generator)}.`,
    ...(model.comparison ? [comparisonSection(model.comparison)] : []),
    ...model.runs.map(runSection),
  ];
  return `${parts.join('\n\n')}\n`;
}
