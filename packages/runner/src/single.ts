// The entry of the single-file `chaoskit` (scripts/single.mjs, D157). Node's snapshot builder
// runs this script once, at build time, to a heap that every start then deserializes instead of
// loading the command: every command's module and what it imports (@chaoskit/core, zod's
// schemas, commander) and every built-in activity package, already evaluated. Node's http,
// https, http2 and tls cannot be in a snapshot: the build loads them on first use.
import { startupSnapshot } from 'node:v8';
import { parseDocument } from '@chaoskit/core';
import { COMMANDS, main } from './cli.js';
import { experimentFormat } from './experiment/format.js';
import { BUNDLED } from './package/bundled.js';
import { RUNNER_VERSION } from './package/version.js';
import { endAsPidOne } from './signals/pid-one.js';

function start(): void {
  endAsPidOne();
  const args = process.argv.slice(2);
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V'))
    process.stdout.write(`${RUNNER_VERSION}\n`);
  else void main(process.argv);
}

/**
 * What every run does first, done once at build time on made-up documents, so that the snapshot
 * holds its code compiled: reading YAML and JSON (js-yaml), checking an experiment's format
 * (zod). Pure: it changes no module's state.
 */
function rehearse(): void {
  const kubeconfig = 'clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\ncurrent-context: x\n';
  parseDocument(kubeconfig, 'yaml');
  const provider = {
    type: 'python',
    module: 'chaosk8s.pod.probes',
    func: 'count_pods',
    arguments: { ns: 'x' },
  };
  const experiment = {
    title: 'rehearsal',
    description: 'made up at build time',
    method: [{ type: 'probe', name: 'count', provider, tolerance: 0 }],
  };
  experimentFormat().safeParse(parseDocument(JSON.stringify(experiment), 'json'));
}

if (startupSnapshot.isBuildingSnapshot()) {
  void Promise.all([...COMMANDS.map(([, load]) => load()), ...BUNDLED.map((p) => p.load())]).then(rehearse);
  startupSnapshot.setDeserializeMainFunction(start);
} else start();
