import { refusals } from '@chaoskit/cluster/testing';
import { describe, expect, it } from 'vitest';
import { defineActivity } from '../definition/define-activity.js';
import { type InvalidArgument, isChaosError } from '../errors/errors.js';
import { checkPodSelection, podSelectionArgs } from './args.js';
import { type PodLike, type PodSelectionOptions, selectPods } from './select-pods.js';

const pod = (name: string, created = '2024-01-01T00:00:00Z'): PodLike => ({
  metadata: { name, creationTimestamp: created },
});
const podsNamed = (...names: string[]) => names.map((name) => pod(name));
const names = (pods: PodLike[]) => pods.map((p) => p.metadata?.name);

const defaults: PodSelectionOptions = {
  mode: 'fixed',
  qty: 1,
  order: 'alphabetic',
  all: false,
  rand: false,
};
const select = (pods: PodLike[], options: Partial<PodSelectionOptions> = {}) =>
  selectPods(pods, { ...defaults, ...options });

const invalid = refusals<InvalidArgument>(isChaosError);

describe('selectPods: how many', () => {
  const four = podsNamed('a', 'b', 'c', 'd');
  const six = podsNamed('a', 'b', 'c', 'd', 'e', 'f');
  const three = podsNamed('a', 'b', 'c');
  it.each<[string, PodLike[], Partial<PodSelectionOptions>, string[]]>([
    ['40% of 4 → 2', four, { mode: 'percentage', qty: 40 }, ['a', 'b']],
    ['50% of 6 → 3', six, { mode: 'percentage', qty: 50 }, ['a', 'b', 'c']],
    ['1% of 3 → 1', three, { mode: 'percentage', qty: 1 }, ['a']],
    ['100% of 3 → 3', three, { mode: 'percentage', qty: 100 }, ['a', 'b', 'c']],
    ['34% of 3 → 2 (1.02 rounds up)', three, { mode: 'percentage', qty: 34 }, ['a', 'b']],
    ['fixed 2 of 4', four, { qty: 2 }, ['a', 'b']],
    ['fixed 0 → none', four, { qty: 0 }, []],
    ['qty above count selects all', three, { qty: 10 }, ['a', 'b', 'c']],
    ['all=true ignores qty', four, { all: true, qty: 1 }, ['a', 'b', 'c', 'd']],
    ['all=true ignores qty 0', four, { all: true, qty: 0 }, ['a', 'b', 'c', 'd']],
    ['all=true ignores rand', four, { all: true, rand: true }, ['a', 'b', 'c', 'd']],
    ['zero pods → empty', [], { qty: 3 }, []],
    ['zero pods, percentage → empty', [], { mode: 'percentage', qty: 50 }, []],
    ['zero pods, rand → empty', [], { rand: true, qty: 2 }, []],
  ])('%s', (_label, pods, options, expected) => {
    expect(names(select(pods, options).selected)).toEqual(expected);
  });
});

describe('selectPods: order', () => {
  it('alphabetic really sorts by name (code-unit order)', () => {
    const pods = podsNamed('web-2', 'api-1', 'web-10', 'Web-1');
    expect(names(select(pods, { all: true }).selected)).toEqual(['Web-1', 'api-1', 'web-10', 'web-2']);
  });

  it('oldest sorts by creationTimestamp, strings or Dates, ties broken by name', () => {
    const pods: PodLike[] = [
      pod('c', '2024-03-01T00:00:00Z'),
      { metadata: { name: 'b', creationTimestamp: new Date('2024-01-01T00:00:00Z') } },
      pod('a', '2024-03-01T00:00:00Z'),
      { metadata: { name: 'no-time' } },
      pod('d', '2023-12-31T23:59:59Z'),
    ];
    expect(names(select(pods, { order: 'oldest', all: true }).selected)).toEqual([
      'd',
      'b',
      'a',
      'c',
      'no-time',
    ]);
    expect(names(select(pods, { order: 'oldest', qty: 2 }).selected)).toEqual(['d', 'b']);
  });

  it('does not modify the input array', () => {
    const pods = podsNamed('b', 'a');
    select(pods, { all: true });
    expect(names(pods)).toEqual(['b', 'a']);
  });
});

describe('selectPods: name_pattern', () => {
  const pods = podsNamed('api-1', 'web-1', 'web-2', 'myweb-1');
  it.each<[string | null, string[]]>([
    ['web', ['myweb-1', 'web-1', 'web-2']],
    ['^web', ['web-1', 'web-2']],
    ['-1$', ['api-1', 'myweb-1', 'web-1']],
    ['^web-\\d+$', ['web-1', 'web-2']],
    ['nothing', []],
    ['', ['api-1', 'myweb-1', 'web-1', 'web-2']],
    [null, ['api-1', 'myweb-1', 'web-1', 'web-2']],
  ])('%j', (pattern, expected) => {
    expect(names(select(pods, { name_pattern: pattern, all: true }).selected)).toEqual(expected);
  });

  it('filters before counting', () => {
    expect(names(select(pods, { name_pattern: 'web', mode: 'percentage', qty: 50 }).selected)).toEqual([
      'myweb-1',
      'web-1',
    ]);
  });
});

describe('selectPods: rand', () => {
  const pods = podsNamed(...Array.from({ length: 20 }, (_, i) => `pod-${String(i).padStart(2, '0')}`));

  it('same seed → same choice, and the seed is reported', () => {
    const first = select(pods, { rand: true, qty: 5, seed: 1234 });
    const second = select(pods, { rand: true, qty: 5, seed: 1234 });
    expect(first.seed).toBe(1234);
    expect(names(first.selected)).toEqual(names(second.selected));
    expect(new Set(names(first.selected)).size).toBe(5);
  });

  it('different seeds → (usually) different choices', () => {
    const choices = new Set(
      Array.from({ length: 10 }, (_, seed) =>
        names(select(pods, { rand: true, qty: 3, seed }).selected).join(),
      ),
    );
    expect(choices.size).toBeGreaterThan(5);
  });

  it('without a seed, reports the one it drew, which replays the choice', () => {
    const first = select(pods, { rand: true, qty: 4 });
    expect(typeof first.seed).toBe('number');
    const replay = select(pods, { rand: true, qty: 4, seed: first.seed });
    expect(names(replay.selected)).toEqual(names(first.selected));
  });

  it('reports no seed when the choice was not random', () => {
    expect(select(pods, { qty: 2, seed: 5 }).seed).toBeUndefined();
    expect(select(pods, { all: true, rand: true }).seed).toBeUndefined();
  });

  it('percentage applies to random choices too', () => {
    expect(select(pods, { rand: true, mode: 'percentage', qty: 12, seed: 9 }).selected).toHaveLength(3);
  });
});

// The selection arguments are checked by their schemas, before any request: selectPods itself
// only ever sees valid values.
const selection = defineActivity({
  name: 'terminate_pods',
  kind: 'action',
  module: 'chaoscluster.pod.actions',
  doc: 'A fixture with the pod selection arguments.',
  args: podSelectionArgs(),
  check: checkPodSelection,
  rbac: [],
  run: () => undefined,
});
const checkSelectionOptions = (_activity: string, options: Record<string, unknown>) =>
  selection.validate(Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)));

describe('the selection arguments', () => {
  const activity = selection.qualifiedName;
  const ok = { mode: 'fixed', qty: 1, order: 'alphabetic' };

  it.each<[string, Record<string, unknown>]>([
    ['defaults', ok],
    ['fixed 0', { ...ok, qty: 0 }],
    ['fixed large', { ...ok, qty: 1000 }],
    ['percentage 1', { ...ok, mode: 'percentage', qty: 1 }],
    ['percentage 100', { ...ok, mode: 'percentage', qty: 100 }],
    ['oldest', { ...ok, order: 'oldest' }],
    ['pattern', { ...ok, name_pattern: '^web-[0-9]+$' }],
    ['null pattern', { ...ok, name_pattern: null }],
    ['seed', { ...ok, seed: 4294967295 }],
  ])('accepts %s', (_label, options) => {
    expect(() => checkSelectionOptions(activity, options)).not.toThrow();
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['unknown mode', { ...ok, mode: 'some' }, 'mode', "one of 'fixed', 'percentage'"],
    ['unknown order', { ...ok, order: 'newest' }, 'order', "one of 'alphabetic', 'oldest'"],
    ['negative qty', { ...ok, qty: -1 }, 'qty', 'an integer at least 0'],
    ['fractional qty', { ...ok, qty: 1.5 }, 'qty', 'an integer at least 0'],
    ['string qty', { ...ok, qty: '2' }, 'qty', 'an integer at least 0'],
    ['percentage 0', { ...ok, mode: 'percentage', qty: 0 }, 'qty', 'from 1 to 100'],
    ['percentage 101', { ...ok, mode: 'percentage', qty: 101 }, 'qty', 'from 1 to 100'],
    ['bad pattern', { ...ok, name_pattern: '(web' }, 'name_pattern', 'a regular expression'],
    ['non-string pattern', { ...ok, name_pattern: 3 }, 'name_pattern', 'a string or null'],
    ['bad seed', { ...ok, seed: -2 }, 'seed', 'from 0 to 4294967295'],
  ])('refuses %s', (_label, options, argument, accepted) => {
    const error = invalid(() => checkSelectionOptions(activity, options));
    expect(error.argument).toBe(argument);
    expect(error.accepted).toContain(accepted);
  });

  it('says why a pattern does not compile', () => {
    const error = invalid(() => checkSelectionOptions(activity, { ...ok, name_pattern: '(web' }));
    expect(error.accepted).toMatch(/error parsing regexp: missing closing \)/);
  });
});

describe('selectPods: a catastrophic pattern on long names', () => {
  it('matches in linear time (RE2): (a+)+b over 200 names of 250 characters', () => {
    const long = Array.from({ length: 200 }, (_, i) =>
      pod(`${'a'.repeat(245)}-${String(i).padStart(4, '0')}`),
    );
    const cpu = process.cpuUsage();
    expect(select(long, { name_pattern: '(a+)+b', all: true }).selected).toEqual([]);
    expect(select(long, { name_pattern: '(a+)+-0001$', all: true }).selected).toHaveLength(1);
    // A backtracking engine would not return at all; the CPU time is reported, not asserted.
    const used = process.cpuUsage(cpu);
    console.log(
      `(a+)+b over 200 names of 250 characters: ${((used.user + used.system) / 1000).toFixed(1)} ms of CPU`,
    );
  });
});
