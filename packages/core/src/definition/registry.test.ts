import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { aliasActivity, isAlias } from './alias.js';
import { defineActivity } from './define-activity.js';
import { ActivityRegistry, canonicalModule, originalModule, registry } from './registry.js';

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

describe('originalModule', () => {
  it.each([
    ['chaoscluster.pod.actions', 'chaosk8s.pod.actions'],
    ['chaoscluster', 'chaosk8s'],
    ['chaosmesh.fault.actions', 'chaosistio.fault.actions'],
    ['chaosk8s.pod.probes', 'chaosk8s.pod.probes'],
    ['chaosclusterx.pod.actions', 'chaosclusterx.pod.actions'],
    ['other.chaoscluster.pod', 'other.chaoscluster.pod'],
  ])('%s → %s', (module, original) => {
    expect(originalModule(module)).toBe(original);
    expect(canonicalModule(originalModule(module))).toBe(canonicalModule(module));
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

describe('aliases', () => {
  const reg = new ActivityRegistry()
    .register(deletePods, countPods)
    .alias(
      aliasActivity('chaoscluster.actions', deletePods),
      aliasActivity('chaoscluster.probes', countPods, 'how_many'),
    );

  it('find the one definition under another module and name, chaosk8s names too', () => {
    expect(reg.get('chaosk8s.actions', 'delete_pods')).toBe(deletePods);
    expect(reg.get('chaoscluster.probes', 'how_many')).toBe(countPods);
    expect(reg.get('chaoscluster.probes', 'count_pods')).toBeUndefined();
  });

  it('are listed apart from the activities, and their modules and names with them', () => {
    expect(reg.list().map((a) => a.qualifiedName)).toEqual([
      'chaoscluster.pod.actions.delete_pods',
      'chaoscluster.pod.probes.count_pods',
    ]);
    expect(reg.aliases().map((a) => `${a.qualifiedName} -> ${a.activity.qualifiedName}`)).toEqual([
      'chaoscluster.actions.delete_pods -> chaoscluster.pod.actions.delete_pods',
      'chaoscluster.probes.how_many -> chaoscluster.pod.probes.count_pods',
    ]);
    expect(reg.names('chaosk8s.probes')).toEqual(['how_many']);
    expect(reg.modules()).toEqual([
      'chaoscluster.actions',
      'chaoscluster.pod.actions',
      'chaoscluster.pod.probes',
      'chaoscluster.probes',
    ]);
  });

  it('accept the same alias again, and refuse a name already taken by another activity or alias', () => {
    expect(() => reg.alias(aliasActivity('chaoscluster.actions', deletePods))).not.toThrow();
    expect(() => reg.alias(aliasActivity('chaoscluster.actions', countPods, 'delete_pods'))).toThrow(
      /'chaoscluster\.actions\.delete_pods' is registered twice: as an alias of chaoscluster\.pod\.probes\.count_pods, and as an alias of chaoscluster\.pod\.actions\.delete_pods/,
    );
    expect(() => reg.alias(aliasActivity('chaoscluster.pod.actions', countPods, 'delete_pods'))).toThrow(
      /and as an activity/,
    );
    expect(() => reg.register(activity('chaoscluster.actions', 'delete_pods'))).toThrow(/registered twice/);
    expect(reg.get('chaoscluster.actions', 'delete_pods')).toBe(deletePods);
  });

  it('are checked when made', () => {
    expect(isAlias(aliasActivity('chaoscluster.actions', deletePods))).toBe(true);
    expect(isAlias({ module: 'a.b', name: 'c' })).toBe(false);
    expect(() => aliasActivity('chaoscluster.pod.actions', deletePods)).toThrow(/the activity's own name/);
    expect(() => aliasActivity('Actions', deletePods)).toThrow(/dotted name/);
    expect(() => aliasActivity('a.b', deletePods, 'Delete')).toThrow(/snake_case/);
    expect(() => aliasActivity('a.b', { name: 'x' } as never)).toThrow(/not an activity/);
  });
});

describe('the default registry', () => {
  it('is one per process, shared through globalThis', () => {
    expect(registry).toBeInstanceOf(ActivityRegistry);
    expect((globalThis as Record<symbol, unknown>)[Symbol.for('chaoskit.registry')]).toBe(registry);
  });
});
