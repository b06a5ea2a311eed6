// The journals kept in a namespace (D116): listed from their ConfigMaps' labels and annotations
// (no journal read), and one of them read whole, by run id or the latest.

import { ConfigMaps, isApiError } from '@chaoskit/core';
import type { Transport } from '@chaoskit/core/runner';
import { missingNamespace } from '../cluster/namespace-hint.js';
import { ANNOTATIONS, EXPERIMENT_LABEL, JOURNAL_KEY, JOURNAL_LABEL, STATUS_LABEL } from './labels.js';

export interface JournalSummary {
  runId: string;
  experiment: string;
  title: string;
  /** `running` until the run ends (or if it was killed before it could say). */
  status: string;
  started: string;
  deviated: boolean;
  /** Seconds; absent until the run ends. */
  duration?: number;
  /** Kept with its outputs cut (over the bound). */
  truncated: boolean;
}

interface Listed {
  metadata: {
    name: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    creationTimestamp?: string;
  };
  data?: Record<string, string>;
}

function summaryOf({ metadata }: Listed): JournalSummary {
  const labels = metadata.labels ?? {};
  const notes = metadata.annotations ?? {};
  const duration = Number.parseFloat(notes[ANNOTATIONS.duration] ?? '');
  return {
    runId: labels[JOURNAL_LABEL] ?? '',
    experiment: labels[EXPERIMENT_LABEL] ?? '',
    title: notes[ANNOTATIONS.title] ?? '',
    status: labels[STATUS_LABEL] ?? 'running',
    started: notes[ANNOTATIONS.started] ?? metadata.creationTimestamp ?? '',
    deviated: notes[ANNOTATIONS.deviated] === 'true',
    ...(Number.isFinite(duration) ? { duration } : {}),
    truncated: notes[ANNOTATIONS.truncated] === 'true',
  };
}

// The newest first, by when the API server created each ConfigMap: the time a journal says it
// started is its writer's to say (a journal "started" in 2099 is not the latest).
const newestFirst = (a: Listed, b: Listed) =>
  (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '') ||
  b.metadata.name.localeCompare(a.metadata.name);

async function listed(kube: Transport, namespace: string, runId?: string): Promise<Listed[]> {
  const items = await kube.list<Listed>(ConfigMaps, {
    namespace,
    labelSelector: runId ? `${JOURNAL_LABEL}=${runId}` : JOURNAL_LABEL,
    metadataOnly: true,
  });
  return items.sort(newestFirst);
}

/** The journals kept in `namespace`, the latest first. */
export async function listJournals(kube: Transport, namespace: string): Promise<JournalSummary[]> {
  return (await listed(kube, namespace)).map(summaryOf);
}

/** Deeper than this, a journal is not one chaoskit wrote (and would exhaust a reader's stack). */
const MAX_DEPTH = 64;

/** How deep a JSON text nests (its brackets outside strings), without parsing it. */
function depthOf(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') deepest = Math.max(deepest, ++depth);
    else if (c === '}' || c === ']') depth--;
  }
  return deepest;
}

/**
 * The journal of run `which` (a run id, or `latest`) in `namespace`: its summary and its text,
 * checked to be JSON of a journal's depth; every problem names the ConfigMap.
 */
export async function fetchJournal(
  kube: Transport,
  namespace: string,
  which: string,
): Promise<{ summary: JournalSummary; text: string; configMap: string }> {
  const candidates =
    which === 'latest' ? (await listed(kube, namespace)).slice(0, 1) : await listed(kube, namespace, which);
  if (candidates.length === 0)
    throw new Error(
      (await missingNamespace(kube, namespace)) ??
        (which === 'latest'
          ? `no journal is kept in namespace '${namespace}' (chaoskit run --journal-to-cluster keeps them)`
          : `no journal of run '${which}' in namespace '${namespace}' (chaoskit journals -n ${namespace} lists those kept there)`),
    );
  if (candidates.length > 1)
    throw new Error(
      `${candidates.length} ConfigMaps in namespace '${namespace}' claim to hold the journal of run '${which}' (${candidates.map((c) => c.metadata.name).join(', ')}): check them with kubectl`,
    );
  const name = candidates[0]!.metadata.name;
  const where = `ConfigMap ${name} in namespace '${namespace}'`;
  let found: Listed;
  try {
    found = await kube.get<Listed>(ConfigMaps, name, namespace);
  } catch (err) {
    if (isApiError(err, 'NotFound')) throw new Error(`${where} is gone (deleted with its Job?)`);
    throw err;
  }
  const text = found.data?.[JOURNAL_KEY];
  if (text === undefined) throw new Error(`${where} holds no ${JOURNAL_KEY}`);
  const depth = depthOf(text);
  if (depth > MAX_DEPTH)
    throw new Error(
      `${where} holds no journal chaoskit reads: its JSON nests ${depth} deep (at most ${MAX_DEPTH})`,
    );
  try {
    JSON.parse(text);
  } catch (err) {
    throw new Error(`${where} holds no journal chaoskit reads: ${(err as Error).message}`);
  }
  return { summary: summaryOf(found), text, configMap: name };
}
