import { describe, expect, it } from 'vitest';
import { defineActivity } from '../definition/define-activity.js';
import { isChaosError } from '../errors/errors.js';
import { lastArg } from './args.js';
import { sinceSeconds } from './parse-since.js';

const activity = 'chaoscluster.pod.probes.read_pod_logs';
const lastProbe = defineActivity({
  name: 'read_pod_logs',
  kind: 'probe',
  module: 'chaoscluster.pod.probes',
  doc: 'A probe with the `last` argument.',
  args: { last: lastArg('Only the last N seconds.') },
  rbac: [],
  run: (args) => args.last,
});

describe('sinceSeconds: accepted', () => {
  it.each<[string | number, number]>([
    [0, 0],
    [90, 90],
    ['0', 0],
    ['120', 120],
    [' 45 ', 45],
    ['60s', 60],
    ['10s', 10],
    ['90s', 90],
    ['2m', 120],
    ['30m', 1800],
    ['1h', 3600],
    ['1h30m', 5400],
    ['1d', 86_400],
    ['1w', 604_800],
    ['1h 30m', 5400],
    ['5 minutes', 300],
    ['5 min', 300],
    ['5 mins', 300],
    ['5min', 300],
    ['1 minute', 60],
    ['90 seconds', 90],
    ['1 second', 1],
    ['30 secs', 30],
    ['2 hours', 7200],
    ['1 hour', 3600],
    ['2 hrs', 7200],
    ['1 hour 30 minutes', 5400],
    ['1 hour, 30 minutes', 5400],
    ['1 hour and 30 minutes', 5400],
    ['1 day', 86_400],
    ['3 days', 259_200],
    ['1 week', 604_800],
    ['2 weeks', 1_209_600],
    ['10 minutes ago', 600],
    ['1h30m ago', 5400],
    ['5 Minutes', 300],
    ['0s', 0],
  ])('%j → %s', (value, seconds) => {
    expect(sinceSeconds(value)).toBe(seconds);
  });
});

describe('sinceSeconds and the last argument: refused', () => {
  it.each<unknown>([
    'garbage',
    'in 5 minutes',
    '-5',
    -5,
    '',
    '   ',
    'ago',
    'minutes',
    '5 ago',
    '5 fortnights',
    '1h and',
    '1h,,2m',
    '5 constructor',
    `1${' '.repeat(300)}m`,
    '1.5h',
    1.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    '2024-01-01',
    'yesterday',
    'now',
    '5 minutes from now',
    'h1',
    '1h,',
    '99999999999999999999',
    null,
    true,
  ])('%j', (value) => {
    expect(sinceSeconds(value as string)).toBeUndefined();
    // As an argument, it is refused before any request, saying what is accepted.
    if (value === null) return; // null means "no limit" for the argument
    let caught: unknown;
    try {
      lastProbe.validate({ last: value });
    } catch (error) {
      caught = error;
    }
    expect(isChaosError(caught, 'InvalidArgument')).toBe(true);
    const error = caught as { argument: string; accepted: string; message: string };
    expect(error.argument).toBe('last');
    expect(error.accepted).toContain('"1h30m"');
    expect(error.message).toContain(`${activity}: argument 'last'`);
  });

  it('shows what was given, and that absolute dates are not supported', () => {
    expect(() => lastProbe.validate({ last: 'garbage' })).toThrow(
      /absolute dates are not supported \(got the string 'garbage'\)$/,
    );
  });

  it('gives run whole seconds', () => {
    expect(lastProbe.validate({ last: '1h30m ago' }).last).toBe(5400);
    expect(lastProbe.validate({}).last).toBeNull();
  });
});
