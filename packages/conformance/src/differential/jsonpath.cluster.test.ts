// The JSONPath on a real node list (D161): the same experiment file, run by Chaos
// Toolkit's `chaos run` (chaostoolkit-lib with jsonpath2, chaostoolkit-kubernetes' get_nodes,
// from PyPI) and by `chaoskit run` against the shared cluster, meets or misses its steady state
// alike — the path that tests each node finds kwok-node-0, the one whose filter tests the list
// finds nothing, in both — and chaoskit says why the second missed.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedCluster } from '@chaoskit/cluster/testing';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chaoskitRun, exec } from './differential.js';
import { ensurePythonOriginals } from './python-env.js';

const cluster = sharedCluster();
let dir: string;
let chaos: string;

beforeAll(async () => {
  chaos = await ensurePythonOriginals((line) => console.log(line));
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-jsonpath-'));
}, 1_200_000);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Journal {
  status: string;
  steady_states: {
    before: { steady_state_met: boolean; probes: { tolerance_met: boolean; output: { items: unknown[] } }[] };
  };
}

/** Runs `file` with both tools; their journals and what chaoskit printed. */
async function both(name: string, path: string) {
  const experiment = {
    title: `kwok-node-0 is in the cluster (${name})`,
    description: "The steady state finds the node with the issue's JSONPath.",
    'steady-state-hypothesis': {
      title: 'kwok-node-0 is listed',
      probes: [
        {
          type: 'probe',
          name: 'kwok-node-0-listed',
          tolerance: { type: 'jsonpath', path, expect: 'kwok-node-0' },
          provider: { type: 'python', module: 'chaosk8s.node.probes', func: 'get_nodes' },
        },
      ],
    },
    method: [{ type: 'action', name: 'nothing', provider: { type: 'process', path: 'true' } }],
  };
  const file = join(dir, `${name}.yaml`);
  await writeFile(file, dump(experiment));
  const journals = { chaos: join(dir, `${name}.chaos.json`), chaoskit: join(dir, `${name}.chaoskit.json`) };
  const python = await exec(
    chaos,
    ['--no-version-check', '--no-log-file', 'run', '--journal-path', journals.chaos, file],
    { KUBECONFIG: cluster.kubeconfigPath },
    dir,
  );
  const ours = await chaoskitRun(cluster, journals.chaoskit, [file], dir);
  const read = async (journal: string, output: string) => {
    const text = await readFile(journal, 'utf8').catch(() => undefined);
    expect(text, output.slice(-3000)).toBeDefined();
    return JSON.parse(text as string) as Journal;
  };
  return {
    chaos: await read(journals.chaos, python.output),
    chaoskit: await read(journals.chaoskit, ours.output),
    said: ours.output,
  };
}

/** What a journal says of the steady state before the method, and the node names its probe saw. */
const verdict = (journal: Journal) => {
  const { steady_state_met, probes } = journal.steady_states.before;
  const [probe] = probes;
  const names = probe?.output.items.map((n) => (n as { metadata: { name: string } }).metadata.name);
  return {
    status: journal.status,
    steady_state_met,
    tolerance_met: probe?.tolerance_met,
    sawNode0: names?.includes('kwok-node-0'),
  };
};

it("meets the steady state with the issue's path, in chaos run and chaoskit run alike", async () => {
  expect(cluster.nodes).toContain('kwok-node-0');
  const { chaos, chaoskit } = await both(
    'each-node',
    '$.items[*][?(@.metadata.name = "kwok-node-0")].metadata.name',
  );
  expect(verdict(chaos)).toEqual({
    status: 'completed',
    steady_state_met: true,
    tolerance_met: true,
    sawNode0: true,
  });
  expect(verdict(chaoskit)).toEqual(verdict(chaos));
}, 300_000);

it('misses it alike when the filter tests the list itself, and chaoskit says why', async () => {
  const { chaos, chaoskit, said } = await both(
    'the-list',
    '$.items[?(@.metadata.name = "kwok-node-0")].metadata.name',
  );
  // chaoslib's status for a steady state missed by a probe that ran: completed, not failed.
  expect(verdict(chaos)).toEqual({
    status: 'completed',
    steady_state_met: false,
    tolerance_met: false,
    sawNode0: true,
  });
  expect(verdict(chaoskit)).toEqual(verdict(chaos));
  expect(said).toContain(
    'probe \'kwok-node-0-listed\': the filter [?(@.metadata.name = "kwok-node-0")] tested a list as a whole, as jsonpath2 does, and 1 of its items pass it: put [*] before the filter to test the items',
  );
}, 300_000);
