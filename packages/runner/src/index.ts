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
  type Activity,
  type Experiment,
  experimentBase,
  loadExperiment,
  lookupFor,
  type Prepared,
  type PrepareFlags,
  prepareExperiment,
  type Vars,
} from './experiment.js';
// Fleet runs: one experiment over several kubeconfig contexts, in canary waves.
export type { ContextResult, FleetJournal } from './fleet/outcome.js';
export { type FleetOptions, type FleetResult, runFleet } from './fleet/run-fleet.js';
export { parseWaves, splitWaves, type WaveSize } from './fleet/waves.js';
export { CHAOSKIT_PACKAGES } from './known-packages.js';
export { type PlannedActivity, planExperiment } from './plan.js';
export { mergeRules, roleFor } from './rbac.js';
export {
  findProviders,
  type Installed,
  installedActivities,
  type LoadedProvider,
  type Lookup,
  loadProvider,
  type Provider,
  resolveActivity,
  searchPath,
} from './resolve-activity.js';
// The run: runExperiment, its journal and events, its listeners, invokeActivity.
export * from './run/index.js';
export { validateTolerance, withinTolerance } from './tolerance.js';
export { loadVarFiles, parseVar } from './vars.js';
