import { expectAsDeclared, refusals } from '@chaoskit/cluster/testing';
import { isChaosError } from '@chaoskit/core';
import { describe, expect, it } from 'vitest';
import { unknownField } from './create-node.js';
import { activities, createNodeActivity, deleteNodesActivity, drainNodesActivity } from './index.js';

const refusal = refusals(isChaosError);

describe('the node activities', () => {
  it('are every activity the package defines, in the modules its package.json declares', () =>
    expectAsDeclared(import.meta.url));

  it('keep the argument names and defaults of 0.25.1 (plus seed, D23)', () => {
    const defaults = (name: string) =>
      Object.fromEntries(activities.find((a) => a.name === name)!.arguments.map((a) => [a.name, a.default]));
    expect(defaults('cordon_node')).toEqual({ name: null, label_selector: null });
    expect(defaults('uncordon_node')).toEqual({ name: null, label_selector: null });
    expect(defaults('create_node')).toEqual({ meta: null, spec: null });
    expect(defaults('get_nodes')).toEqual({ label_selector: null });
    expect(defaults('delete_nodes')).toEqual({
      label_selector: null,
      all: false,
      rand: false,
      count: null,
      grace_period_seconds: null,
      pod_label_selector: null,
      pod_namespace: null,
      seed: null,
    });
    expect(defaults('drain_nodes')).toEqual({
      name: null,
      label_selector: null,
      delete_pods_with_local_storage: false,
      timeout: 120,
      count: null,
      pod_label_selector: null,
      pod_namespace: null,
      seed: null,
    });
  });

  it('refuse a pod selector without its namespace, and the other way round', () => {
    expect(refusal(() => drainNodesActivity.validate({ pod_label_selector: 'app=web' })).argument).toBe(
      'pod_namespace',
    );
    const alone = refusal(() => deleteNodesActivity.validate({ pod_namespace: 'shop' }));
    expect(alone.argument).toBe('pod_label_selector');
    // What to write instead: the missing half, or nothing of the filter (what 0.25.1 did).
    expect(alone.message).toMatch(
      /expected a label selector of the pods of namespace 'shop' whose nodes are meant \(the two go together: chaoskit explain D29\): write pod_label_selector: "app=<your app>" to act on the nodes hosting those pods, or remove pod_namespace to act on the nodes the other arguments select, as chaostoolkit-kubernetes 0.25.1 did/,
    );
    expect(refusal(() => drainNodesActivity.validate({ pod_label_selector: 'app=web' })).message).toMatch(
      /write pod_namespace: <their namespace> to act on the nodes hosting those pods, or remove pod_label_selector/,
    );
    expect(() =>
      deleteNodesActivity.validate({ pod_label_selector: 'app=web', pod_namespace: 'default' }),
    ).not.toThrow();
  });

  it('refuse negative numbers and bad names', () => {
    expect(refusal(() => drainNodesActivity.validate({ timeout: -1 })).argument).toBe('timeout');
    expect(refusal(() => drainNodesActivity.validate({ count: 0 })).argument).toBe('count');
    expect(refusal(() => deleteNodesActivity.validate({ count: -1 })).argument).toBe('count');
    expect(refusal(() => deleteNodesActivity.validate({ grace_period_seconds: -5 })).argument).toBe(
      'grace_period_seconds',
    );
    expect(refusal(() => drainNodesActivity.validate({ name: 'Node_1' })).argument).toBe('name');
    expect(
      refusal(() => drainNodesActivity.validate({ pod_namespace: 'Bad NS', pod_label_selector: 'a=b' }))
        .argument,
    ).toBe('pod_namespace');
  });
});

describe('create_node fields', () => {
  it('knows the API names at every depth', () => {
    expect(
      unknownField(
        { podCIDR: '10.0.0.0/24', taints: [{ key: 'k', effect: 'NoSchedule' }], unschedulable: true },
        'V1NodeSpec',
      ),
    ).toBeUndefined();
    expect(unknownField({ name: 'n', labels: { a_b: 'c' } }, 'V1ObjectMeta')).toBeUndefined();
  });

  it("names the Python client's snake_case names with the API's", () => {
    expect(unknownField({ pod_cidr: '10.0.0.0/24' }, 'V1NodeSpec')).toEqual({
      path: 'pod_cidr',
      suggestion: 'podCIDR',
    });
    expect(unknownField({ provider_id: 'x' }, 'V1NodeSpec')).toEqual({
      path: 'provider_id',
      suggestion: 'providerID',
    });
    expect(unknownField({ taints: [{ key: 'k' }, { key: 'k', efect: 'NoSchedule' }] }, 'V1NodeSpec')).toEqual(
      {
        path: 'taints[1].efect',
      },
    );
    expect(unknownField({ time_added: 'x' }, 'V1Taint')).toEqual({
      path: 'time_added',
      suggestion: 'timeAdded',
    });
  });

  it('refuses meta without a name and fields the API does not have, before any request', () => {
    expect(refusal(() => createNodeActivity.validate({})).argument).toBe('meta');
    expect(refusal(() => createNodeActivity.validate({ meta: { labels: { a: 'b' } } })).argument).toBe(
      'meta',
    );
    const snake = refusal(() =>
      createNodeActivity.validate({ meta: { name: 'n' }, spec: { pod_cidr: 'x' } }),
    );
    expect(snake.argument).toBe('spec');
    expect(snake.message).toContain("did you mean 'podCIDR'");
    expect(() => createNodeActivity.validate({ meta: { generateName: 'n-' } })).not.toThrow();
  });
});
