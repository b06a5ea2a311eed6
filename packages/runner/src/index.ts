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
} from './activities/resolve-activity.js';
export {
  type ControlLevel,
  type ControlModule,
  HOOKS,
  type Hook,
  type HookInput,
  type HookName,
  InterruptExecution,
} from './controls/controls.js';
export { experimentBase, loadExperiment } from './experiment/load.js';
export { loadVarFiles, parseVar } from './experiment/vars.js';
// Fleet runs: one experiment over several kubeconfig contexts, in canary waves.
export type { ContextResult, FleetJournal } from './fleet/outcome.js';
export { type FleetOptions, type FleetResult, runFleet } from './fleet/run-fleet.js';
export { parseWaves, splitWaves, type WaveSize } from './fleet/waves.js';
export { InvalidExperiment } from './output/errors.js';
export { CHAOSKIT_PACKAGES } from './package/known-packages.js';
export { type PlannedActivity, planExperiment } from './plan/plan.js';
export {
  type Activity,
  type Experiment,
  lookupFor,
  type Prepared,
  type PrepareFlags,
  prepareExperiment,
  type Vars,
} from './prepare/prepare.js';
export { mergeRules, roleFor } from './rbac/rbac.js';
// The run: runExperiment, its journal and events, its listeners, invokeActivity.
export * from './run/index.js';
export { validateTolerance, withinTolerance } from './tolerance/tolerance.js';
