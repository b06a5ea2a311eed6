// The experiment's controls (D81) hear the run as its other listeners do: each phase's and
// activity's start calls the before-hooks of its level, its end the after-hooks, with what the
// journal says of it. A hook's InterruptExecution stops the run as Ctrl-C does: the activities
// under way stop at their next safe point, and the rollbacks play with their own signal.

import { type ControlLevel, Controls } from '../controls/controls.js';
import type { Json, Prepared } from '../prepare/prepare.js';
import type { Phase, RunListener } from './events.js';
import { Interrupted } from './state.js';

const LEVEL: Record<Phase, ControlLevel> = {
  hypothesis: 'hypothesis',
  method: 'method',
  rollbacks: 'rollback',
};

/** `stop` is aborted when a hook interrupts the run. */
export function controlEvents(prepared: Prepared, stop: AbortController): RunListener {
  let controls: Controls | undefined;
  let experiment: Json = {};
  return async (event, emit) => {
    // A control's lines are said as they come.
    const say = (e: Parameters<typeof emit>[0]) => void emit(e).catch(() => undefined);
    if (event.type === 'run-started') {
      experiment = event.journal.experiment;
      controls = new Controls(experiment, prepared.controls, {
        configuration: prepared.configuration,
        secrets: prepared.secrets,
        log: (control, line) => say({ type: 'control-logged', control, line }),
        failed: (control, hook, message) => say({ type: 'control-failed', control, hook, message }),
        interrupt: async (control, message) => {
          await emit({ type: 'interrupted', by: 'control', control, message });
          stop.abort(new Interrupted(message));
        },
      });
      await controls.configure();
      await controls.before('experiment', experiment);
      return;
    }
    if (!controls) return;
    switch (event.type) {
      case 'phase-started':
        await controls.before(
          LEVEL[event.phase],
          event.phase === 'hypothesis' ? event.hypothesis : experiment,
        );
        return;
      case 'phase-ended':
        if (event.phase === 'hypothesis') await controls.after('hypothesis', event.hypothesis, event.state);
        else await controls.after(LEVEL[event.phase], experiment, event.runs);
        return;
      case 'activity-started':
        // A step whose reference names nothing fails before its hooks.
        if (event.activity) await controls.before('activity', event.activity);
        return;
      case 'activity-ended':
        await controls.after('activity', event.activity, event.run);
        return;
      case 'run-ended':
        // A control interrupting now has nothing left to stop.
        await controls.after('experiment', experiment, event.journal).catch(() => undefined);
        await controls.cleanup().catch(() => undefined);
        return;
    }
  };
}
