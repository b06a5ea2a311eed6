import { describe, expect, it } from 'vitest';
import { isChaosError } from '../errors/errors.js';
import { Safety, type SafetyRefusal } from './safety.js';

const refusal = (fn: () => unknown): SafetyRefusal => {
  try {
    fn();
  } catch (err) {
    if (isChaosError(err, 'Refused')) return err as SafetyRefusal;
    throw err;
  }
  throw new Error('not refused');
};

describe('Safety', () => {
  it('protects the system namespaces and those the user adds, minus those allowed', () => {
    const safety = new Safety({ protectNamespaces: ['payments'], allowNamespaces: ['kube-public'] });
    expect([...safety.protectedNamespaces].sort()).toEqual(['kube-node-lease', 'kube-system', 'payments']);
    expect(refusal(() => safety.checkNamespace('a.b.c', 'payments', 'ns')).message).toBe(
      "a.b.c: argument 'ns': 'payments' is a protected namespace, changed only when allowed explicitly: run with --allow-namespace payments, or add to the experiment: extensions: [{name: chaoskit, allow_namespaces: [payments]}]",
    );
    expect(() => safety.checkNamespace('a.b.c', 'kube-public')).not.toThrow();
    expect(() => safety.checkNamespace('a.b.c', 'default')).not.toThrow();
    expect(refusal(() => safety.checkNamespace('a.b.c', 'kube-system')).rail).toBe('namespace');
  });

  it('refuses every node, not all but one, unless allowed', () => {
    expect(refusal(() => new Safety().checkNodes('x.y.z', 3, 3)).rail).toBe('nodes');
    expect(() => new Safety().checkNodes('x.y.z', 2, 3)).not.toThrow();
    expect(() => new Safety({ allowAllNodes: true }).checkNodes('x.y.z', 3, 3)).not.toThrow();
  });

  it('lets one pod go always, and up to the share (80 % by default)', () => {
    const safety = new Safety();
    expect(() => safety.checkPodShare('p.q.r', 'web', 1, 1)).not.toThrow();
    expect(() => safety.checkPodShare('p.q.r', 'web', 4, 5)).not.toThrow();
    const refused = refusal(() => safety.checkPodShare('p.q.r', 'web', 5, 6));
    expect(refused.message).toContain("5 of the 6 pods of namespace 'web' (83.3 %), more than the 80 %");
    expect(refused.message).toContain('--max-pod-share 0.84');
    expect(() => new Safety({ maxPodShare: 1 }).checkPodShare('p.q.r', 'web', 6, 6)).not.toThrow();
    expect(() => new Safety({ maxPodShare: 0 })).toThrow(RangeError);
  });

  it('asks once for the whole run, and a no refuses every change', async () => {
    const asked: string[] = [];
    const safety = new Safety({
      confirm: async (change) => {
        asked.push(change);
        return false;
      },
    });
    await expect(safety.confirmChange('m.n.o', 'delete pod a')).rejects.toThrow(
      /not confirmed; nothing was changed/,
    );
    await expect(safety.confirmChange('m.n.o', 'delete pod b')).rejects.toThrow(/not confirmed/);
    expect(asked).toEqual(['m.n.o is about to delete pod a']);
  });
});
