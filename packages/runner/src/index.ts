export { InvalidExperiment } from './errors.js';
export {
  type Experiment,
  loadExperiment,
  type Prepared,
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
  type HypothesisStrategy,
  type Journal,
  type RollbackStrategy,
  type RunOptions,
  runExperiment,
} from './run.js';
export { validateTolerance, withinTolerance } from './tolerance.js';
export { loadVarFiles, parseVar } from './vars.js';
