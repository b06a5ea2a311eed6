// Reading and writing one VirtualService, and the one update mechanism of every action:
// read → edit the matched http routes → write back guarded by the resourceVersion that was
// read → on a conflict (someone else wrote in between), read again and re-apply the edit.

import {
  type ActivityContext,
  ActivityFailed,
  customResource,
  isApiError,
  type ResourceType,
  sleep,
} from '@chaoskit/core';
import type { MeshVersion } from './args.js';
import {
  type FaultEdit,
  type HttpRoute,
  httpRouteLabel,
  knownDestinations,
  planFaultEdit,
  type RouteSelector,
  selectorLabel,
} from './routes.js';

/** A VirtualService as the API server returns it. */
export interface VirtualService {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; resourceVersion: string; [key: string]: unknown };
  spec: { http?: HttpRoute[]; [key: string]: unknown };
  [key: string]: unknown;
}

/** Which VirtualService: the shared arguments of every activity. */
export interface Target {
  virtual_service_name: string;
  ns: string;
  version: MeshVersion;
}

export const GROUP = 'networking.istio.io';
export const PLURAL = 'virtualservices';

/** The VirtualService resource at the version the arguments name. */
export function virtualServices(version: MeshVersion): ResourceType {
  return customResource(GROUP, version.slice(GROUP.length + 1), PLURAL, true, 'virtual service');
}

export function where(target: Target): string {
  return `virtual service '${target.virtual_service_name}' in namespace '${target.ns}' (${target.version})`;
}

/** Read and write one VirtualService: what the edit loop needs (a fake in unit tests). */
export interface VirtualServiceStore {
  /** The current object; ActivityFailed when it does not exist. */
  read(): Promise<VirtualService>;
  /** PUT guarded by body.metadata.resourceVersion; failures come out as ApiError. */
  replace(body: VirtualService, current: VirtualService): Promise<VirtualService>;
}

/** The store of `target` on the cluster the secrets point at, through the call's client. */
export function clusterStore(target: Target, ctx: ActivityContext): VirtualServiceStore {
  const type = virtualServices(target.version);
  const name = target.virtual_service_name;
  return {
    async read() {
      try {
        return await ctx.kube.get<VirtualService>(type, name, target.ns);
      } catch (err) {
        throw notFoundAsFailure(err, target);
      }
    },
    // The client makes the write a server-side dry run in plan mode.
    // `current` is what the edit was made on: the run's record takes the old faults from it.
    replace: (body, current) =>
      ctx.kube.replace<VirtualService>(type, name, body, {
        namespace: target.ns,
        query: { fieldManager: 'chaoskit' },
        before: current,
      }),
  };
}

/**
 * A 404 is ActivityFailed: either the object does not exist, or the cluster does not serve
 * this version of the API at all (no Istio CRDs, or an Istio too old for v1).
 */
function notFoundAsFailure(err: unknown, target: Target): unknown {
  if (!isApiError(err, 'NotFound')) return err;
  // A Status naming the object: it is missing; the bare "404 page not found": no such API.
  const details = (err.body as { details?: { name?: string } } | undefined)?.details;
  if (details?.name) {
    return new ActivityFailed(`${where(target)} does not exist`, { cause: err });
  }
  return new ActivityFailed(
    `the cluster does not serve ${target.version} virtualservices (are Istio's CRDs installed, in a version that has ${target.version}?)`,
    { cause: err },
  );
}

/** Attempts of the read-edit-write loop before giving up on a VirtualService that keeps changing. */
export const MAX_WRITE_ATTEMPTS = 8;

export interface EditOptions {
  /** What the edit does, in words, for the log ("set abort HTTP 503"). */
  what: string;
  log: (message: string) => void;
  dryRun?: boolean;
  attempts?: number;
  /** Pause before attempt n (n ≥ 2); default: jittered exponential from 25 ms, at most 1 s. */
  backoffMs?: (attempt: number) => number;
  /** Ends the pauses (and the requests) at once: Aborted. */
  signal?: AbortSignal;
}

const defaultBackoff = (attempt: number) => Math.min(25 * 2 ** (attempt - 2), 1000) * (0.5 + Math.random());

/**
 * Applies `edit` to the fault of every http route of the VirtualService that `selectors` match,
 * and writes the result back. Nothing matched: ActivityFailed, nothing written. Nothing to
 * change (the routes already are as asked): nothing written, the object as it is is returned.
 * The write carries the resourceVersion that was read, so a concurrent edit is never lost: a
 * conflict re-reads and re-applies the edit, up to `attempts` times. Returns the object stored
 * (in plan mode, the object the server would have stored).
 */
export async function editVirtualService(
  store: VirtualServiceStore,
  target: Target,
  selectors: readonly RouteSelector[],
  edit: FaultEdit,
  options: EditOptions,
): Promise<VirtualService> {
  const attempts = options.attempts ?? MAX_WRITE_ATTEMPTS;
  const backoff = options.backoffMs ?? defaultBackoff;
  let lastConflict: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (attempt > 1) await sleep(backoff(attempt), options.signal);
    const current = await store.read();
    const http = Array.isArray(current.spec?.http) ? current.spec.http : [];
    const plan = planFaultEdit(http, selectors, edit);
    if (plan.matched.length === 0) throw noMatch(target, selectors, http);
    const routes = plan.matched.map((i) => httpRouteLabel(http, i)).join(', ');
    if (plan.changed.length === 0) {
      options.log(
        `${where(target)}: http route(s) ${routes} already as asked (${options.what}); nothing written`,
      );
      return current;
    }
    const body: VirtualService = { ...current, spec: { ...current.spec, http: plan.http } };
    try {
      const stored = await store.replace(body, current);
      const changed = plan.changed.map((i) => httpRouteLabel(http, i)).join(', ');
      options.log(
        `${options.dryRun ? '(plan, server-side dry run) ' : ''}${where(target)}: ${options.what} on http route(s) ${changed}`,
      );
      return stored;
    } catch (err) {
      if (isApiError(err, 'NotFound')) {
        throw new ActivityFailed(`${where(target)} was deleted while being edited`, { cause: err });
      }
      // A write someone else's came before: read again and re-apply. Overload and dropped
      // connections were retried by core already, within its budget (one retry policy).
      if (!isApiError(err, 'Conflict')) throw err;
      lastConflict = err;
      options.log(
        `${where(target)} changed since it was read (resourceVersion ${current.metadata.resourceVersion}): reading it again (attempt ${attempt + 1} of ${attempts})`,
      );
    }
  }
  throw new ActivityFailed(
    `${where(target)} kept changing: ${attempts} attempts to write it back over concurrent edits failed; nothing was changed by this activity`,
    { cause: lastConflict },
  );
}

function noMatch(
  target: Target,
  selectors: readonly RouteSelector[],
  http: readonly HttpRoute[],
): ActivityFailed {
  const wanted = selectors.map(selectorLabel).join(', ');
  const known = knownDestinations(http);
  const has =
    http.length === 0
      ? 'it has no http routes'
      : known.length === 0
        ? 'none of its http routes has a route destination'
        : `its http routes send to ${known.join(', ')}`;
  return new ActivityFailed(
    `no http route of ${where(target)} sends to ${wanted}; nothing was changed (${has})`,
  );
}

/** The run of every action: edit the VirtualService the arguments name, on the routes they select. */
export function editTarget(
  args: Target & { routes: RouteSelector[] },
  ctx: ActivityContext,
  edit: FaultEdit,
  what: string,
): Promise<VirtualService> {
  return editVirtualService(clusterStore(args, ctx), args, args.routes, edit, {
    what,
    log: ctx.log,
    ...(ctx.dryRun ? { dryRun: true } : {}),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
}
