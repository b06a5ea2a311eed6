import { defineActivity, z } from '@chaoskit/core';
import { describe, expect, it } from 'vitest';
import { defineCase } from '../case.js';
import { loadCases } from '../cases/index.js';
import { chaoskitActivities, coverageGaps } from './coverage.js';

const fake = (name: string) =>
  defineActivity({
    name,
    kind: 'probe',
    module: 'chaoskit.fixture.probes',
    doc: 'a fixture',
    args: { x: z.int().default(1).describe('x') },
    rbac: [],
    run: () => true,
  });

describe('coverage guard', () => {
  it('names every registered activity without a case, and every case of an unregistered one', () => {
    const covered = fake('covered');
    const gaps = coverageGaps(
      [covered, fake('forgotten')],
      [
        defineCase({ activity: covered, scenarios: [{ name: 's', run: async () => {} }] }),
        defineCase({ activity: fake('stale'), scenarios: [{ name: 's', run: async () => {} }] }),
      ],
    );
    expect(gaps).toEqual({
      uncovered: ['chaoskit.fixture.probes.forgotten'],
      unknown: ['chaoskit.fixture.probes.stale'],
    });
  });

  it('finds no gap between the activity packages and the cases', async () => {
    expect(coverageGaps(await chaoskitActivities(), await loadCases())).toEqual({
      uncovered: [],
      unknown: [],
    });
  });
});
