// The report as one HTML file that needs nothing else: styles inline, charts as inline SVG, no
// script, and a Content-Security-Policy that forbids loading anything. Every text of a journal
// is user text (names, outputs, logs, tracebacks) and goes through `esc`.
import { CHARTS_HINT, type Charts } from './chart-loader.js';
import { MAX_TIMELINE_ROWS, STATUS_COLOR } from './chart-style.js';
import {
  brief,
  type Comparison,
  formatSeconds,
  instant,
  PHASE_TITLE,
  phaseName,
  type ReportModel,
  type RunReport,
  steadyWord,
} from './model.js';

/** How much of one output the page holds; a journal's outputs can be whole Kubernetes objects. */
const MAX_OUTPUT_CHARS = 20_000;

export function esc(value: unknown): string {
  return String(value)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const STYLE = `
:root { color-scheme: light; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg-soft: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); }
main { max-width: 1000px; margin: 0 auto; padding: 24px 20px 64px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 20px; margin: 40px 0 4px; padding-top: 16px; border-top: 2px solid var(--line); }
h3 { font-size: 16px; margin: 28px 0 8px; }
h4 { font-size: 14px; margin: 0 0 4px; }
.muted { color: var(--muted); }
table { border-collapse: collapse; width: 100%; margin: 8px 0; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--bg-soft); font-weight: 600; }
td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.nowrap { white-space: nowrap; }
code, pre { font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
code { background: var(--bg-soft); padding: 1px 4px; border-radius: 4px; overflow-wrap: anywhere; }
pre { background: var(--bg-soft); padding: 8px; border-radius: 6px; overflow: auto; max-height: 360px; white-space: pre-wrap; overflow-wrap: anywhere; }
figure { margin: 8px 0; }
figure svg { max-width: 100%; height: auto; }
dl.summary { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 12px 0; }
dl.summary dt { color: var(--muted); }
dl.summary dd { margin: 0; }
.status { display: inline-block; white-space: nowrap; padding: 0 8px; border-radius: 10px; font-size: 12px; font-weight: 600; color: #fff; background: ${STATUS_COLOR.skipped}; }
.status-succeeded, .status-completed, .status-met { background: ${STATUS_COLOR.succeeded}; }
.status-failed, .status-deviated, .status-aborted, .status-interrupted, .status-not-met { background: ${STATUS_COLOR.failed}; }
.touched { border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; margin: 10px 0; }
.touched ul { margin: 4px 0; padding-left: 20px; }
.warning { border-left: 4px solid ${STATUS_COLOR.failed}; padding: 4px 12px; background: #fff5f5; }
details summary { cursor: pointer; }
`;

function badge(word: string): string {
  const kind = word.toLowerCase().replace(/[^a-z]+/g, '-');
  return `<span class="status status-${esc(kind)}">${esc(word)}</span>`;
}

/** A value shown whole when short, else its first characters with the whole (bounded) below them. */
function value(output: unknown, shown: string = brief(output, 200)): string {
  const whole = typeof output === 'string' ? output : (JSON.stringify(output, null, 2) ?? String(output));
  const compact = typeof output === 'string' ? output : (JSON.stringify(output) ?? String(output));
  if (compact.length <= 200 && !compact.includes('\n') && shown === brief(output, 200))
    return `<code>${esc(compact)}</code>`;
  const cut =
    whole.length > MAX_OUTPUT_CHARS
      ? `${whole.slice(0, MAX_OUTPUT_CHARS)}\n… ${whole.length - MAX_OUTPUT_CHARS} more characters not shown`
      : whole;
  return `<details><summary><code>${esc(shown)}</code></summary><pre>${esc(cut)}</pre></details>`;
}

/** A journal's timestamp to the second, in UTC (HTML: the date and the time each kept whole). */
function shortTime(value: string | undefined): string {
  const seconds = instant(value);
  if (seconds === undefined) return esc(value ?? '–');
  const [date, time] = new Date(seconds * 1000).toISOString().slice(0, 19).split('T');
  return `<span class="nowrap">${date}</span> <span class="nowrap">${time} UTC</span>`;
}

/** Chaos Toolkit's traceback lines end with a newline; chaoskit's one-line errors do not. */
const traceText = (trace: string[]) => trace.map((t) => (t.endsWith('\n') ? t : `${t}\n`)).join('');

function summary(run: RunReport): string {
  const items: Array<[string, string]> = [
    ['status', `${badge(run.status)}${run.deviated ? ` ${badge('deviated')}` : ''}`],
    [
      'steady state',
      `before: ${badge(steadyWord(run.steadyState.before))} · after: ${badge(steadyWord(run.steadyState.after))}${
        run.steadyState.during.rounds
          ? ` · during the method: ${run.steadyState.during.met} of ${run.steadyState.during.rounds} rounds met`
          : ''
      }`,
    ],
    ['duration', esc(formatSeconds(run.duration))],
    ['started', esc(run.start ?? '–')],
    ['ended', esc(run.end ?? '–')],
    ['journal', `<code>${esc(run.source)}</code> · ${esc(run.producer)}`],
  ];
  if (run.runId) items.push(['run id', `<code>${esc(run.runId)}</code>`]);
  if (run.platform || run.node)
    items.push(['ran on', esc([run.node, run.platform].filter(Boolean).join(' · '))]);
  if (run.tags.length) items.push(['tags', run.tags.map((t) => `<code>${esc(t)}</code>`).join(' ')]);
  return `<dl class="summary">${items.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

/** Where a chart would be when ECharts is not installed: how to get it. */
const NO_CHARTS = `<p class="muted">No chart: ${esc(CHARTS_HINT)}.</p>`;

function timeline(run: RunReport, charts: Charts | undefined): string {
  const chart = charts?.timelineChart(run);
  const capped =
    run.activities.length > MAX_TIMELINE_ROWS
      ? `<p class="muted">The chart shows the first ${MAX_TIMELINE_ROWS} of ${run.activities.length} activities; the table lists them all.</p>`
      : '';
  const rows = run.activities
    .map(
      (a, i) => `<tr>
<td class="num">${i + 1}</td><td>${esc(phaseName(a))}</td><td>${esc(a.name)}</td><td>${esc(a.type)}</td>
<td><code>${esc(a.provider)}</code></td>
<td class="num" title="${esc(a.start ?? '')}">${a.offset === undefined ? '–' : `+${esc(a.offset.toFixed(3))} s`}</td>
<td class="num">${esc(formatSeconds(a.duration))}</td><td>${badge(a.status)}</td>
<td>${a.error ? esc(a.error) : ''}</td></tr>`,
    )
    .join('\n');
  return `<h3>Timeline</h3>
${run.activities.length === 0 ? '<p class="muted">No activity ran.</p>' : chart ? `<figure data-chart="timeline">${chart}</figure>${capped}` : NO_CHARTS}
<table class="timeline"><thead><tr><th>#</th><th>phase</th><th>activity</th><th>type</th><th>provider</th><th>start</th><th>duration</th><th>status</th><th>error</th></tr></thead>
<tbody>
${rows}
</tbody></table>`;
}

function probes(run: RunReport): string {
  const list = run.activities.filter(
    (a) => a.phase === 'before' || a.phase === 'during' || a.phase === 'after',
  );
  const title = run.hypothesisTitle ? `: ${esc(run.hypothesisTitle)}` : '';
  if (list.length === 0)
    return `<h3>Steady-state hypothesis${title}</h3><p class="muted">No steady-state probe ran.</p>`;
  const rows = list
    .map(
      (
        p,
      ) => `<tr><td>${esc(phaseName(p))}</td><td>${esc(p.name)}</td><td>${value(p.output, p.target ? `${p.target.name}: ${brief(JSON.stringify(p.target.value) ?? '', 200)}` : undefined)}${
        p.error ? `<div>${esc(p.error)}</div>` : ''
      }</td>
<td>${p.tolerance === undefined ? '–' : `<code>${esc(brief(p.tolerance, 200))}</code>`}</td>
<td>${p.toleranceMet === undefined ? badge(p.status) : badge(p.toleranceMet ? 'met' : 'not met')}</td></tr>`,
    )
    .join('\n');
  return `<h3>Steady-state hypothesis${title}</h3>
<table class="probes"><thead><tr><th>phase</th><th>probe</th><th>value</th><th>tolerance</th><th>tolerance met</th></tr></thead>
<tbody>
${rows}
</tbody></table>`;
}

function touched(run: RunReport): string {
  const list = run.activities.filter((a) => a.phase === 'method' || a.phase === 'rollbacks');
  const items = list.map(
    (a) => `<article class="touched">
<h4>${esc(a.name)} <span class="muted">${esc(PHASE_TITLE[a.phase])} · ${esc(a.type)} · ${esc(formatSeconds(a.duration))}</span> ${badge(a.status)}</h4>
${a.provider ? `<div><code>${esc(a.provider)}</code></div>` : ''}
${a.logs.length ? `<ul class="logs">${a.logs.map((l) => `<li>${esc(l)}</li>`).join('')}</ul>` : ''}
<div>output: ${value(a.output)}</div>
${a.trace ? `<details><summary>${esc(a.error ?? 'error')}</summary><pre>${esc(traceText(a.trace))}</pre></details>` : ''}
</article>`,
  );
  const left = run.leftInPlace.length
    ? `<div class="warning"><p>Still in place when the run ended (its rollbacks did not undo them)${
        run.runId ? `; <code>chaoskit revert ${esc(run.runId)}</code> undoes them` : ''
      }:</p><ul>${run.leftInPlace.map((l) => `<li>${esc(l)}</li>`).join('')}</ul></div>`
    : '';
  return `<h3>What the actions touched</h3>
${items.length ? items.join('\n') : '<p class="muted">No action ran.</p>'}
${left}`;
}

function runSection(run: RunReport, index: number, charts: Charts | undefined): string {
  return `<section class="run" id="run-${index + 1}">
<h2>${esc(run.title)}</h2>
<p class="muted"><code>${esc(run.label)}</code></p>
${run.description ? `<p>${esc(run.description)}</p>` : ''}
${summary(run)}
${timeline(run, charts)}
${probes(run)}
${touched(run)}
</section>`;
}

function comparisonSection(comparison: Comparison, charts: Charts | undefined): string {
  const { runs, rows } = comparison;
  const runRows = runs
    .map(
      (
        r,
        i,
      ) => `<tr><td class="nowrap"><a href="#run-${i + 1}"><code>${esc(r.label)}</code></a></td><td>${esc(r.title)}</td>
<td>${badge(r.status)}${r.deviated ? ` ${badge('deviated')}` : ''}</td>
<td class="nowrap">${badge(steadyWord(r.steadyState.before))} → ${badge(steadyWord(r.steadyState.after))}</td>
<td class="num">${esc(formatSeconds(r.duration))}</td><td class="num">${r.activities.length}</td>
<td class="num">${r.activities.filter((a) => a.status === 'failed').length}</td><td>${shortTime(r.start)}</td></tr>`,
    )
    .join('\n');
  const activityRows = rows
    .map(
      (row) =>
        `<tr><td>${esc(PHASE_TITLE[row.phase])}</td><td>${esc(row.name)}</td>${row.cells
          .map((c) =>
            c ? `<td class="num">${esc(formatSeconds(c.duration))} ${badge(c.status)}</td>` : '<td>–</td>',
          )
          .join('')}</tr>`,
    )
    .join('\n');
  const heads = runs.map((r) => `<th><code>${esc(r.label)}</code></th>`).join('');
  return `<section id="comparison">
<h2>Comparison of ${runs.length} runs</h2>
<table id="comparison-runs"><thead><tr><th>journal</th><th>experiment</th><th>status</th><th>steady state before → after</th><th>duration</th><th>activities</th><th>failed</th><th>started</th></tr></thead>
<tbody>
${runRows}
</tbody></table>
<h3>Durations side by side</h3>
${charts ? `<figure data-chart="comparison">${charts.comparisonChart(comparison)}</figure>` : NO_CHARTS}
<table id="comparison-activities"><thead><tr><th>phase</th><th>activity</th>${heads}</tr></thead>
<tbody>
<tr><td colspan="2">whole run</td>${runs
    .map((r) => `<td class="num">${esc(formatSeconds(r.duration))} ${badge(r.outcome)}</td>`)
    .join('')}</tr>
${activityRows}
</tbody></table>
</section>`;
}

/** The whole page; without `charts` (ECharts not installed), a line in each chart's place says how to add them. */
export function renderHtml(model: ReportModel, generator: string, charts?: Charts, title?: string): string {
  const [first] = model.runs;
  const heading =
    title ??
    (model.runs.length === 1 && first
      ? `Chaos report: ${first.title}`
      : `Chaos report: ${model.runs.length} runs`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="generator" content="${esc(generator)}">
<title>${esc(heading)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${esc(heading)}</h1>
<p class="muted">From ${model.runs.length === 1 ? 'the journal' : `${model.runs.length} journals`} ${model.runs
    .map((r) => `<code>${esc(r.source)}</code>`)
    .join(', ')}, by ${esc(generator)}.</p>
${model.comparison ? comparisonSection(model.comparison, charts) : ''}
${model.runs.map((run, i) => runSection(run, i, charts)).join('\n')}
</main>
</body>
</html>
`;
}
