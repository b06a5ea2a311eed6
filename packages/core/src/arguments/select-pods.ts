import { makeRandom } from './random.js';
import { compileRegex } from './regex.js';

export interface PodLike {
  metadata?: { name?: string; creationTimestamp?: Date | string };
}

export type SelectionMode = 'fixed' | 'percentage';
export type SelectionOrder = 'alphabetic' | 'oldest';

/** The selection arguments, validated by their schemas (`podSelectionArgs`). */
export interface PodSelectionOptions {
  /** Kept pods' names contain a match (search, not full match); anchor with ^ or $. */
  name_pattern?: string | null;
  mode: SelectionMode;
  qty: number;
  order: SelectionOrder;
  all: boolean;
  rand: boolean;
  seed?: number | null;
}

export interface PodSelection<P> {
  selected: P[];
  /** Present when the choice was random: pass it back as `seed` to repeat the run. */
  seed?: number;
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
 * (percentage mode rounds up). The options were validated by their schemas. D22 and D23 (docs/decisions.md): `alphabetic` really sorts, and
 * a random choice reports its seed.
 */
export function selectPods<P extends PodLike>(
  pods: readonly P[],
  options: PodSelectionOptions,
): PodSelection<P> {
  // Validated by its schema already: it compiles.
  const pattern = options.name_pattern ? compileRegex(options.name_pattern) : undefined;
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
