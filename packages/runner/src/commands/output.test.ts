// kubectl's `-o json|yaml` on the commands that print structured output (D163), through the
// built command: each format holds the same value, `--json` stays as `-o json`. The commands
// that read a cluster (status, journals, plan, call) are in namespaces.cluster.test.ts.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump, load, loadAll } from 'js-yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EXIT } from '../run/exit-codes.js';
import { runCli } from '../testing/test-cli.js';
import { killOneWebPod } from '../testing/test-experiments.js';

let dir: string;
const chaoskit = (args: string[]) =>
  runCli(args, { cwd: dir, env: { ...process.env, KUBECONFIG: '/nonexistent' } });

/** What `args` prints with each of -o json, -o yaml (and --json when the command keeps it), parsed. */
async function printed(args: string[], json = true): Promise<unknown[]> {
  const outs = await Promise.all([
    chaoskit([...args, '-o', 'json']),
    chaoskit([...args, '-o', 'yaml']),
    ...(json ? [chaoskit([...args, '--json'])] : []),
  ]);
  for (const out of outs) expect(out.code, out.stderr).toBe(EXIT.ok);
  const [asJson, asYaml, legacy] = outs;
  return [JSON.parse(asJson!.stdout), load(asYaml!.stdout), ...(legacy ? [JSON.parse(legacy.stdout)] : [])];
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-output-'));
  await writeFile(
    join(dir, 'kill.yaml'),
    dump({ title: 'kill', description: 'one web pod goes', method: [killOneWebPod('shop')] }),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('discover and info print the same value in JSON and YAML, --json as -o json', async () => {
  for (const command of ['discover', 'info']) {
    const [asJson, asYaml, legacy] = await printed([command]);
    expect(asYaml).toEqual(asJson);
    expect(legacy).toEqual(asJson);
  }
  const [discovered] = await printed(['discover'], false);
  expect((discovered as { activities: Array<{ name: string }> }).activities.map((a) => a.name)).toContain(
    'terminate_pods',
  );
});

it('schema prints JSON by default, and the same schema as YAML', async () => {
  const plain = await chaoskit(['schema']);
  const [asJson, asYaml] = await printed(['schema'], false);
  expect(asJson).toEqual(JSON.parse(plain.stdout));
  expect(asYaml).toEqual(asJson);
});

it("rbac prints the objects as a List (JSON) or YAML documents, the same as its commented YAML's", async () => {
  for (const args of [
    ['rbac', 'kill.yaml'],
    ['rbac', '--halt'],
  ]) {
    const commented = loadAll((await chaoskit(args)).stdout);
    const [asJson, asYaml] = await Promise.all([
      chaoskit([...args, '-o', 'json']),
      chaoskit([...args, '-o', 'yaml']),
    ]);
    expect(JSON.parse(asJson.stdout)).toEqual({ apiVersion: 'v1', kind: 'List', items: commented });
    expect(asYaml.stdout).not.toContain('#');
    expect(loadAll(asYaml.stdout)).toEqual(commented);
  }
});

it('is refused before anything else with a format it does not know, or two formats', async () => {
  for (const args of [
    ['discover', '-o', 'table'],
    ['info', '--json', '-o', 'yaml'],
    ['status', '--json', '-o', 'yaml'],
  ]) {
    const out = await chaoskit(args);
    expect(out.code, args.join(' ')).toBe(EXIT.usage);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(
      /Allowed choices are json, yaml|--json and -o yaml ask for two formats: give one/,
    );
  }
});
