// The human log of a run: what each event says, in Chaos Toolkit's words where it has them.

import type { Reporter } from '../output/log.js';
import type { RunEvent, RunListener } from './events.js';

const ROLLBACKS_SKIPPED = {
  'none-declared': () => "No declared rollbacks, let's move on.",
  unconfirmed: () => 'Rollbacks not played: the run was not confirmed, so it changed nothing',
  strategy: (strategy: string, status: string) =>
    `Rollbacks not played (strategy ${strategy}, status ${status})`,
};

/** Says each event of a run on `reporter`: a line for people (or none), as the run goes. */
export function logEvents(reporter: Reporter): RunListener {
  const info = (line: string) => reporter.info(line);
  const warn = (line: string) => reporter.warn(line);
  const debug = (line: string) => reporter.debug?.(line);
  return (event: RunEvent) => {
    switch (event.type) {
      case 'run-started':
        info(`Running experiment: ${event.title}`);
        if (event.dry) warn(`Running experiment with dry ${event.dry}`);
        if (!event.hypothesis) info("No steady state hypothesis defined. That's ok, just exploring.");
        return;
      case 'phase-started':
        if (event.phase === 'hypothesis') info(`Steady state hypothesis: ${event.hypothesis.title}`);
        else if (event.phase === 'method') info("Playing your experiment's method now...");
        else if (event.afterInterruption) warn('Interrupted: playing the rollbacks before stopping');
        return;
      case 'phase-ended':
        if (event.phase !== 'hypothesis') return;
        if (event.state.steady_state_met) info('Steady state hypothesis is met!');
        else if (event.unmet?.failed)
          warn('Probe terminated unexpectedly, so its tolerance could not be validated');
        else if (event.unmet) {
          warn(
            `Steady state probe '${event.unmet.probe}' is not in the given tolerance so failing this experiment`,
          );
          if (event.unmet.why) warn(`  probe '${event.unmet.probe}': ${event.unmet.why}`);
        }
        return;
      case 'activity-started':
        if (event.phase === 'rollbacks') info(`Rollback: ${event.step.name ?? event.step.ref}`);
        return;
      case 'pauses-skipped':
        debug(`  pauses of '${event.activity.name}' skipped (--dry ${event.dry})`);
        return;
      case 'activity-paused':
        info(`Pausing ${event.when} activity for ${event.seconds}s...`);
        return;
      case 'activity-called': {
        const { activity } = event;
        info(
          `${activity.type === 'probe' ? 'Probe' : 'Action'}: ${activity.name}${event.background ? ' [in background]' : ''}`,
        );
        if (event.dry) debug(`  activity '${activity.name}' is in dry mode (--dry ${event.dry}): not run`);
        return;
      }
      case 'activity-logged':
        info(`  ${event.line}`);
        return;
      case 'activity-returned': {
        const { run } = event;
        // Background activities end among the others' lines: their results name them.
        const which = event.background ? ` (${run.activity.name})` : '';
        if (run.status === 'failed') warn(`  => failed${which}: ${run.exception?.[0]}`);
        else {
          info(`  => succeeded${which}`);
          if (!event.dry) debug(`  => output${which}: ${JSON.stringify(run.output) ?? 'null'}`);
        }
        return;
      }
      case 'background-waiting':
        debug(`Waiting for ${event.count} background activities to complete`);
        return;
      case 'fail-fast':
        warn(
          event.activity === undefined
            ? '--fail-fast: the steady state deviated during the method; terminating the method'
            : `--fail-fast: '${event.activity}' failed, so no other method activity starts`,
        );
        return;
      case 'deviated':
        warn('The steady-state has deviated, a weakness may have been discovered');
        return;
      case 'interrupted':
        // A signal is said when it comes (interrupts.ts); a control's interruption here.
        if (event.by === 'control') warn(`control '${event.control}' interrupted the run: ${event.message}`);
        else if (event.by === 'guard')
          warn(`${event.interruption.reason}: interrupting the run, its rollbacks play`);
        return;
      case 'aborted':
        warn(
          event.reason === 'refused'
            ? `A safety rail refused an action, so the method stops here: ${event.message}`
            : `Experiment ran into an unexpected fatal error, aborting now: ${event.message}`,
        );
        return;
      case 'rollbacks-skipped':
        info(ROLLBACKS_SKIPPED[event.reason](event.strategy, event.status));
        return;
      case 'rollbacks-abandoned':
        warn(`Rollbacks abandoned; not played: ${event.left.map((r) => r.name ?? r.ref).join(', ')}`);
        return;
      case 'left-in-place':
        warn(
          `This run's changes still in place: ${event.changes.join('; ')}. Undo them with: chaoskit revert ${event.runId}`,
        );
        return;
      case 'left-in-place-unchecked':
        warn(`could not check what the run left in place: ${event.message}`);
        return;
      case 'control-logged':
        info(`  control '${event.control}': ${event.line}`);
        return;
      case 'control-failed':
        warn(`control '${event.control}' failed in ${event.hook}: ${event.message}`);
        return;
      case 'journal-failed':
        warn(
          `the journal could not be ${event.to === 'cluster' ? 'kept in the cluster' : 'written'}: ${event.message}`,
        );
        return;
      case 'job-event-failed':
        warn(`the Event ${event.reason} could not be written on the run's Job: ${event.message}`);
        return;
      case 'run-ended': {
        const { journal } = event;
        info(`Experiment ended with status: ${journal.deviated ? 'deviated' : journal.status}`);
        return;
      }
    }
  };
}
