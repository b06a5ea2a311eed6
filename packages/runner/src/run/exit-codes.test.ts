import { describe, expect, it } from 'vitest';
import { EXIT, runExitCode } from './exit-codes.js';
import type { ActivityRun, HypothesisState, Journal } from './index.js';

const activity = (
  type: 'action' | 'probe',
  status: ActivityRun['status'],
  exception?: string,
): ActivityRun => ({
  activity: { type, name: `${type}-${status}`, provider: { type: 'process', path: 'true' } },
  output: null,
  start: '',
  end: '',
  duration: 0,
  status,
  ...(exception ? { exception: [exception] } : {}),
});
const state = (met: boolean, probe: ActivityRun['status'] = 'succeeded'): HypothesisState => ({
  steady_state_met: met,
  probes: [activity('probe', probe)],
});

function journal(over: Partial<Journal> = {}): Journal {
  return {
    'chaoslib-version': 'x',
    'chaoskit-version': 'y',
    platform: '',
    node: '',
    experiment: {},
    start: '',
    status: 'completed',
    deviated: false,
    steady_states: { before: state(true), after: state(true), during: [] },
    run: [activity('action', 'succeeded')],
    rollbacks: [],
    ...over,
  };
}

const refusal = 'Refused: chaoscluster.node.actions.drain_nodes: the selection is every node';

describe('runExitCode (D89)', () => {
  it.each<[string, Partial<Journal>, number]>([
    ['completed', {}, EXIT.ok],
    [
      'deviated after the method',
      { deviated: true, steady_states: { before: state(true), after: state(false), during: [] } },
      EXIT.deviated,
    ],
    [
      'not met before the method (as Chaos Toolkit)',
      { run: [], steady_states: { before: state(false), after: null, during: [] } },
      EXIT.ok,
    ],
    [
      'a method action failed, the run completed',
      { run: [activity('action', 'failed', 'Forbidden: no')] },
      EXIT.failed,
    ],
    [
      'a hypothesis probe could not run',
      { status: 'failed', steady_states: { before: state(false, 'failed'), after: null, during: [] } },
      EXIT.failed,
    ],
    [
      'a rail refused the first action',
      { status: 'aborted', run: [activity('action', 'failed', refusal)] },
      EXIT.refused,
    ],
    [
      'a rail refused an action after another changed things',
      { status: 'aborted', run: [activity('action', 'succeeded'), activity('action', 'failed', refusal)] },
      EXIT.failed,
    ],
    [
      '--fail-fast on a deviation during the method',
      { status: 'failed', steady_states: { before: state(true), after: null, during: [state(false)] } },
      EXIT.deviated,
    ],
    ['a rollback failed', { rollbacks: [activity('action', 'failed', 'NotFound: x')] }, EXIT.leftInPlace],
    ['rollbacks abandoned', { rollbacks: [activity('action', 'skipped')] }, EXIT.leftInPlace],
    [
      'a change left in place, and deviated, and an action failed',
      {
        deviated: true,
        left_in_place: ['deployment web'],
        run: [activity('action', 'failed', 'Forbidden: x')],
      },
      EXIT.leftInPlace,
    ],
    ['stopped by a control', { status: 'interrupted' }, EXIT.failed],
  ])('%s', (_what, over, code) => {
    expect(runExitCode(journal(over))).toBe(code);
  });

  it('--fail-on-deviation: a steady state not met before or during the method is a deviation', () => {
    const before = journal({ run: [], steady_states: { before: state(false), after: null, during: [] } });
    expect(runExitCode(before, { failOnDeviation: true })).toBe(EXIT.deviated);
    const during = journal({
      steady_states: { before: state(true), after: state(true), during: [state(false)] },
    });
    expect(runExitCode(during)).toBe(EXIT.ok);
    expect(runExitCode(during, { failOnDeviation: true })).toBe(EXIT.deviated);
  });

  it('a signal: 130 or 143, over failed and deviated, under left in place', () => {
    const interrupted = journal({ status: 'interrupted', deviated: true });
    expect(runExitCode(interrupted, { signal: 'SIGINT' })).toBe(EXIT.sigint);
    expect(runExitCode(interrupted, { signal: 'SIGTERM' })).toBe(EXIT.sigterm);
    const left = journal({ status: 'interrupted', left_in_place: ['node n1 (cordoned)'] });
    expect(runExitCode(left, { signal: 'SIGTERM' })).toBe(EXIT.leftInPlace);
  });
});
