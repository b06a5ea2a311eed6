// Kubernetes Events on the run's Job, so that `kubectl describe job` and `kubectl get events`
// say how the run went: it started, deviated, was interrupted, rolled back, ended. Posted as
// core posts the Events on the objects a run changes (postEvent, D134); the Job is the one the
// pod's labels name (deploy's manifests give them to the run through the downward API).

import type { KubeClient } from '@chaoskit/core';
import { postEvent, redact } from '@chaoskit/core/runner';
import type { RunEvent, RunListener } from '../run/index.js';

export interface JobRef {
  name: string;
  namespace: string;
  uid?: string | undefined;
}

/** The pod's Job, as deploy's manifests give it (CHAOSKIT_JOB, CHAOSKIT_JOB_UID), in `namespace`. */
export function jobFromEnv(env: NodeJS.ProcessEnv, namespace: string): JobRef | undefined {
  const name = env.CHAOSKIT_JOB?.trim();
  return name
    ? { name, namespace, ...(env.CHAOSKIT_JOB_UID ? { uid: env.CHAOSKIT_JOB_UID } : {}) }
    : undefined;
}

interface Said {
  reason: string;
  type: 'Normal' | 'Warning';
  action: 'Run' | 'Rollback';
  note: string;
}

/** What an event of the run says on the Job, if anything. */
function eventOf(event: RunEvent, runId: string, journal: string): Said | undefined {
  switch (event.type) {
    case 'run-started':
      return {
        reason: 'Started',
        type: 'Normal',
        action: 'Run',
        note: `run ${runId} started: ${event.title} (journal: ConfigMap ${journal})`,
      };
    case 'deviated':
      return {
        reason: 'Deviated',
        type: 'Warning',
        action: 'Run',
        note: `run ${runId}: the steady state deviated after the method, a weakness may have been found`,
      };
    case 'interrupted':
      return {
        reason: 'Interrupted',
        type: 'Warning',
        action: 'Run',
        note:
          event.by === 'control'
            ? `run ${runId} interrupted by control '${event.control}': ${event.message}`
            : event.by === 'guard'
              ? `run ${runId} interrupted: ${event.interruption.reason}`
              : `run ${runId} interrupted by a signal: its rollbacks play before it stops`,
      };
    case 'phase-ended': {
      if (event.phase !== 'rollbacks' || event.runs.length === 0) return undefined;
      const failed = event.runs.filter((r) => r.status !== 'succeeded').length;
      return {
        reason: 'RolledBack',
        type: failed ? 'Warning' : 'Normal',
        action: 'Rollback',
        note: `run ${runId}: ${event.runs.length} rollback(s) played${failed ? `, ${failed} failed or not played` : ''}`,
      };
    }
    case 'run-ended': {
      const { status, deviated, duration = 0 } = event.journal;
      return {
        reason: status === 'completed' ? 'Completed' : 'Ended',
        type: status === 'completed' && !deviated ? 'Normal' : 'Warning',
        action: 'Run',
        note: `run ${runId} ended: status ${status}${deviated ? ', deviated' : ''}, ${duration.toFixed(1)} s`,
      };
    }
    default:
      return undefined;
  }
}

/** Writes an Event on `job` (its journal in ConfigMap `journal`) at each moment of the run that says one; a failure is said, not thrown. */
export function jobEvents(kube: KubeClient, job: JobRef, runId: string, journal: string): RunListener {
  return async (event, emit) => {
    const said = eventOf(event, runId, journal);
    if (!said) return;
    const regarding = { apiVersion: 'batch/v1', kind: 'Job', ...job };
    try {
      await postEvent(kube, { ...said, regarding, message: said.note });
    } catch (err) {
      await emit({ type: 'job-event-failed', reason: said.reason, message: redact((err as Error).message) });
    }
  };
}
