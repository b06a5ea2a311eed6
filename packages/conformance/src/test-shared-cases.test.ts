import { expect, it } from 'vitest';
import { discoverCases } from './cases/index.js';
import { SHARED_CASE_PARTS } from './test-shared-cases.js';

it('runs every case group on the shared cluster, each in one file only', async () => {
  const groups = [...new Set((await discoverCases()).map((d) => d.group))].sort();
  const parted = Object.values(SHARED_CASE_PARTS).flat();
  expect([...parted].sort()).toEqual(groups);
  expect(new Set(parted).size).toBe(parted.length);
});
