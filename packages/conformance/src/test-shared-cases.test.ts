import { expect, it } from 'vitest';
import { discoverCases } from './cases/index.js';
import { OWN_CLUSTER_GROUPS, SHARED_CASE_PARTS } from './test-shared-cases.js';

it('runs every case group in one file only: on the shared cluster, or on a cluster of its own', async () => {
  const groups = [...new Set((await discoverCases()).map((d) => d.group))].sort();
  const parted = [...Object.values(SHARED_CASE_PARTS).flat(), ...OWN_CLUSTER_GROUPS];
  expect([...parted].sort()).toEqual(groups);
  expect(new Set(parted).size).toBe(parted.length);
});
