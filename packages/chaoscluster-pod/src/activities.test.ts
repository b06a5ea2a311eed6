// Argument validation of the pod activities: what is refused before any request, and why.
import { expectAsDeclared, refusals } from '@chaoskit/cluster/testing';
import { isChaosError } from '@chaoskit/core';
import { describe, expect, it } from 'vitest';
import { execInPodsActivity } from './exec-in-pods.js';
import { activities } from './index.js';
import { podsInConditionsActivity } from './pods-in-conditions.js';
import { readPodLogsActivity } from './read-pod-logs.js';

const refusal = refusals(isChaosError);

describe('the pod activities', () => {
  it('are every activity the package defines, in the modules its package.json declares', () =>
    expectAsDeclared(import.meta.url));

  it('have the defaults of 0.25.1', () => {
    const defaults = (name: string) =>
      Object.fromEntries(
        activities.find((a) => a.name === name)!.arguments.map((a) => [a.name, a.required ? '*' : a.default]),
      );
    expect(defaults('exec_in_pods')).toMatchObject({
      cmd: '*',
      label_selector: null,
      name_pattern: null,
      all: false,
      rand: false,
      mode: 'fixed',
      qty: 1,
      ns: 'default',
      order: 'alphabetic',
      container_name: null,
      request_timeout: 60,
    });
    expect(defaults('read_pod_logs')).toEqual({
      name: null,
      last: null,
      ns: 'default',
      from_previous: false,
      label_selector: 'name in ({name})',
      container_name: null,
    });
    expect(defaults('delete_pods')).toEqual({ name: '*', ns: 'default', label_selector: 'name in ({name})' });
    expect(defaults('pod_is_not_available')).toEqual({
      name: '*',
      ns: 'default',
      label_selector: 'name in ({name})',
    });
    expect(defaults('all_pods_healthy')).toEqual({ ns: 'default' });
    expect(defaults('count_pods')).toEqual({ label_selector: '*', phase: null, ns: 'default' });
    expect(defaults('pods_in_phase')).toEqual({ label_selector: '*', phase: 'Running', ns: 'default' });
    expect(defaults('pods_not_in_phase')).toEqual({ label_selector: '*', phase: 'Running', ns: 'default' });
    expect(defaults('pods_in_conditions')).toEqual({ label_selector: '*', conditions: '*', ns: 'default' });
  });
});

describe('exec_in_pods arguments', () => {
  it('accepts a string or a list of strings', () => {
    expect(execInPodsActivity.validate({ cmd: 'echo hi' }).cmd).toBe('echo hi');
    expect(execInPodsActivity.validate({ cmd: ['sh', '-c', 'echo hi | cat'] }).cmd).toEqual([
      'sh',
      '-c',
      'echo hi | cat',
    ]);
  });

  it('refuses shell operators, saying to use sh -c', () => {
    const e = refusal(() => execInPodsActivity.validate({ cmd: 'echo hi > /tmp/x' }));
    expect(e.argument).toBe('cmd');
    expect(e.message).toContain('["sh", "-c", "…"]');
  });

  it('refuses a command of another type, a missing one and a timeout below 1 s', () => {
    expect(refusal(() => execInPodsActivity.validate({ cmd: 42 })).argument).toBe('cmd');
    expect(refusal(() => execInPodsActivity.validate({ cmd: ['ls', 1] })).argument).toBe('cmd');
    expect(refusal(() => execInPodsActivity.validate({})).argument).toBe('cmd');
    expect(refusal(() => execInPodsActivity.validate({ cmd: 'ls', request_timeout: 0 })).argument).toBe(
      'request_timeout',
    );
  });
});

describe('read_pod_logs arguments', () => {
  it('accepts a number of seconds and human durations for last', () => {
    // Validated into whole seconds (core's lastArg), which is what run receives.
    for (const [last, seconds] of [
      [90, 90],
      ['90', 90],
      ['5 minutes', 300],
      ['10 minutes ago', 600],
      ['1h30m', 5400],
      ['2 hours', 7200],
    ] as const)
      expect(readPodLogsActivity.validate({ name: 'web', last }).last).toBe(seconds);
  });

  it('refuses an unparseable last, saying what is accepted', () => {
    const e = refusal(() => readPodLogsActivity.validate({ name: 'web', last: 'yesterday-ish' }));
    expect(e.argument).toBe('last');
    expect(e.message).toContain('5 minutes');
    expect(refusal(() => readPodLogsActivity.validate({ name: 'web', last: -5 })).argument).toBe('last');
  });

  it('needs a name or a label_selector of its own', () => {
    const e = refusal(() => readPodLogsActivity.validate({}));
    expect(e.argument).toBe('name');
    expect(e.message).toContain('label_selector');
    expect(readPodLogsActivity.validate({ label_selector: 'app=web' }).name).toBeNull();
  });
});

describe('pods_in_conditions arguments', () => {
  it('wants a non-empty list of {type, status} with status True, False or Unknown', () => {
    const ok = { label_selector: 'app=web', conditions: [{ type: 'Ready', status: 'True' }] };
    expect(podsInConditionsActivity.validate(ok).conditions).toEqual(ok.conditions);
    for (const conditions of [
      [],
      [{ type: 'Ready', status: true }],
      [{ type: 'Ready' }],
      [{ type: 'Ready', status: 'True', reason: 'x' }],
      { type: 'Ready', status: 'True' },
    ])
      expect(
        refusal(() => podsInConditionsActivity.validate({ label_selector: 'app=web', conditions })).argument,
      ).toBe('conditions');
  });
});
