import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineActivity } from './define-activity.js';
import { ActivityRegistry, canonicalModule, registry } from './registry.js';

function activity(module: string, name: string) {
  return defineActivity({
    name,
    kind: module.endsWith('probes') ? 'probe' : 'action',
    module,
    doc: `${name} docs`,
    args: { ns: z.string().default('default').describe('Namespace.') },
    rbac: [],
    run: (args) => args.ns,
  });
}

const terminatePods = activity('chaoscluster.pod.actions', 'terminate_pods');
const countPods = activity('chaoscluster.pod.probes', 'count_pods');
const deletePods = activity('chaoscluster.pod.actions', 'delete_pods');
const setFault = activity('chaosmesh.fault.actions', 'set_fault');

describe('canonicalModule', () => {
  it.each([
    ['chaosk8s.pod.actions', 'chaoscluster.pod.actions'],
    ['chaosk8s.actions', 'chaoscluster.actions'],
    ['chaosistio.fault.actions', 'chaosmesh.fault.actions'],
    ['chaoscluster.pod.probes', 'chaoscluster.pod.probes'],
    ['chaosk8sx.pod.actions', 'chaosk8sx.pod.actions'],
    ['other.chaosk8s.pod', 'other.chaosk8s.pod'],
  ])('%s → %s', (module, canonical) => {
    expect(canonicalModule(module)).toBe(canonical);
  });
});

describe('ActivityRegistry', () => {
  const reg = new ActivityRegistry().register(terminatePods, countPods, deletePods, setFault);

  it.each([
    ['chaoscluster.pod.actions', 'terminate_pods', terminatePods],
    ['chaosk8s.pod.actions', 'terminate_pods', terminatePods],
    ['chaosk8s.pod.probes', 'count_pods', countPods],
    ['chaosistio.fault.actions', 'set_fault', setFault],
    ['chaoscluster.pod.actions', 'count_pods', undefined],
    ['chaoscluster.pod.actions', 'terminatePods', undefined],
    ['chaoscluster.node.actions', 'terminate_pods', undefined],
  ])('get(%s, %s)', (module, func, expected) => {
    expect(reg.get(module, func)).toBe(expected);
    expect(reg.has(module, func)).toBe(expected !== undefined);
  });

  it('lists activities by qualified name and modules', () => {
    expect(reg.list().map((a) => a.qualifiedName)).toEqual([
      'chaoscluster.pod.actions.delete_pods',
      'chaoscluster.pod.actions.terminate_pods',
      'chaoscluster.pod.probes.count_pods',
      'chaosmesh.fault.actions.set_fault',
    ]);
    expect(reg.list('chaosk8s.pod.actions').map((a) => a.name)).toEqual(['delete_pods', 'terminate_pods']);
    expect(reg.modules()).toEqual([
      'chaoscluster.pod.actions',
      'chaoscluster.pod.probes',
      'chaosmesh.fault.actions',
    ]);
  });

  it('refuses a second activity under the same qualified name', () => {
    const again = activity('chaoscluster.pod.actions', 'terminate_pods');
    expect(() => reg.register(again)).toThrow(
      /'chaoscluster\.pod\.actions\.terminate_pods' is registered twice/,
    );
    expect(reg.get('chaoscluster.pod.actions', 'terminate_pods')).toBe(terminatePods);
  });

  it('accepts the very same activity object again', () => {
    expect(() => reg.register(terminatePods)).not.toThrow();
    expect(reg.list()).toHaveLength(4);
  });

  it('runs what it returns', async () => {
    await expect(reg.get('chaosk8s.pod.actions', 'terminate_pods')?.call({ ns: 'chaos' })).resolves.toBe(
      'chaos',
    );
  });
});

describe('the default registry', () => {
  it('is one per process, shared through globalThis', () => {
    expect(registry).toBeInstanceOf(ActivityRegistry);
    expect((globalThis as Record<symbol, unknown>)[Symbol.for('chaoskit.registry')]).toBe(registry);
  });
});
