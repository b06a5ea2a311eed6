import { ApiError, type ApiErrorCode, isChaosError } from '@chaoskit/core';
import { describe, expect, it } from 'vitest';
import { type RouteSelector, removeFaultKind, setFaultKind } from './routes.js';
import {
  type EditOptions,
  editVirtualService,
  type Target,
  type VirtualService,
  type VirtualServiceStore,
} from './virtual-service.js';

const target: Target = { virtual_service_name: 'reviews', ns: 'shop', version: 'networking.istio.io/v1' };
const reviewsV2: RouteSelector[] = [{ destination: { host: 'reviews', subset: 'v2' } }];

function vs(): VirtualService {
  return {
    apiVersion: 'networking.istio.io/v1',
    kind: 'VirtualService',
    metadata: { name: 'reviews', namespace: 'shop', resourceVersion: '1' },
    spec: {
      hosts: ['reviews'],
      http: [
        { name: 'jason', route: [{ destination: { host: 'reviews', subset: 'v2' } }] },
        { name: 'rest', route: [{ destination: { host: 'reviews', subset: 'v1' } }] },
      ],
    },
  };
}

/** A request the API server refused, as core's client reports it. */
const apiError = (code: ApiErrorCode, status: number, reason: string, serverMessage: string) =>
  new ApiError(code, { status, reason, serverMessage, body: {} });

const conflict = () => apiError('Conflict', 409, 'Conflict', 'the object has been modified');

/** An in-memory API server for one object: PUT is refused unless the resourceVersion is current. */
class FakeStore implements VirtualServiceStore {
  object = vs();
  reads = 0;
  writes: VirtualService[] = [];
  /** Runs before a write is checked: a concurrent writer getting in between read and write. */
  beforeWrite: ((store: FakeStore) => void) | undefined;

  async read() {
    this.reads++;
    return structuredClone(this.object);
  }

  async replace(body: VirtualService) {
    this.beforeWrite?.(this);
    this.writes.push(structuredClone(body));
    if (body.metadata.resourceVersion !== this.object.metadata.resourceVersion) throw conflict();
    this.commit(body);
    return structuredClone(this.object);
  }

  /** Every write from now on fails with `error`. */
  failWrites(error: unknown) {
    this.replace = async () => {
      throw error;
    };
  }

  commit(next: VirtualService) {
    this.object = structuredClone(next);
    this.object.metadata.resourceVersion = String(Number(this.object.metadata.resourceVersion) + 1);
  }
}

const quiet = { log: () => {}, backoffMs: () => 0 };

/** The edit of most tests: an abort HTTP 503 on the route to reviews v2. */
const abort503 = (store: VirtualServiceStore, options: Partial<EditOptions> = {}) =>
  editVirtualService(store, target, reviewsV2, setFaultKind('abort', { httpStatus: 503 }), {
    what: 'x',
    ...quiet,
    ...options,
  });

describe('editVirtualService', () => {
  it('writes the edit with the resourceVersion it read and returns what was stored', async () => {
    const store = new FakeStore();
    const result = await abort503(store);
    expect(store.writes).toHaveLength(1);
    expect(store.writes[0]!.metadata.resourceVersion).toBe('1');
    expect(result).toEqual(store.object);
    expect(result.spec.http![0]!.fault).toEqual({ abort: { httpStatus: 503 } });
    expect(result.spec.http![1]).toEqual(vs().spec.http![1]);
    expect(result.spec.hosts).toEqual(['reviews']);
  });

  it('a concurrent edit between the read and the write survives: conflict, read again, re-apply', async () => {
    const store = new FakeStore();
    let once = true;
    store.beforeWrite = (s) => {
      if (!once) return;
      once = false;
      const other = structuredClone(s.object);
      other.spec.http![1]!.timeout = '3s';
      other.spec.http![0]!.fault = { delay: { fixedDelay: '1s' } };
      s.commit(other);
    };
    const logs: string[] = [];
    const result = await abort503(store, { log: (m) => logs.push(m) });
    expect(store.reads).toBe(2);
    expect(store.writes.map((w) => w.metadata.resourceVersion)).toEqual(['1', '2']);
    expect(result.metadata.resourceVersion).toBe('3');
    expect(result.spec.http![1]!.timeout).toBe('3s');
    // The edit is re-applied to what the other writer left: its delay is kept beside the abort.
    expect(result.spec.http![0]!.fault).toEqual({ delay: { fixedDelay: '1s' }, abort: { httpStatus: 503 } });
    expect(logs.some((l) => /changed since it was read \(resourceVersion 1\)/.test(l))).toBe(true);
  });

  it('gives up after the bounded number of attempts with ActivityFailed', async () => {
    const store = new FakeStore();
    store.beforeWrite = (s) => s.commit(s.object);
    const err = await abort503(store, { attempts: 3 }).catch((e: unknown) => e);
    expect(isChaosError(err, 'ActivityFailed')).toBe(true);
    expect((err as Error).message).toMatch(/kept changing: 3 attempts/);
    expect(store.writes).toHaveLength(3);
  });

  it('no matching route: ActivityFailed naming what the routes send to, and no write', async () => {
    const store = new FakeStore();
    const err = await editVirtualService(
      store,
      target,
      [{ destination: { host: 'reviews', subset: 'v9' } }],
      setFaultKind('abort', { httpStatus: 503 }),
      { what: 'abort', ...quiet },
    ).catch((e: unknown) => e);
    expect(isChaosError(err, 'ActivityFailed')).toBe(true);
    expect((err as Error).message).toBe(
      "no http route of virtual service 'reviews' in namespace 'shop' (networking.istio.io/v1) sends to reviews/v9; nothing was changed (its http routes send to reviews/v2, reviews/v1)",
    );
    expect(store.writes).toHaveLength(0);
  });

  it('a virtual service without http routes: ActivityFailed, no write', async () => {
    const store = new FakeStore();
    delete store.object.spec.http;
    const err = await editVirtualService(store, target, reviewsV2, removeFaultKind('abort'), {
      what: 'x',
      ...quiet,
    }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/it has no http routes/);
    expect(store.writes).toHaveLength(0);
  });

  it('matched but already as asked: no write, the object is returned as it is', async () => {
    const store = new FakeStore();
    const result = await editVirtualService(store, target, reviewsV2, removeFaultKind('abort'), {
      what: 'x',
      ...quiet,
    });
    expect(store.writes).toHaveLength(0);
    expect(result).toEqual(vs());
  });

  it('deleted between read and write: ActivityFailed; other API errors pass through unchanged', async () => {
    const store = new FakeStore();
    store.failWrites(apiError('NotFound', 404, 'NotFound', 'gone'));
    const gone = await abort503(store).catch((e: unknown) => e);
    expect((gone as Error).message).toMatch(/was deleted while being edited/);
    const forbidden = apiError('Forbidden', 403, 'Forbidden', 'no');
    store.failWrites(forbidden);
    const err = await abort503(store).catch((e: unknown) => e);
    expect(err).toBe(forbidden);
  });

  it('a write that went through but whose answer was lost is not applied twice: the retry is a conflict, the read again finds the edit', async () => {
    // Core retries a write whose answer was lost (one retry policy); guarded by the
    // resourceVersion, that retry of a write the server had applied is refused with a 409.
    const store = new FakeStore();
    const replace = store.replace.bind(store);
    let first = true;
    store.replace = async (body) => {
      await replace(body);
      if (!first) return store.object;
      first = false;
      return replace(body);
    };
    const result = await abort503(store);
    expect(store.writes.filter((w) => w.metadata.resourceVersion === '1')).toHaveLength(2);
    expect(store.object.metadata.resourceVersion).toBe('2');
    expect(store.reads).toBe(2);
    expect(result.spec.http![0]!.fault).toEqual({ abort: { httpStatus: 503 } });
  });

  it('a failure other than a conflict is not retried here: core has retried it already', async () => {
    const store = new FakeStore();
    const unavailable = apiError('Unavailable', 503, '', 'down');
    store.failWrites(unavailable);
    const err = await abort503(store).catch((e: unknown) => e);
    expect(err).toBe(unavailable);
    expect(store.reads).toBe(1);
  });

  it('the pause before reading again ends when the signal aborts: Aborted, its cause the reason', async () => {
    const store = new FakeStore();
    const controller = new AbortController();
    const reason = new Error('interrupted by SIGINT');
    store.beforeWrite = (s) => {
      // Someone else writes first, and the run is interrupted while this one waits to retry.
      s.commit(s.object);
      controller.abort(reason);
    };
    const err = await abort503(store, { backoffMs: () => 3_600_000, signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect(isChaosError(err, 'Aborted')).toBe(true);
    expect((err as Error).cause).toBe(reason);
    expect(store.reads).toBe(1);
  });
});
