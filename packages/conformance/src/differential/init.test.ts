// `chaoskit init` writes experiments Chaos Toolkit runs: each file it writes passes the real
// `chaos validate` (chaostoolkit 1.19.0, chaostoolkit-lib 1.44.0, chaostoolkit-kubernetes
// 0.25.1, chaostoolkit-istio 0.1.4, from PyPI), which imports every module it names.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exec, runnerCli } from './differential.js';
import { ensurePythonOriginals } from './python-env.js';

let dir: string;
let chaos: string;
// Two processes a test, each loading its world: on 2 shared cores, that takes seconds.
vi.setConfig({ testTimeout: 300_000 });

const run = (cmd: string, args: string[]) => exec(cmd, args, {}, dir);

beforeAll(async () => {
  chaos = await ensurePythonOriginals((line) => console.log(line));
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-init-chaos-'));
}, 1_200_000);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const scaffolds: Array<[file: string, flags: string[]]> = [
  [
    'web.yaml',
    [
      ...['--probe', 'chaosk8s.pod.probes.count_pods', '--arg', 'label_selector=app=web', '--tolerance', '3'],
      ...['--activity', 'chaosk8s.pod.actions.terminate_pods', '--arg', 'label_selector=app=web'],
      ...['--arg', 'qty=1', '--background'],
      ...[
        '--rollback',
        'chaosk8s.deployment.actions.scale_deployment',
        '--arg',
        'name=web',
        '--arg',
        'replicas=3',
      ],
    ],
  ],
  [
    'reviews.json',
    [
      ...['--activity', 'chaosistio.fault.actions.add_abort_fault', '--arg', 'virtual_service_name=reviews'],
      ...['--arg', 'http_status=503', '--arg', 'routes=[{"destination":{"host":"reviews","subset":"v1"}}]'],
      ...[
        '--rollback',
        'chaosistio.fault.actions.remove_abort_fault',
        '--arg',
        'virtual_service_name=reviews',
      ],
      ...['--arg', 'routes=[{"destination":{"host":"reviews","subset":"v1"}}]'],
    ],
  ],
  [
    'nodes.yml',
    [
      ...[
        '--probe',
        'chaosk8s.node.probes.get_nodes',
        '--arg',
        'label_selector=type=kwok',
        '--tolerance',
        'true',
      ],
      ...['--activity', 'chaosk8s.service.probes.service_is_initialized', '--arg', 'name=web'],
    ],
  ],
];

describe("chaoskit init's experiments pass the real `chaos validate`", () => {
  it.each(scaffolds)('%s', async (file, flags) => {
    const path = join(dir, file);
    const init = await run(process.execPath, [
      runnerCli(),
      'init',
      '--experiment-path',
      path,
      '--title',
      `scaffolded ${file}`,
      '--description',
      'written by chaoskit init',
      ...flags,
    ]);
    expect(init.code, init.output).toBe(0);
    // `module: …` in YAML, `"module": "…"` in JSON.
    const modules = [...(await readFile(path, 'utf8')).matchAll(/"?module"?: "?([\w.]+)/g)].map(
      (m) => m[1] ?? '',
    );
    console.log(`${file}: modules ${modules.join(', ')}`);
    // Chaos Toolkit's names, as given: chaoslib imports them.
    expect(modules.every((m) => m.startsWith('chaosk8s.') || m.startsWith('chaosistio.'))).toBe(true);
    const validate = await run(chaos, ['--no-version-check', '--no-log-file', 'validate', path]);
    console.log(`${file}: chaos validate exit ${validate.code}`);
    expect(validate.code, validate.output).toBe(0);
    expect(validate.output).toContain('experiment syntax and semantic look valid');
  });
});
