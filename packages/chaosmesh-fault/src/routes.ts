// Route matching and fault editing: pure functions over a VirtualService's `spec.http`, shared
// by every action of the package.

import { isDeepStrictEqual } from 'node:util';

/** One item of the `routes` argument: which destination's http routes to act on. */
export interface RouteSelector {
  destination: { host: string; subset?: string | undefined };
}

/** Istio's Percent. */
export interface Percent {
  value: number;
}

export interface AbortFault {
  httpStatus: number;
  percentage?: Percent;
}

export interface DelayFault {
  fixedDelay: string;
  percentage?: Percent;
}

/** Istio's HTTPFaultInjection, as this package writes it. */
export interface Fault {
  abort?: AbortFault;
  delay?: DelayFault;
}

/** An http route of a VirtualService (`spec.http[i]`); only the keys read here are typed. */
export interface HttpRoute {
  name?: string;
  route?: Array<{ destination?: { host?: string; subset?: string } } & Record<string, unknown>>;
  fault?: Record<string, unknown>;
  [key: string]: unknown;
}

export type FaultKind = 'abort' | 'delay';

/**
 * A route selector matches a destination with the same host and, when the selector names a
 * subset, the same subset. A selector without subset matches every destination of the host,
 * with or without a subset.
 */
export function destinationMatches(
  selector: RouteSelector,
  destination: { host?: unknown; subset?: unknown } | undefined,
): boolean {
  if (!destination || destination.host !== selector.destination.host) return false;
  const subset = selector.destination.subset;
  return subset === undefined || destination.subset === subset;
}

/** An http route matches when any destination of its `route` list matches any selector. */
export function httpRouteMatches(entry: HttpRoute, selectors: readonly RouteSelector[]): boolean {
  const route = Array.isArray(entry?.route) ? entry.route : [];
  return route.some((item) => selectors.some((s) => destinationMatches(s, item?.destination)));
}

/** A fault edit: the current fault of a matched http route (or undefined) → the new one. */
export type FaultEdit = (fault: Record<string, unknown> | undefined) => Record<string, unknown> | undefined;

/** Sets one kind of fault, keeping the other. */
export const setFaultKind =
  (kind: FaultKind, value: AbortFault | DelayFault): FaultEdit =>
  (fault) => ({ ...fault, [kind]: value });

/** Removes one kind of fault, keeping the other; the fault goes when nothing is left in it. */
export const removeFaultKind =
  (kind: FaultKind): FaultEdit =>
  (fault) => {
    if (!fault || !(kind in fault)) return fault;
    const { [kind]: _removed, ...rest } = fault;
    return Object.keys(rest).length > 0 ? rest : undefined;
  };

/** Replaces the whole fault. */
export const replaceFault =
  (value: Fault): FaultEdit =>
  () => ({ ...value });

/** Removes the whole fault. */
export const removeFault: FaultEdit = () => undefined;

export interface FaultPlan {
  /** The new `spec.http` (a copy; the input is left as it was). */
  http: HttpRoute[];
  /** Indexes of the http routes the selectors matched. */
  matched: number[];
  /** Indexes of the matched http routes whose fault the edit changed. */
  changed: number[];
}

/** Applies `edit` to the fault of every http route the selectors match; the others are kept as they are. */
export function planFaultEdit(
  http: readonly HttpRoute[],
  selectors: readonly RouteSelector[],
  edit: FaultEdit,
): FaultPlan {
  const matched: number[] = [];
  const changed: number[] = [];
  const next = http.map((entry, index) => {
    if (!httpRouteMatches(entry, selectors)) return entry;
    matched.push(index);
    const before = entry.fault;
    const after = edit(before === undefined ? undefined : structuredClone(before));
    if (isDeepStrictEqual(before, after)) return entry;
    changed.push(index);
    const copy: HttpRoute = { ...entry };
    if (after === undefined) delete copy.fault;
    else copy.fault = after;
    return copy;
  });
  return { http: next, matched, changed };
}

/** `reviews/v2`, `ratings` (no subset): how a destination is named in messages. */
export function destinationLabel(destination: { host?: unknown; subset?: unknown } | undefined): string {
  if (!destination || typeof destination.host !== 'string') return '(no host)';
  return typeof destination.subset === 'string'
    ? `${destination.host}/${destination.subset}`
    : destination.host;
}

export function selectorLabel(selector: RouteSelector): string {
  return selector.destination.subset === undefined
    ? `${selector.destination.host} (any subset)`
    : `${selector.destination.host}/${selector.destination.subset}`;
}

/** Every destination the http routes send to, deduplicated, for "nothing matched" messages. */
export function knownDestinations(http: readonly HttpRoute[]): string[] {
  const seen = new Set<string>();
  for (const entry of http) {
    for (const item of Array.isArray(entry?.route) ? entry.route : [])
      seen.add(destinationLabel(item?.destination));
  }
  return [...seen];
}

/** `#0 'jason'`: an http route named in messages by index and, when it has one, by name. */
export function httpRouteLabel(http: readonly HttpRoute[], index: number): string {
  const name = http[index]?.name;
  return typeof name === 'string' && name !== '' ? `#${index} '${name}'` : `#${index}`;
}

/** `abort HTTP 503 for 50% of requests`, `delay 5s`: a fault in words. */
export function describeFault(fault: Fault): string {
  const parts: string[] = [];
  const share = (p: Percent | undefined) => (p === undefined ? '' : ` for ${p.value}% of requests`);
  if (fault.abort) parts.push(`abort HTTP ${fault.abort.httpStatus}${share(fault.abort.percentage)}`);
  if (fault.delay) parts.push(`delay ${fault.delay.fixedDelay}${share(fault.delay.percentage)}`);
  return parts.join(' and ');
}
