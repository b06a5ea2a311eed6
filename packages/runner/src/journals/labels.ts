// How a run's journal kept in the cluster is named and labelled (D116): one ConfigMap a run,
// `chaoskit-journal-<run id>` — or, for a deployment's runs, one of the deployment's few
// `chaoskit-journal-<deployment>-<n>`, names its runner's Role can list (D158) — found by its
// labels; what `chaoskit journals` lists is in its labels and annotations, so that listing reads
// no journal.

import { createHash } from 'node:crypto';
import { redact } from '@chaoskit/core/runner';
import type { Journal } from '../run/index.js';

/** The run's id: every journal kept in the cluster carries it (the selector of `journals`). */
export const JOURNAL_LABEL = 'chaoskit.io/journal';
/** `running` until the run ends, then its status. */
export const STATUS_LABEL = 'chaoskit.io/status';
/** Who made an object: chaoskit, on everything deploy applies and every journal a run keeps. */
export const MANAGED_BY = 'app.kubernetes.io/managed-by';
/** The deployment an object belongs to: deploy's objects, and its runs' journals. */
export const EXPERIMENT_LABEL = 'chaoskit.io/experiment';

const ANNOTATION = 'chaoskit.io/';
export const ANNOTATIONS = {
  title: `${ANNOTATION}title`,
  started: `${ANNOTATION}started`,
  deviated: `${ANNOTATION}deviated`,
  duration: `${ANNOTATION}duration`,
  truncated: `${ANNOTATION}truncated`,
} as const;

/** The key of the ConfigMap's data that holds the journal. */
export const JOURNAL_KEY = 'journal.json';

export const journalName = (runId: string) => `chaoskit-journal-${runId}`;

const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;

/**
 * `text` as a label value: itself when it is one; otherwise its letters, digits, `-`, `_` and
 * `.` (other runs of characters made one `-`, at most 52 of them) and a hash of the whole text,
 * so that two titles that read alike stay two values.
 */
export function labelValue(text: string): string {
  if (LABEL_VALUE.test(text)) return text;
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 10);
  const slug = text
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .slice(0, 52)
    .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
  return slug ? `${slug}-${hash}` : hash;
}

export interface JournalIdentity {
  runId: string;
  /** The deployment's name (`chaoskit.io/experiment` of the pod), else the title labels it. */
  experiment?: string | undefined;
}

/** The title as the journal has it, masked as the journal is. */
const titleOf = (journal: Journal) => redact(String((journal.experiment as { title?: unknown }).title ?? ''));

/** The labels and annotations of the journal's ConfigMap, as the run stands. */
export function journalMetadata(
  journal: Journal,
  who: JournalIdentity,
  truncated: boolean,
): { labels: Record<string, string>; annotations: Record<string, string> } {
  const title = titleOf(journal);
  return {
    labels: {
      [MANAGED_BY]: 'chaoskit',
      [JOURNAL_LABEL]: who.runId,
      [EXPERIMENT_LABEL]: labelValue(who.experiment || title),
      [STATUS_LABEL]: journal.status ?? 'running',
    },
    annotations: {
      [ANNOTATIONS.title]: title,
      [ANNOTATIONS.started]: journal.start,
      [ANNOTATIONS.deviated]: String(journal.deviated),
      ...(journal.duration !== undefined ? { [ANNOTATIONS.duration]: journal.duration.toFixed(3) } : {}),
      ...(truncated ? { [ANNOTATIONS.truncated]: 'true' } : {}),
    },
  };
}
