// The container engine that builds the runner image on the user's machine: buildah, podman or
// docker (with its daemon), whichever answers first, or the one --engine names. Each is run as the
// user runs it, with the user's storage, registries' settings and credentials: `--push` reaches the
// user's registry as their own `push` would.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export const ENGINES = ['buildah', 'podman', 'docker'] as const;
export type Engine = (typeof ENGINES)[number];

const run = promisify(execFile);

/** Runs the engine; a failure carries the end of what it printed. */
async function engineRun(engine: Engine, args: string[]): Promise<void> {
  try {
    await run(engine, args, { maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    const { stderr, stdout, message } = err as { stderr?: string; stdout?: string; message: string };
    const said = `${stderr ?? ''}${stdout ?? ''}`.trim().split('\n').slice(-20).join('\n');
    throw new Error(`${engine} ${args.slice(0, 2).join(' ')} failed: ${said || message}`);
  }
}

/** Whether it is here and able: docker only with its daemon. */
const answers = (engine: Engine) =>
  run(engine, engine === 'docker' ? ['info'] : ['--version']).then(
    () => true,
    () => false,
  );

/** The engine to build with: `wanted`, or the first of ENGINES that answers. */
export async function findEngine(wanted?: Engine): Promise<Engine> {
  const candidates = wanted ? [wanted] : ENGINES;
  for (const engine of candidates) if (await answers(engine)) return engine;
  throw new Error(
    wanted
      ? `${wanted} does not answer here${wanted === 'docker' ? ' (docker needs its daemon)' : ''}`
      : 'no container engine here: tried buildah, podman and docker (docker needs its daemon); install buildah or podman',
  );
}

/** Builds `containerfile` in `context`, tagged `tag`. */
export function buildImage(engine: Engine, containerfile: string, context: string, tag: string) {
  const args = ['-f', containerfile, '-t', tag, context];
  return engineRun(
    engine,
    engine === 'buildah' ? ['bud', '--quiet', ...args] : ['build', '--quiet', ...args],
  );
}

/** Saves the image as an archive a node's containerd imports (OCI; docker's own format with docker). */
export function saveImage(engine: Engine, tag: string, archive: string) {
  if (engine === 'buildah')
    return engineRun('buildah', ['push', '--quiet', tag, `oci-archive:${archive}:${tag}`]);
  if (engine === 'podman')
    return engineRun('podman', ['save', '--quiet', '--format', 'oci-archive', '-o', archive, tag]);
  return engineRun('docker', ['save', '-o', archive, tag]);
}

/** Pushes the image to `target`, a reference in the user's registry. */
export async function pushImage(engine: Engine, tag: string, target: string): Promise<void> {
  if (engine === 'docker') {
    await engineRun('docker', ['tag', tag, target]);
    await engineRun('docker', ['push', '--quiet', target]);
  } else await engineRun(engine, ['push', '--quiet', tag, `docker://${target}`]);
}
