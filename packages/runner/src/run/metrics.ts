// The run's meters (D130), counted from its events: runs and activities by outcome, their
// durations, the guards' breaches. Core counts the API requests and the faults in place.

import { instruments } from '@chaoskit/core/runner';
import { RUNNER_SCOPE } from '../telemetry/telemetry.js';
import type { RunListener } from './events.js';

// Bucket edges in seconds, the unit the durations are recorded in: the SDK's default edges (0, 5,
// 10 … 10000) are made for milliseconds, and put every run and activity in `le="5"` or `le="10"`.
// An activity takes from milliseconds (a probe) to many minutes (a drain's wait, a pause); a run
// from seconds to hours.
const ACTIVITY_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];
const RUN_BUCKETS = [1, 5, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 14_400];

type Meter = Parameters<Parameters<typeof instruments>[1]>[0];

/** A histogram of durations in seconds, with bucket edges made for them. */
const seconds = (meter: Meter, name: string, description: string, buckets: number[]) =>
  meter.createHistogram(name, { description, unit: 's', advice: { explicitBucketBoundaries: buckets } });

const meters = instruments(RUNNER_SCOPE, (meter) => ({
  runs: meter.createCounter('chaoskit.runs', {
    description: 'runs ended, by outcome (the journal status) and deviation',
  }),
  runDuration: seconds(meter, 'chaoskit.run.duration', 'run duration', RUN_BUCKETS),
  activities: meter.createCounter('chaoskit.activities', {
    description: 'activities run, by type, phase and outcome (succeeded, failed; skipped under --dry)',
  }),
  activityDuration: seconds(meter, 'chaoskit.activity.duration', 'activity duration', ACTIVITY_BUCKETS),
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
