import { describe, expect, it } from 'vitest';
import { KWOK_POD_CIDR, networkPlan, SERVICE_CIDR, SLOTS } from './plan.js';

describe('the real nodes network plan', () => {
  it('gives each slot its own link and pod ranges, all in 198.18.0.0/15 and apart from Services and kwok', () => {
    const plans = Array.from({ length: SLOTS }, (_, s) => networkPlan(s, 7));
    const ranges = plans.flatMap((p) => [
      p.hostIp,
      ...p.nodes.map((n) => n.podCidr),
      ...p.nodes.map((n) => n.ip),
    ]);
    expect(new Set(ranges).size).toBe(ranges.length);
    for (const r of ranges) expect(r).toMatch(/^198\.18\.(\d+)\./);
    const thirdOctets = plans.flatMap((p) => p.nodes.map((n) => Number(n.podCidr.split('.')[2])));
    expect(Math.max(...thirdOctets)).toBeLessThan(128); // below kwok's 198.18.128.0/17
    expect(SERVICE_CIDR).toBe('198.19.0.0/16');
    expect(KWOK_POD_CIDR).toBe('198.18.128.1/17');
    expect(networkPlan(3, 2)).toMatchObject({
      netns: 'chaoskit-3',
      hostLink: 'ck3',
      hostIp: '198.18.24.1',
      clusterCidr: '198.18.24.0/21',
      nodes: [
        { name: 'real-node-0', netns: 'chaoskit-3-0', ip: '198.18.24.10', podCidr: '198.18.25.0/24' },
        { name: 'real-node-1', netns: 'chaoskit-3-1', ip: '198.18.24.11', podCidr: '198.18.26.0/24' },
      ],
    });
  });

  it('refuses a node count it cannot address', () => {
    expect(() => networkPlan(0, 0)).toThrow(/realNodes must be a whole number from 1 to 7, not 0/);
    expect(() => networkPlan(0, 8)).toThrow(/not 8/);
    expect(() => networkPlan(0, 1.5)).toThrow(/not 1.5/);
    expect(() => networkPlan(SLOTS, 1)).toThrow(/slot 16/);
  });
});
