// `chaoskit-cluster import`'s refusals, before anything is imported: an archive that is not there,
// and no cluster of `up` to import into (its state files are where CHAOSKIT_STATE_DIR says).
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../../../dist/cli.js', import.meta.url));
let dir: string;

const importing = (archive: string) =>
  promisify(execFile)(process.execPath, [cli, 'import', archive], {
    cwd: dir,
    env: { ...process.env, CHAOSKIT_STATE_DIR: join(dir, 'state') },
  }).then(
    () => ({ code: 0, stderr: '' }),
    (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
  );

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-import-'));
  await writeFile(join(dir, 'runner.tar'), 'not read: no cluster to import into');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('refuses an archive that is not there', async () => {
  expect(await importing('missing.tar')).toEqual({
    code: 1,
    stderr:
      'chaoskit-cluster: import: missing.tar names no file: give an image archive (chaoskit image build writes one)\n',
  });
});

it('says to start a cluster when no chaoskit-cluster up runs', async () => {
  expect(await importing('runner.tar')).toEqual({
    code: 1,
    stderr:
      'chaoskit-cluster: no cluster started by chaoskit-cluster up is running: start one with chaoskit-cluster up --real-nodes 1\n',
  });
});
