// A journal kept in the cluster fits in its ConfigMap (at most 1 MiB of data): over the bound,
// it keeps its whole structure — every phase, activity, status and time — with the outputs,
// logs and exceptions cut to a length that fits, and says so (`truncated`). The journal file
// of the run keeps them whole.

/** The bytes a journal kept in the cluster may take: under a ConfigMap's 1 MiB, with room for its metadata. */
export const JOURNAL_BOUND_BYTES = 900 * 1024;

/** The lengths (characters of JSON) tried for each output, log and exception, longest first. */
const CAPS = [16_384, 4096, 1024, 256, 64];
/** The hypothesis checks during the method kept, first and last, when nothing else makes it fit. */
const DURING_KEPT = 20;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** What a journal over the bound says of itself. */
export interface Truncation {
  /** The bytes of the whole journal. */
  bytes: number;
  bound: number;
  /** Outputs, logs and exceptions longer than this (characters of JSON) were cut. */
  cut_to: number;
  /** Hypothesis checks during the method left out (only the first and last kept). */
  during_left_out?: number;
  note: string;
}

/** A value as at most `cap` characters of its JSON, saying how long it was. */
function cut(value: unknown, cap: number): unknown {
  const json = JSON.stringify(value) ?? 'null';
  if (json.length <= cap) return value;
  return `${json.slice(0, cap)}… [truncated: ${json.length} characters]`;
}

/** Lines (logs, an exception's) kept while they fit in `cap` characters, then how many were left out. */
function cutLines(lines: unknown, cap: number): unknown {
  if (!Array.isArray(lines)) return lines;
  const kept: unknown[] = [];
  let used = 0;
  for (const [i, line] of lines.entries()) {
    const text = typeof line === 'string' ? line : JSON.stringify(line);
    if (used + text.length > cap) {
      kept.push(`${text.slice(0, Math.max(0, cap - used))}… [truncated: ${lines.length - i} more line(s)]`);
      return kept;
    }
    kept.push(line);
    used += text.length;
  }
  return kept;
}

function cutRun(run: unknown, cap: number): unknown {
  if (!isObj(run)) return run;
  return {
    ...run,
    ...('output' in run ? { output: cut(run.output, cap) } : {}),
    ...('logs' in run ? { logs: cutLines(run.logs, cap) } : {}),
    ...('exception' in run ? { exception: cutLines(run.exception, cap) } : {}),
  };
}

function cutState(state: unknown, cap: number): unknown {
  if (!isObj(state) || !Array.isArray(state.probes)) return state;
  return { ...state, probes: state.probes.map((p) => cutRun(p, cap)) };
}

function cutJournal(journal: Obj, cap: number, keepDuring: boolean): { journal: Obj; leftOut: number } {
  const states = isObj(journal.steady_states) ? journal.steady_states : {};
  let during = Array.isArray(states.during) ? states.during : [];
  let leftOut = 0;
  if (!keepDuring && during.length > 2 * DURING_KEPT) {
    leftOut = during.length - 2 * DURING_KEPT;
    during = [...during.slice(0, DURING_KEPT), ...during.slice(-DURING_KEPT)];
  }
  const runs = (list: unknown) => (Array.isArray(list) ? list.map((r) => cutRun(r, cap)) : list);
  return {
    journal: {
      ...journal,
      steady_states: {
        ...states,
        before: cutState(states.before, cap),
        after: cutState(states.after, cap),
        during: during.map((s) => cutState(s, cap)),
      },
      run: runs(journal.run),
      rollbacks: runs(journal.rollbacks),
    },
    leftOut,
  };
}

/**
 * The journal's text (JSON) as kept in the cluster: as it is when it fits in `bound` bytes;
 * otherwise cut as little as makes it fit, with `truncated` saying what was cut. Throws when
 * even the shortest cut does not fit (an experiment over the bound by itself).
 */
export function boundedJournal(
  text: string,
  bound = JOURNAL_BOUND_BYTES,
): { text: string; truncation?: Truncation } {
  const size = bytes(text);
  if (size <= bound) return { text };
  const journal = JSON.parse(text) as Obj;
  for (const keepDuring of [true, false])
    for (const cap of CAPS) {
      const { journal: cutOne, leftOut } = cutJournal(journal, cap, keepDuring);
      const truncation: Truncation = {
        bytes: size,
        bound,
        cut_to: cap,
        ...(leftOut ? { during_left_out: leftOut } : {}),
        note: `this journal (${size} bytes) is over the ${bound} bytes kept in the cluster: outputs, logs and exceptions over ${cap} characters are cut${leftOut ? `, and ${leftOut} hypothesis checks during the method left out` : ''}; the run's --journal-path holds them whole`,
      };
      const bounded = `${JSON.stringify({ ...cutOne, truncated: truncation })}\n`;
      if (bytes(bounded) <= bound) return { text: bounded, truncation };
    }
  throw new Error(
    `the journal (${size} bytes) does not fit in the ${bound} bytes kept in the cluster even with its outputs, logs and exceptions cut to ${CAPS.at(-1)} characters: the experiment itself is too large`,
  );
}
