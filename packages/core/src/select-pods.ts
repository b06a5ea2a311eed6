import { InvalidArgument } from './errors.js';
import { isValidSeed, MAX_SEED, makeRandom } from './random.js';

export interface PodLike {
  metadata?: { name?: string; creationTimestamp?: Date | string };
}

export type SelectionMode = 'fixed' | 'percentage';
export type SelectionOrder = 'alphabetic' | 'oldest';

export interface PodSelectionOptions {
  /** Kept pods' names contain a match (search, not full match); anchor with ^ or $. */
  name_pattern?: string | null;
  mode: SelectionMode;
  qty: number;
  order: SelectionOrder;
  all: boolean;
  rand: boolean;
  seed?: number;
  /** `module.func`, for error messages. */
  activity: string;
}

export interface PodSelection<P> {
  selected: P[];
  /** Present when the choice was random: pass it back as `seed` to repeat the run. */
  seed?: number;
}

/** Raw, unchecked values as an experiment supplies them. */
export interface RawSelectionOptions {
  name_pattern?: unknown;
  mode?: unknown;
  qty?: unknown;
  order?: unknown;
  seed?: unknown;
}

function render(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function compilePattern(activity: string, pattern: unknown): RegExp | undefined {
  if (pattern === undefined || pattern === null || pattern === '') return undefined;
  const accepted =
    'a JavaScript regular expression, matched anywhere in the pod name unless anchored with ^ or $';
  if (typeof pattern !== 'string') {
    throw new InvalidArgument({ activity, argument: 'name_pattern', accepted, received: render(pattern) });
  }
  try {
    return new RegExp(pattern);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new InvalidArgument({
      activity,
      argument: 'name_pattern',
      accepted,
      received: `${render(pattern)}: ${reason}`,
    });
  }
}

/** Refuses bad selection arguments before any request reaches the cluster. */
export function checkSelectionOptions(activity: string, options: RawSelectionOptions): void {
  const { mode, qty, order, seed } = options;
  if (mode !== 'fixed' && mode !== 'percentage') {
    throw new InvalidArgument({
      activity,
      argument: 'mode',
      accepted: "'fixed' or 'percentage'",
      received: render(mode),
    });
  }
  const isInteger = typeof qty === 'number' && Number.isInteger(qty);
  if (mode === 'fixed' && !(isInteger && qty >= 0)) {
    const accepted = "a whole number of pods, 0 or more, when mode is 'fixed'";
    throw new InvalidArgument({ activity, argument: 'qty', accepted, received: render(qty) });
  }
  if (mode === 'percentage' && !(isInteger && qty >= 1 && qty <= 100)) {
    const accepted = "a whole percentage of the matching pods, from 1 to 100, when mode is 'percentage'";
    throw new InvalidArgument({ activity, argument: 'qty', accepted, received: render(qty) });
  }
  if (order !== 'alphabetic' && order !== 'oldest') {
    throw new InvalidArgument({
      activity,
      argument: 'order',
      accepted: "'alphabetic' or 'oldest'",
      received: render(order),
    });
  }
  compilePattern(activity, options.name_pattern);
  if (seed !== undefined && seed !== null && !isValidSeed(seed)) {
    const accepted = `a whole number from 0 to ${MAX_SEED} (the seed a previous random run reported)`;
    throw new InvalidArgument({ activity, argument: 'seed', accepted, received: render(seed) });
  }
}

const nameOf = (pod: PodLike): string => pod.metadata?.name ?? '';

// Code-unit order, like the apiserver's byte order for ASCII names; localeCompare would differ.
function byName(a: PodLike, b: PodLike): number {
  const x = nameOf(a);
  const y = nameOf(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function createdAt(pod: PodLike): number {
  const value = pod.metadata?.creationTimestamp;
  const time =
    value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  // Pods without a usable timestamp sort last rather than breaking the comparison.
  return Number.isNaN(time) ? Number.POSITIVE_INFINITY : time;
}

/**
 * The pod selection of 0.25.1's terminate_pods and exec_in_pods, on pods already listed with
 * the label selector: filter by name, order, then take all, the first `qty`, or a random `qty`
 * (percentage mode rounds up). D22 and D23 (docs/decisions.md): `alphabetic` really sorts, and
 * a random choice reports its seed.
 */
export function selectPods<P extends PodLike>(
  pods: readonly P[],
  options: PodSelectionOptions,
): PodSelection<P> {
  checkSelectionOptions(options.activity, options);
  const pattern = compilePattern(options.activity, options.name_pattern);
  const candidates = pattern ? pods.filter((pod) => pattern.test(nameOf(pod))) : [...pods];
  if (options.order === 'oldest') {
    // Timestamps have one-second resolution: ties are common, the name breaks them.
    candidates.sort((a, b) => createdAt(a) - createdAt(b) || byName(a, b));
  } else {
    candidates.sort(byName);
  }
  if (options.all) return { selected: candidates };

  const wanted =
    options.mode === 'percentage' ? Math.ceil((options.qty * candidates.length) / 100) : options.qty;
  const count = Math.min(wanted, candidates.length);
  if (!options.rand) return { selected: candidates.slice(0, count) };
  const random = makeRandom(options.seed ?? undefined);
  return { selected: random.sample(candidates, count), seed: random.seed };
}
