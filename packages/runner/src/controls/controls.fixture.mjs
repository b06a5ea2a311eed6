// A chaoskit control (D81) for the tests of controls.test.ts and the runner's README: it writes
// one line per hook it is called with to the file `arguments.path`, interrupts the run before
// the activity named `arguments.interrupt_before`, and fails in the hook `arguments.fail_in`.

import { appendFileSync } from 'node:fs';

const what = (context) => context?.name ?? context?.title ?? '';

const note =
  (hook) =>
  ({ arguments: args, context, state }) => {
    if (args.fail_in === hook) throw new Error(`${hook} broke`);
    const status = state && !Array.isArray(state) ? (state.status ?? state.steady_state_met) : undefined;
    const runs = Array.isArray(state) ? ` runs=${state.length}` : '';
    appendFileSync(
      args.path,
      `${hook} ${what(context)}${status === undefined ? '' : ` state=${status}`}${runs}\n`,
    );
  };

// #region control
export function configure_control({ arguments: args }) {
  appendFileSync(args.path, `configure_control ${args.label ?? ''}\n`);
}

export function before_activity_control({ arguments: args, context, log }) {
  appendFileSync(args.path, `before_activity_control ${context.name}\n`);
  if (context.name === args.interrupt_before) {
    log(`stopping the run before ${context.name}`);
    // Chaos Toolkit's InterruptExecution, recognised by its name.
    throw Object.assign(new Error(`${context.name} must not run`), { name: 'InterruptExecution' });
  }
}
// #endregion

export const before_experiment_control = note('before_experiment_control');
export const after_experiment_control = note('after_experiment_control');
export const before_hypothesis_control = note('before_hypothesis_control');
export const after_hypothesis_control = note('after_hypothesis_control');
export const before_method_control = note('before_method_control');
export const after_method_control = note('after_method_control');
export const before_rollback_control = note('before_rollback_control');
export const after_rollback_control = note('after_rollback_control');
export const after_activity_control = note('after_activity_control');
export const cleanup_control = note('cleanup_control');
