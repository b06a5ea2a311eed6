// `run --journal-to-cluster`: the run's journal kept in a ConfigMap of the namespace it is told
// (D116), written when the run starts, after each activity, on an interruption or a deviation,
// and at the end; through core's write chain, as a deployment's writes are (D110): a client
// without a run's record or rails. Its rights are checked before the run starts (D91).

import { ConfigMaps, isApiError, type KubeClient } from '@chaoskit/core';
import { describeRight, missingRights, rightsOf, whoAmI } from '@chaoskit/core/runner';
import { Refusal } from '../output/errors.js';
import { type JournalWriter, journalWriter } from '../run/index.js';
import { boundedJournal } from './bound.js';
import type { JobRef } from './job-events.js';
import {
  EXPERIMENT_LABEL,
  JOURNAL_KEY,
  type JournalIdentity,
  journalMetadata,
  labelValue,
} from './labels.js';
import { JOB_EVENT_RULES, journalRules } from './rules.js';

/**
 * The deployment's journal this run keeps its own in (`slots`, its runner's to change): one not
 * there yet, else the oldest, deleted to make room. A deployment's runs come one at a time
 * (a Job, or a CronJob that never runs two at once), and its Jobs' journals go with them.
 */
export async function claimJournal(
  kube: KubeClient,
  namespace: string,
  deployment: string,
  slots: readonly string[],
): Promise<string> {
  type Listed = { metadata: { name: string; uid?: string; creationTimestamp?: string } };
  const kept = (
    await kube.list<Listed>(ConfigMaps, {
      namespace,
      labelSelector: `${EXPERIMENT_LABEL}=${labelValue(deployment)}`,
      metadataOnly: true,
    })
  ).filter((item) => slots.includes(item.metadata.name));
  const free = slots.find((name) => !kept.some((item) => item.metadata.name === name));
  if (free) return free;
  const [oldest] = kept.sort((a, b) =>
    (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''),
  );
  await kube
    .delete(ConfigMaps, oldest!.metadata.name, {
      namespace,
      body: { preconditions: { uid: oldest!.metadata.uid } },
    })
    .catch((err: unknown) => {
      if (!isApiError(err, 'NotFound')) throw err;
    });
  return oldest!.metadata.name;
}

export interface ClusterJournalOptions extends JournalIdentity {
  kube: KubeClient;
  namespace: string;
  /** Its ConfigMap. */
  name: string;
  /** Told once when the journal is over the bound and kept cut. */
  warn: (line: string) => void;
  /**
   * The run's Job, when it runs in one: its journal is owned by it and goes with it, so a
   * CronJob's history limits bound how many journals a schedule keeps (D116).
   */
  job?: JobRef | undefined;
}

/** The writer of the run's journal to its ConfigMap. */
export function clusterJournal(options: ClusterJournalOptions): JournalWriter {
  const { kube, namespace, name } = options;
  const { job } = options;
  const owned =
    job?.uid && job.namespace === namespace
      ? { ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: job.name, uid: job.uid }] }
      : {};
  let created = false;
  let warned = false;
  return journalWriter(
    async (text, journal) => {
      const { text: kept, truncation } = boundedJournal(text);
      if (truncation && !warned) {
        warned = true;
        options.warn(`the journal kept in the cluster is cut: ${truncation.note}`);
      }
      const body = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name,
          namespace,
          ...owned,
          ...journalMetadata(journal, options, truncation !== undefined),
        },
        data: { [JOURNAL_KEY]: kept },
      };
      if (created) {
        try {
          await kube.replace(ConfigMaps, name, body, { namespace });
          return;
        } catch (err) {
          // Deleted under the run: made again.
          if (!isApiError(err, 'NotFound')) throw err;
        }
      }
      await kube.create(ConfigMaps, body, { namespace });
      created = true;
    },
    { to: 'cluster', also: ['run-started', 'interrupted', 'deviated'] },
  );
}

/**
 * Refuses the run unless the identity may keep its journal in `namespace` (and write Events on
 * its Job, when it has one): a run that cannot keep it finds out before its first change.
 */
export async function checkJournalRights(
  kube: KubeClient,
  namespace: string,
  job: boolean,
  slots?: readonly string[],
): Promise<void> {
  const rules = [...journalRules(slots), ...(job ? JOB_EVENT_RULES : [])];
  const missing = await missingRights(kube, rightsOf(rules, namespace));
  if (missing.length === 0) return;
  const identity = await whoAmI(kube).catch(() => undefined);
  throw new Refusal(
    `${identity ? `User "${identity}"` : 'the identity'} may not ${missing.map(describeRight).join(', ')} in namespace '${namespace}', which --journal-to-cluster needs: bind there the -journal Role that chaoskit rbac --journal-to-cluster prints, or choose another namespace (--ledger-namespace)`,
  );
}
