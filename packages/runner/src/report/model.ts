// What `chaoskit report` shows, computed from journals alone: chaoskit's and Chaos Toolkit's
// (chaostoolkit-lib's format, which chaoskit's extends with `logs`, `run_id`, `left_in_place`).
// Pure: the renderers (HTML, Markdown) and the charts take this model and nothing else.

/** Where an activity ran: the hypothesis before, during (each round) and after the method, the method, the rollbacks. */
export type Phase = 'before' | 'method' | 'during' | 'after' | 'rollbacks';

export const PHASE_TITLE: Record<Phase, string> = {
  before: 'hypothesis before',
  method: 'method',
  during: 'hypothesis during',
  after: 'hypothesis after',
  rollbacks: 'rollbacks',
};

/** The phase an activity ran in, as a report says it: `hypothesis during #2`. */
export function phaseName(a: Pick<ActivityEntry, 'phase' | 'round'>): string {
  return a.phase === 'during' ? `${PHASE_TITLE.during} #${a.round ?? '?'}` : PHASE_TITLE[a.phase];
}

/** One activity as it ran. */
export interface ActivityEntry {
  phase: Phase;
  /** The round of a hypothesis checked during the method (1, 2, …). */
  round?: number;
  name: string;
  type: string;
  /** What ran: `chaoscluster.node.actions.drain_nodes`, `process sh`, `http GET <url>`. */
  provider: string;
  /** When it started (the journal's text), and seconds after the run's start. */
  start?: string;
  offset?: number;
  /** Seconds. */
  duration: number;
  status: string;
  output: unknown;
  /** What it logged: chaoskit records the targets it touched, a random seed, its waits. */
  logs: string[];
  /** The error in one line, and the whole of what the journal says (a Python traceback). */
  error?: string;
  trace?: string[];
  /** A steady-state probe's tolerance, and whether its value met it. */
  tolerance?: unknown;
  toleranceMet?: boolean;
  /** The part of the output the tolerance judged (its `target`: `stdout`, `status`, `body`). */
  target?: { name: string; value: unknown };
}

export interface RunReport {
  /** The file as given on the command line, and a short name for tables and charts. */
  source: string;
  label: string;
  title: string;
  description?: string;
  tags: string[];
  /** `chaoskit 0.1.0` (its `chaoskit-version`), or `Chaos Toolkit (chaostoolkit-lib 1.44.0)`. */
  producer: string;
  platform?: string;
  node?: string;
  runId?: string;
  /** The journal's status; `unfinished` when it has none (a journal written while the run went on). */
  status: string;
  deviated: boolean;
  /** What one word says about the run: `deviated`, else the status. */
  outcome: string;
  start?: string;
  end?: string;
  /** Seconds. */
  duration?: number;
  hypothesisTitle?: string;
  steadyState: {
    before: boolean | null;
    after: boolean | null;
    /** The rounds checked during the method, and how many of them met the steady state. */
    during: { rounds: number; met: number };
  };
  /** Every activity, in the order it started. */
  activities: ActivityEntry[];
  /** What the run's rollbacks did not undo (chaoskit's record of changes). */
  leftInPlace: string[];
}

/** Several runs side by side. */
export interface Comparison {
  runs: RunReport[];
  /** One row per activity (phase and name; a name run twice in a phase is two rows). */
  rows: Array<{
    phase: Phase;
    name: string;
    cells: Array<{ duration: number; status: string } | undefined>;
  }>;
}

export interface ReportModel {
  runs: RunReport[];
  /** With two journals or more. */
  comparison?: Comparison;
}

/** A file that is not a journal, with what it lacks. */
export class NotAJournal extends Error {
  override name = 'NotAJournal';
}

/** Why a value is not a journal (without the file: runReport adds it). */
class Lacks extends Error {}

type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

/**
 * Seconds since the epoch of a journal's timestamp. Chaos Toolkit writes microseconds and
 * `+00:00`; its older versions wrote UTC without a zone, which JavaScript would read as local time.
 */
export function instant(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const zoned = /(?:Z|[+-]\d\d:?\d\d)$/i.test(value) || !value.includes('T') ? value : `${value}Z`;
  const ms = Date.parse(zoned);
  return Number.isNaN(ms) ? undefined : ms / 1000;
}

function describeProvider(activity: Json): string {
  const provider = isObject(activity.provider) ? activity.provider : undefined;
  if (!provider) return typeof activity.ref === 'string' ? `ref ${activity.ref}` : '';
  switch (provider.type) {
    case 'python':
      return [text(provider.module), text(provider.func)].filter(Boolean).join('.');
    case 'process':
      return `process ${text(provider.path) ?? ''}`.trim();
    case 'http': {
      const url = isObject(provider.url) ? undefined : text(provider.url);
      return `http ${text(provider.method) ?? 'GET'} ${url ?? ''}`.trim();
    }
    default:
      return text(provider.type) ?? '';
  }
}

/** The error in one line: chaoskit writes `Kind: message`; Chaos Toolkit a traceback ending with it. */
function errorLine(trace: string[]): string | undefined {
  const lines = trace.flatMap((t) => t.split('\n')).map((l) => l.trim());
  return lines.filter((l) => l !== '').at(-1);
}

function entry(record: unknown, phase: Phase, runStart: number | undefined, round?: number): ActivityEntry {
  const r = isObject(record) ? record : {};
  const activity = isObject(r.activity) ? r.activity : {};
  const start = text(r.start);
  const began = instant(start);
  const ended = instant(r.end);
  const duration =
    typeof r.duration === 'number' && Number.isFinite(r.duration)
      ? r.duration
      : began !== undefined && ended !== undefined
        ? ended - began
        : 0;
  const trace = Array.isArray(r.exception)
    ? r.exception.map(String)
    : typeof r.exception === 'string'
      ? [r.exception]
      : undefined;
  const out: ActivityEntry = {
    phase,
    name: text(activity.name) ?? text(activity.ref) ?? '(unnamed)',
    type: text(activity.type) ?? 'activity',
    provider: describeProvider(activity),
    duration: Math.max(0, duration),
    status: text(r.status) ?? 'unknown',
    output: r.output ?? null,
    logs: Array.isArray(r.logs) ? r.logs.map(String) : [],
  };
  if (round !== undefined) out.round = round;
  if (start !== undefined) out.start = start;
  if (began !== undefined && runStart !== undefined) out.offset = Math.max(0, began - runStart);
  if (trace?.length) {
    out.trace = trace;
    const line = errorLine(trace);
    if (line) out.error = line;
  }
  if ('tolerance' in activity) {
    out.tolerance = activity.tolerance;
    const target = isObject(activity.tolerance) ? activity.tolerance.target : undefined;
    if (typeof target === 'string' && isObject(out.output) && target in out.output)
      out.target = { name: target, value: out.output[target] };
  }
  if (typeof r.tolerance_met === 'boolean') out.toleranceMet = r.tolerance_met;
  return out;
}

function records(value: unknown, what: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new Lacks(`its ${what} is not a list`);
  return value;
}

function hypothesisState(value: unknown): { met: boolean | null; probes: unknown[] } {
  if (!isObject(value)) return { met: null, probes: [] };
  return {
    met: typeof value.steady_state_met === 'boolean' ? value.steady_state_met : null,
    probes: records(value.probes, 'steady state probes'),
  };
}

/** The report of one journal (already parsed). Throws NotAJournal, saying what is missing. */
export function runReport(journal: unknown, source: string): RunReport {
  try {
    return readRun(journal, source);
  } catch (err) {
    if (err instanceof Lacks)
      throw new NotAJournal(`${source}: not a journal of Chaos Toolkit or chaoskit: ${err.message}`);
    throw err;
  }
}

function readRun(journal: unknown, source: string): RunReport {
  if (!isObject(journal)) throw new Lacks('a journal is a JSON object');
  if (!Array.isArray(journal.run)) throw new Lacks("it has no 'run' list (the activities of the method)");
  if (!isObject(journal.experiment))
    throw new Lacks("it has no 'experiment' object (the experiment that ran)");
  const experiment = journal.experiment;
  const runStart = instant(journal.start);
  const states = isObject(journal.steady_states) ? journal.steady_states : {};
  const before = hypothesisState(states.before);
  const after = hypothesisState(states.after);
  const during = records(states.during, 'hypotheses during the method').map(hypothesisState);

  const activities: ActivityEntry[] = [
    ...before.probes.map((p) => entry(p, 'before', runStart)),
    ...journal.run.map((a) => entry(a, 'method', runStart)),
    ...during.flatMap((state, i) => state.probes.map((p) => entry(p, 'during', runStart, i + 1))),
    ...after.probes.map((p) => entry(p, 'after', runStart)),
    ...records(journal.rollbacks, 'rollbacks').map((a) => entry(a, 'rollbacks', runStart)),
  ];
  // In the order they started; ties (and entries without a start) keep the phases' order.
  const order = new Map(activities.map((a, i) => [a, i]));
  activities.sort(
    (a, b) =>
      (a.offset ?? Number.POSITIVE_INFINITY) - (b.offset ?? Number.POSITIVE_INFINITY) ||
      order.get(a)! - order.get(b)!,
  );

  // chaoskit's own version has its key (D95); its first journals wrote it as chaoslib-version.
  const version = text(journal['chaoslib-version']) ?? '';
  const chaoskit = text(journal['chaoskit-version']);
  const producer = chaoskit
    ? `chaoskit ${chaoskit}`
    : version.startsWith('chaoskit')
      ? version
      : `Chaos Toolkit${version ? ` (chaostoolkit-lib ${version})` : ''}`;
  const status = text(journal.status) ?? 'unfinished';
  const deviated = journal.deviated === true;
  const end = text(journal.end);
  const ended = instant(end);
  const duration =
    typeof journal.duration === 'number'
      ? journal.duration
      : runStart !== undefined && ended !== undefined
        ? ended - runStart
        : undefined;
  const hypothesis = isObject(experiment['steady-state-hypothesis'])
    ? experiment['steady-state-hypothesis']
    : {};

  const report: RunReport = {
    source,
    label: source,
    title: text(experiment.title) ?? '(untitled experiment)',
    tags: Array.isArray(experiment.tags) ? experiment.tags.map(String) : [],
    producer,
    status,
    deviated,
    outcome: deviated ? 'deviated' : status,
    steadyState: {
      before: before.met,
      after: after.met,
      during: { rounds: during.length, met: during.filter((d) => d.met === true).length },
    },
    activities,
    leftInPlace: Array.isArray(journal.left_in_place) ? journal.left_in_place.map(String) : [],
  };
  const optional = {
    description: text(experiment.description)?.trim(),
    platform: text(journal.platform),
    node: text(journal.node),
    runId: text(journal.run_id),
    start: text(journal.start),
    end,
    duration,
    hypothesisTitle: text(hypothesis.title),
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined && value !== '') Object.assign(report, { [key]: value });
  }
  return report;
}

/** Short names for tables and charts: the file names, or the paths when two file names are equal. */
function labelRuns(runs: RunReport[]): void {
  const base = (source: string) => source.split(/[\\/]/).at(-1) || source;
  const names = runs.map((r) => base(r.source));
  runs.forEach((run, i) => {
    const name = names[i]!;
    const unique = names.indexOf(name) === names.lastIndexOf(name);
    run.label = unique ? name : run.source;
  });
  const labels = runs.map((r) => r.label);
  runs.forEach((run, i) => {
    // The same path given twice.
    if (labels.indexOf(run.label) !== labels.lastIndexOf(run.label)) run.label = `${i + 1}: ${run.label}`;
  });
}

/**
 * The runs side by side: one row per activity of the hypothesis before and after, the method and
 * the rollbacks, in the order they ran (an activity one run adds goes after the one before it).
 */
export function compare(runs: RunReport[]): Comparison {
  const rows: Comparison['rows'] = [];
  for (const phase of ['before', 'method', 'after', 'rollbacks'] as const) {
    const keys: string[] = [];
    const phaseRows: Comparison['rows'] = [];
    runs.forEach((run, column) => {
      // A name run twice in a phase is two rows.
      const seen = new Map<string, number>();
      const runKeys = run.activities
        .filter((x) => x.phase === phase)
        .map((a) => {
          const nth = (seen.get(a.name) ?? 0) + 1;
          seen.set(a.name, nth);
          return { a, key: `${a.name}\0${nth}` };
        });
      let cursor: number | undefined;
      for (const [i, { a, key }] of runKeys.entries()) {
        let at = keys.indexOf(key);
        if (at === -1) {
          // Before the next activity the rows have, or at the end when there is none.
          const next = runKeys.slice(i + 1).find((k) => keys.includes(k.key));
          at = cursor ?? (next ? keys.indexOf(next.key) : keys.length);
          keys.splice(at, 0, key);
          phaseRows.splice(at, 0, { phase, name: a.name, cells: runs.map(() => undefined) });
        }
        phaseRows[at]!.cells[column] = { duration: a.duration, status: a.status };
        cursor = at + 1;
      }
    });
    rows.push(...phaseRows);
  }
  return { runs, rows };
}

/** The model of a report on these journals (parsed, redacted), each with the file it came from. */
export function reportModel(journals: Array<{ source: string; journal: unknown }>): ReportModel {
  const runs = journals.map(({ source, journal }) => runReport(journal, source));
  labelRuns(runs);
  return runs.length > 1 ? { runs, comparison: compare(runs) } : { runs };
}

/** Seconds as people read them: `17 ms`, `1.46 s`, `2 min 5 s`. */
export function formatSeconds(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return '–';
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

/** A steady state as a word: met, not met, not checked. */
export function steadyWord(met: boolean | null): string {
  return met === true ? 'met' : met === false ? 'not met' : 'not checked';
}

/** A value as compact JSON (strings as they are), cut at `max` characters. */
export function brief(value: unknown, max = 160): string {
  const s = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
