// Image references: the runner image's own, what `chaoskit image build --push` accepts, and which
// names a node reports for an image it holds (deploy's check that the cluster can have it, D165).
import { RUNNER_VERSION } from '../package/version.js';

/** The repository `chaoskit image build` tags the runner image with: `.local`, never pulled. */
export const IMAGE_REPOSITORY = 'chaoskit.local/runner';
/** The runner image of this runner's version: what `image build` tags and `deploy` runs by default. */
export const DEFAULT_IMAGE = `${IMAGE_REPOSITORY}:${RUNNER_VERSION}`;

export interface ImageReference {
  /** The registry's host (and port); docker.io when the reference names none. */
  registry: string;
  repository: string;
  tag?: string;
  digest?: string;
}

const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const HOST =
  '(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::[0-9]+)?';
// Docker's grammar of a reference: [host[:port]/]path[:tag][@digest], path of lower-case components.
const REFERENCE = new RegExp(
  `^(?:(${HOST})/)?(${COMPONENT}(?:/${COMPONENT})*)(?::([A-Za-z0-9_][A-Za-z0-9_.-]{0,127}))?(?:@(sha256:[a-f0-9]{64}))?$`,
);

/** A reference as a container engine reads it, or undefined when it is none. */
export function parseReference(text: string): ImageReference | undefined {
  const match = REFERENCE.exec(text);
  if (!match || text.length > 255) return undefined;
  let [, first, path = '', tag, digest] = match;
  // As Docker reads it: a first component is a registry only with a dot, a port, or as localhost.
  if (first && !/[.:]/.test(first) && first !== 'localhost') {
    if (!new RegExp(`^${COMPONENT}$`).test(first)) return undefined;
    path = `${first}/${path}`;
    first = undefined;
  }
  const registry = first ?? 'docker.io';
  const repository = registry === 'docker.io' && !path.includes('/') ? `library/${path}` : path;
  return { registry, repository, ...(tag ? { tag } : {}), ...(digest ? { digest } : {}) };
}

/** The names a node's container runtime reports for the image (a node's status.images). */
export function reportedName(ref: ImageReference): string {
  const base = `${ref.registry}/${ref.repository}`;
  return ref.digest ? `${base}@${ref.digest}` : `${base}:${ref.tag ?? 'latest'}`;
}

/**
 * Whether no node could ever pull it: a `.local` registry is a name of images made on one machine
 * (chaoskit's own, `chaoskit.local`), which nodes hold only when it is imported into them.
 */
export const neverPulled = (ref: ImageReference): boolean => /\.local(:\d+)?$/.test(ref.registry);
