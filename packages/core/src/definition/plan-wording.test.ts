import { describe, expect, it } from 'vitest';
import { planWording } from './plan-wording.js';

describe('planWording', () => {
  it.each([
    [
      'terminated 2 pod(s): web-a, web-b (random choice, seed 7)',
      'would terminate 2 pod(s): web-a, web-b (random choice, seed 7)',
    ],
    [
      'no pod of namespace shop matched; nothing terminated',
      'no pod of namespace shop matched; nothing would be terminated',
    ],
    ['cordoned n1, n2 (already cordoned: n3)', 'would cordon n1, n2 (already cordoned: n3)'],
    [
      'drained 1 node(s) in 0.2s: n1; 4 pod(s) evicted, 1 left in place',
      'would drain 1 node(s) in 0.2s: n1; 4 pod(s) would be evicted, 1 left in place',
    ],
    [
      'label_selector is empty: every deployment of namespace shop is deleted',
      'label_selector is empty: every deployment of namespace shop would be deleted',
    ],
    [
      'neither name nor label_selector: every node is uncordoned',
      'neither name nor label_selector: every node would be uncordoned',
    ],
    [
      'scaled deployment web of namespace shop to 0 replica(s)',
      'would scale deployment web of namespace shop to 0 replica(s)',
    ],
    ['removed stateful set(s) of namespace shop: db', 'would remove stateful set(s) of namespace shop: db'],
  ])('%s', (done, planned) => {
    expect(planWording(done)).toBe(planned);
  });

  it('leaves a line that already says what would happen, or says no change', () => {
    for (const line of [
      'plan: would run ["ls"] in web-a',
      '3 pod(s) match app=web in namespace shop',
      'kill_microservice is deprecated; use terminate_pods',
      'read network policy from deny.yaml (yaml)',
    ])
      expect(planWording(line)).toBe(line);
  });
});
