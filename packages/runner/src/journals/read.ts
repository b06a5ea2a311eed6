// The journals kept in a namespace (D116): listed from their ConfigMaps' labels and annotations
// (no journal read), and one of them read whole, by run id or the latest.

import { ConfigMaps, isApiError } from '@chaoskit/core';
import type { Transport } from '@chaoskit/core/runner';
import {
  ANNOTATIONS,
  EXPERIMENT_LABEL,
  JOURNAL_KEY,
  JOURNAL_LABEL,
  journalName,
  STATUS_LABEL,
} from './labels.js';

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

/** The journals kept in `namespace`, the latest first. */
export async function listJournals(kube: Transport, namespace: string): Promise<JournalSummary[]> {
  const items = await kube.list<Listed>(ConfigMaps, {
    namespace,
    labelSelector: JOURNAL_LABEL,
    metadataOnly: true,
  });
  return items
    .filter((item) => item.metadata.name === journalName(item.metadata.labels?.[JOURNAL_LABEL] ?? ''))
    .map(summaryOf)
    .sort((a, b) => b.started.localeCompare(a.started) || b.runId.localeCompare(a.runId));
}

/** The journal of run `which` (a run id, or `latest`) in `namespace`: its summary and its text. */
export async function fetchJournal(
  kube: Transport,
  namespace: string,
  which: string,
): Promise<{ summary: JournalSummary; text: string }> {
  let runId = which;
  if (which === 'latest') {
    const [latest] = await listJournals(kube, namespace);
    if (!latest)
      throw new Error(
        `no journal is kept in namespace '${namespace}' (chaoskit run --journal-to-cluster keeps them)`,
      );
    runId = latest.runId;
  }
  let found: Listed;
  try {
    found = await kube.get<Listed>(ConfigMaps, journalName(runId), namespace);
  } catch (err) {
    if (isApiError(err, 'NotFound'))
      throw new Error(
        `no journal of run '${runId}' in namespace '${namespace}' (chaoskit journals -n ${namespace} lists those kept there)`,
      );
    throw err;
  }
  const text = found.data?.[JOURNAL_KEY];
  if (text === undefined)
    throw new Error(`configmap ${journalName(runId)} -n ${namespace} holds no ${JOURNAL_KEY}`);
  return { summary: summaryOf(found), text };
}
