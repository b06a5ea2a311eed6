// The run's meters (D130), counted from its events: runs and activities by outcome, their
// durations, the guards' breaches. Core counts the API requests and the faults in place.

import { instruments } from '@chaoskit/core/runner';
import type { RunListener } from '../run/events.js';
import { RUNNER_SCOPE } from './telemetry.js';

const meters = instruments(RUNNER_SCOPE, (meter) => ({
  runs: meter.createCounter('chaoskit.runs', {
    description: 'runs ended, by outcome (the journal status) and deviation',
  }),
  runDuration: meter.createHistogram('chaoskit.run.duration', { description: 'run duration', unit: 's' }),
  activities: meter.createCounter('chaoskit.activities', {
    description: 'activities run, by type, phase and outcome (succeeded, failed; skipped under --dry)',
  }),
  activityDuration: meter.createHistogram('chaoskit.activity.duration', {
    description: 'activity duration',
    unit: 's',
  }),
  breaches: meter.createCounter('chaoskit.guard.breaches', {
    description: 'runs interrupted by a guard: a safeguard out of tolerance, or the halt lever',
  }),
}));

export const runMetrics: RunListener = (event) => {
  switch (event.type) {
    case 'activity-returned': {
      const { run, phase } = event;
      const labels = { type: run.activity.type, phase };
      meters().activities.add(1, { ...labels, outcome: event.dry ? 'skipped' : run.status });
      meters().activityDuration.record(run.duration, labels);
      return;
    }
    case 'interrupted':
      if (event.by === 'guard') meters().breaches.add(1, { by: event.interruption.by });
      return;
    case 'run-ended': {
      const { journal } = event;
      const outcome = journal.status ?? 'completed';
      meters().runs.add(1, { outcome, deviated: journal.deviated === true });
      meters().runDuration.record(journal.duration ?? 0, { outcome });
      return;
    }
  }
};
