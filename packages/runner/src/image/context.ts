// The runner image's build context, staged in a directory of its own: a Containerfile and
// rootfs/, which it copies whole into an image FROM scratch (D111, D150, D157): the one-file
// command, made here from the package's script with this machine's Node, the shared libraries
// that Node loads (at the same paths), the third-party notices, and the user the pod runs as.
import { execFile } from 'node:child_process';
import { chmod, copyFile, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { RUNNER_VERSION } from '../package/version.js';
import { writeSingleFile } from './single-file.js';
import { RUNNER_UID } from './user.js';

export const CONTAINERFILE = `# The chaoskit runner, FROM scratch: the one-file command (Node with the runner, core and the
# activity packages inside it, D157) and the shared libraries it loads (chaoskit image build, D165).
FROM scratch
LABEL org.opencontainers.image.title="chaoskit runner" \\
      org.opencontainers.image.version="${RUNNER_VERSION}" \\
      org.opencontainers.image.licenses="Apache-2.0"
COPY rootfs/ /
ENV HOME=/tmp NODE_ENV=production
WORKDIR /tmp
USER ${RUNNER_UID}:${RUNNER_UID}
ENTRYPOINT ["/usr/local/bin/chaoskit"]
CMD ["--help"]
`;

/** The absolute paths of the shared libraries an executable loads, as ldd lists them. */
async function sharedLibraries(executable: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)('ldd', [executable]);
  return stdout
    .split('\n')
    .map((line) => /(?:=>\s*)?(\/\S+)\s+\(0x/.exec(line)?.[1])
    .filter((path): path is string => path !== undefined);
}

async function place(source: string, rootfs: string, path: string, mode: number): Promise<void> {
  const target = join(rootfs, path);
  await mkdir(dirname(target), { recursive: true });
  await copyFile(source, target);
  await chmod(target, mode);
}

/** Bytes of the files under `dir`. */
export async function contentBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  return total;
}

/**
 * Stages the context in `dir` (empty) from the package's script (dist/single/chaoskit.cjs) and its
 * notices; returns the Containerfile's path.
 */
export async function stageContext(dir: string, script: string): Promise<string> {
  const rootfs = join(dir, 'rootfs');
  const command = join(rootfs, 'usr/local/bin/chaoskit');
  await mkdir(dirname(command), { recursive: true });
  await writeSingleFile(script, command);
  await place(
    join(dirname(script), 'THIRD-PARTY-LICENSES.txt'),
    rootfs,
    'usr/share/doc/chaoskit/THIRD-PARTY-LICENSES.txt',
    0o644,
  );
  for (const library of await sharedLibraries(command)) await place(library, rootfs, library, 0o755);
  // The user the pod runs as, named for what asks who it is.
  await mkdir(join(rootfs, 'etc'));
  await writeFile(
    join(rootfs, 'etc/passwd'),
    `root:x:0:0:root:/root:/sbin/nologin\nchaoskit:x:${RUNNER_UID}:${RUNNER_UID}:chaoskit:/tmp:/sbin/nologin\n`,
  );
  await writeFile(join(rootfs, 'etc/group'), `root:x:0:\nchaoskit:x:${RUNNER_UID}:\n`);
  await mkdir(join(rootfs, 'tmp'));
  await chmod(join(rootfs, 'tmp'), 0o1777);
  const containerfile = join(dir, 'Containerfile');
  await writeFile(containerfile, CONTAINERFILE);
  return containerfile;
}
