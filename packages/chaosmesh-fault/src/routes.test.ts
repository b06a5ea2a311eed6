import { describe, expect, it } from 'vitest';
import {
  destinationMatches,
  type HttpRoute,
  httpRouteMatches,
  knownDestinations,
  planFaultEdit,
  type RouteSelector,
  removeFault,
  removeFaultKind,
  replaceFault,
  setFaultKind,
} from './routes.js';

const sel = (host: string, subset?: string): RouteSelector => ({
  destination: subset === undefined ? { host } : { host, subset },
});

// The shape of the conformance fixture: two destinations in one entry, one without subset,
// one with a delay already, one without `route` at all.
const http = (): HttpRoute[] => [
  { name: 'jason', route: [{ destination: { host: 'reviews', subset: 'v2' } }] },
  {
    name: 'split',
    route: [
      { destination: { host: 'reviews', subset: 'v1' }, weight: 80 },
      { destination: { host: 'reviews', subset: 'v3' }, weight: 20 },
    ],
  },
  { name: 'ratings', route: [{ destination: { host: 'ratings' } }] },
  {
    name: 'slow',
    route: [{ destination: { host: 'details', subset: 'v1' } }],
    fault: { delay: { fixedDelay: '2s', percentage: { value: 10 } } },
  },
  { name: 'moved', redirect: { uri: '/new' } },
];

describe('destinationMatches', () => {
  it('host and subset both given: both must be equal', () => {
    expect(destinationMatches(sel('reviews', 'v2'), { host: 'reviews', subset: 'v2' })).toBe(true);
    expect(destinationMatches(sel('reviews', 'v2'), { host: 'reviews', subset: 'v1' })).toBe(false);
    expect(destinationMatches(sel('reviews', 'v2'), { host: 'ratings', subset: 'v2' })).toBe(false);
    expect(destinationMatches(sel('reviews', 'v2'), { host: 'reviews' })).toBe(false);
  });

  it('a selector without subset matches by host: with or without a subset in the virtual service', () => {
    expect(destinationMatches(sel('reviews'), { host: 'reviews', subset: 'v1' })).toBe(true);
    expect(destinationMatches(sel('ratings'), { host: 'ratings' })).toBe(true);
    expect(destinationMatches(sel('ratings'), { host: 'ratings.default.svc.cluster.local' })).toBe(false);
  });

  it('a missing destination or host never matches', () => {
    expect(destinationMatches(sel('reviews'), undefined)).toBe(false);
    expect(destinationMatches(sel('reviews'), {})).toBe(false);
  });
});

describe('httpRouteMatches', () => {
  it('any destination of the entry, any selector', () => {
    const [jason, split, ratings, , moved] = http();
    expect(httpRouteMatches(split!, [sel('reviews', 'v3')])).toBe(true);
    expect(httpRouteMatches(split!, [sel('nope'), sel('reviews', 'v1')])).toBe(true);
    expect(httpRouteMatches(jason!, [sel('reviews', 'v3')])).toBe(false);
    expect(httpRouteMatches(ratings!, [sel('ratings')])).toBe(true);
    expect(httpRouteMatches(ratings!, [sel('ratings', 'v1')])).toBe(false);
    expect(httpRouteMatches(moved!, [sel('reviews')])).toBe(false);
  });
});

describe('fault edits', () => {
  const abort = { httpStatus: 503 };
  const delay = { fixedDelay: '5s', percentage: { value: 50 } };

  it('setFaultKind sets one kind and keeps the other', () => {
    expect(setFaultKind('abort', abort)(undefined)).toEqual({ abort });
    expect(setFaultKind('abort', abort)({ delay })).toEqual({ abort, delay });
    expect(setFaultKind('delay', delay)({ abort, delay: { fixedDelay: '1s' } })).toEqual({ abort, delay });
  });

  it('removeFaultKind removes one kind, keeps the other, and drops an empty fault', () => {
    expect(removeFaultKind('abort')({ abort, delay })).toEqual({ delay });
    expect(removeFaultKind('delay')({ abort, delay })).toEqual({ abort });
    expect(removeFaultKind('abort')({ abort })).toBeUndefined();
    expect(removeFaultKind('abort')({ delay })).toEqual({ delay });
    expect(removeFaultKind('abort')(undefined)).toBeUndefined();
  });

  it('replaceFault replaces the whole fault; removeFault removes it', () => {
    expect(replaceFault({ abort })({ delay })).toEqual({ abort });
    expect(removeFault({ abort, delay })).toBeUndefined();
  });
});

describe('planFaultEdit', () => {
  it('edits only the matched entries and leaves the input as it was', () => {
    const before = http();
    const snapshot = structuredClone(before);
    const plan = planFaultEdit(
      before,
      [sel('reviews', 'v3'), sel('details', 'v1')],
      setFaultKind('abort', { httpStatus: 500 }),
    );
    expect(before).toEqual(snapshot);
    expect(plan.matched).toEqual([1, 3]);
    expect(plan.changed).toEqual([1, 3]);
    const expected = structuredClone(snapshot);
    expected[1]!.fault = { abort: { httpStatus: 500 } };
    expected[3]!.fault = {
      delay: { fixedDelay: '2s', percentage: { value: 10 } },
      abort: { httpStatus: 500 },
    };
    expect(plan.http).toEqual(expected);
    // Untouched entries are the very same objects.
    expect(plan.http[0]).toBe(before[0]);
    expect(plan.http[4]).toBe(before[4]);
  });

  it('a host-only selector matches every entry with that host', () => {
    expect(planFaultEdit(http(), [sel('reviews')], removeFault).matched).toEqual([0, 1]);
  });

  it('matched but unchanged: nothing in changed (a remove where there is nothing to remove)', () => {
    const plan = planFaultEdit(http(), [sel('reviews')], removeFaultKind('abort'));
    expect(plan.matched).toEqual([0, 1]);
    expect(plan.changed).toEqual([]);
    expect(plan.http).toEqual(http());
  });

  it('removing the last kind removes the fault key itself', () => {
    const plan = planFaultEdit(http(), [sel('details')], removeFaultKind('delay'));
    expect(plan.changed).toEqual([3]);
    expect(plan.http[3]).toEqual({
      name: 'slow',
      route: [{ destination: { host: 'details', subset: 'v1' } }],
    });
    expect('fault' in plan.http[3]!).toBe(false);
  });

  it('nothing matched: no index, the same list', () => {
    const plan = planFaultEdit(http(), [sel('reviews', 'v9')], removeFault);
    expect(plan).toEqual({ http: http(), matched: [], changed: [] });
  });

  it('knownDestinations lists what the routes send to, for messages', () => {
    expect(knownDestinations(http())).toEqual([
      'reviews/v2',
      'reviews/v1',
      'reviews/v3',
      'ratings',
      'details/v1',
    ]);
  });
});
