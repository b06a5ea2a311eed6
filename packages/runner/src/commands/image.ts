// `chaoskit image build`: the runner image, built on the user's machine from the installed
// package with buildah, podman or docker (D165), tagged as deploy runs it by default; saved as an
// archive a cluster without a registry imports (chaoskit-cluster import), or pushed to the user's
// registry (--push).
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { isSea } from 'node:sea';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { contentBytes, stageContext } from '../image/context.js';
import { buildImage, ENGINES, type Engine, findEngine, pushImage, saveImage } from '../image/engine.js';
import { DEFAULT_IMAGE, IMAGE_REPOSITORY, parseReference } from '../image/reference.js';
import { runnerHome } from '../image/single-file.js';
import { RUNNER_VERSION } from '../package/version.js';
import { EXIT } from '../run/exit-codes.js';
import { fail, session } from './session.js';

interface BuildOptions {
  engine?: Engine;
  output?: string;
  push?: string;
}

const ARCHIVE = `chaoskit-runner-${RUNNER_VERSION}.tar`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** --push: a repository of the user's registry, the runner's version its tag unless it gives one. */
function pushTarget(value: string): string {
  const ref = parseReference(value);
  // Named in full: a repository without its registry would be pushed to Docker Hub.
  if (!ref || ref.digest || !value.startsWith(`${ref.registry}/`))
    throw new InvalidArgumentError(
      `'${value}' is not an image repository of a registry: registry/name[:tag], as ghcr.io/acme/chaoskit-runner (the tag defaults to ${RUNNER_VERSION})`,
    );
  if (ref.registry.endsWith('.local'))
    throw new InvalidArgumentError(`'${value}': a .local name is never pulled: name your registry`);
  return ref.tag ? value : `${value}:${RUNNER_VERSION}`;
}

/** What stops a build before anything is staged: the platform, the package, the output's directory. */
function preflight(opts: BuildOptions): { script: string; archive?: string } {
  // The image holds this machine's Node: a Linux executable only on Linux.
  if (process.platform !== 'linux')
    throw new Error(
      `chaoskit image build puts this machine's Node into a Linux image: run it on Linux (this is ${process.platform})`,
    );
  const home = runnerHome();
  // The one file holds no package to build from, and its Node is itself.
  if (!home || isSea())
    throw new Error(
      'chaoskit image build builds from the npm package @chaoskit/runner (its dist/single/chaoskit.cjs), which this chaoskit is not run from',
    );
  const archive = opts.output || !opts.push ? resolve(opts.output ?? ARCHIVE) : undefined;
  if (archive && !existsSync(dirname(archive)))
    throw new InvalidArgumentError(
      `--output ${opts.output}: the directory ${dirname(archive)} does not exist`,
    );
  return { script: join(home, 'dist', 'single', 'chaoskit.cjs'), ...(archive ? { archive } : {}) };
}

async function build(opts: BuildOptions): Promise<void> {
  const { script, archive } = preflight(opts);
  const engine = await findEngine(opts.engine);
  const work = await mkdtemp(join(tmpdir(), 'chaoskit-image-'));
  const say = (line: string) => process.stderr.write(`chaoskit: ${line}\n`);
  try {
    say(`making the one-file command with Node ${process.version} and staging the image's files`);
    const containerfile = await stageContext(work, script);
    const bytes = await contentBytes(join(work, 'rootfs'));
    say(`building ${DEFAULT_IMAGE} with ${engine} (FROM scratch, ${mib(bytes)} of files, ${process.arch})`);
    await buildImage(engine, containerfile, work, DEFAULT_IMAGE);
    process.stdout.write(`built ${DEFAULT_IMAGE} with ${engine}: ${mib(bytes)} of files\n`);
    if (opts.push) {
      await pushImage(engine, DEFAULT_IMAGE, opts.push);
      process.stdout.write(
        `pushed ${opts.push}: deploy it with chaoskit deploy <experiment> --image ${opts.push}\n`,
      );
    }
    if (archive) {
      await saveImage(engine, DEFAULT_IMAGE, archive);
      process.stdout.write(
        `saved ${archive} (${mib((await stat(archive)).size)}): import it into the local cluster's real nodes with chaoskit-cluster import ${archive}, or on each node of yours with ctr -n k8s.io images import\n`,
      );
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export function register(program: Command): void {
  const image = program
    .command('image')
    .description(`the runner image that deploy runs (${IMAGE_REPOSITORY}:<version>)`);
  image
    .command('build')
    .description(
      `build the runner image from this package with buildah, podman or docker, tagged ${DEFAULT_IMAGE} (deploy's default --image), and save it as an archive (Linux)`,
    )
    .addOption(
      new Option('--engine <engine>', 'the container engine (default: the first here)').choices(ENGINES),
    )
    .option('-o, --output <file>', `the archive to save (default ${ARCHIVE}; none with --push unless given)`)
    .option(
      '--push <repository>',
      `push it to your registry, as registry/name[:tag] (tag default ${RUNNER_VERSION}), with the engine's credentials (no archive then, unless -o)`,
      pushTarget,
    )
    .action(async (opts: BuildOptions) => {
      try {
        await build(opts);
      } catch (err) {
        session.exitCode = fail(err, err instanceof InvalidArgumentError ? EXIT.usage : 1);
      }
    });
}
