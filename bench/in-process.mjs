// One scenario's activities called in this process, timed from the first call to the last
// answer (the package is loaded before the clock starts): chaoskit's side of the in-process
// figures. Prints `{"seconds": …}` last.
//   node bench/in-process.mjs '<steps as JSON>'
import { resolveActivity } from '../packages/runner/dist/activities/resolve-activity.js';

const steps = JSON.parse(process.argv[2]);
const activities = [];
for (const step of steps) activities.push(await resolveActivity(step.module, step.func));
const t0 = performance.now();
for (const [i, step] of steps.entries()) await activities[i].call(step.args);
const seconds = (performance.now() - t0) / 1000;
console.log(JSON.stringify({ seconds }));
// Keep-alive connections would hold the process open.
process.exit(0);
