export {
  type ControlLevel,
  type ControlModule,
  HOOKS,
  type Hook,
  type HookInput,
  type HookName,
  InterruptExecution,
} from './controls.js';
export { InvalidExperiment } from './errors.js';
export {
  type Experiment,
  experimentBase,
  loadExperiment,
  type Prepared,
  type PrepareFlags,
  prepareExperiment,
  type Vars,
} from './experiment.js';
export { type PlannedActivity, planExperiment } from './plan.js';
export { mergeRules, roleFor } from './rbac.js';
export {
  ACTIVITY_PACKAGES,
  installedActivities,
  loadPackage,
  packageFor,
  resolveActivity,
} from './resolve-activity.js';
export {
  DRY_MODES,
  type DryMode,
  type HypothesisStrategy,
  type Journal,
  type RollbackStrategy,
  type RunOptions,
  runExperiment,
} from './run.js';
export { validateTolerance, withinTolerance } from './tolerance.js';
export { loadVarFiles, parseVar } from './vars.js';
