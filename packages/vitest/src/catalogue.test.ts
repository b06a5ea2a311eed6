// The typed surface (`chaos.<name>`, derived in the types from each package's `<name>Activity`
// and `<name>` exports) and the runtime one (found by each activity's camelName) are the same
// activities; the packages loaded are exactly the activity packages this one depends on.
import { readFileSync } from 'node:fs';
import { isActivity } from '@chaoskit/core/runner';
import { describe, expect, it } from 'vitest';
import { ACTIVITY_PACKAGES, catalogue, catalogueOf } from './catalogue.js';
import { durationMs } from './duration.js';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
};

describe('the catalogue', () => {
  it('loads every activity package this package depends on, and no other', () => {
    const activityPackages = Object.keys(manifest.dependencies).filter((n) =>
      /^@chaoskit\/chaos(cluster|mesh)-/.test(n),
    );
    expect(Object.keys(ACTIVITY_PACKAGES).sort()).toEqual(activityPackages.sort());
  });

  it('names every activity by the export its type is derived from: `<camelName>Activity`, beside `<camelName>`', async () => {
    for (const load of Object.values(ACTIVITY_PACKAGES)) {
      const exports = (await load()) as Record<string, unknown>;
      const { activities } = exports as { activities: { camelName: string }[] };
      for (const [key, value] of Object.entries(exports)) {
        if (!isActivity(value) || !key.endsWith('Activity')) continue;
        expect(key).toBe(`${value.camelName}Activity`);
        expect(typeof exports[value.camelName]).toBe('function');
      }
      for (const activity of activities) expect(exports[`${activity.camelName}Activity`]).toBe(activity);
    }
  });

  it('finds each activity of its kind by camelName, once', async () => {
    const { activities, find } = await catalogue();
    const names = activities.map((a) => `${a.kind}:${a.camelName}`);
    expect(new Set(names).size).toBe(names.length);
    expect(find('terminatePods', 'action').qualifiedName).toBe('chaoscluster.pod.actions.terminate_pods');
    expect(find('deploymentFullyAvailable', 'probe').kind).toBe('probe');
  });

  it('says which name to use instead of an unknown one, and which kind a misplaced one is', async () => {
    const known = await catalogue();
    expect(() => known.find('terminatePod', 'action')).toThrow(
      /chaos\.terminatePod: no chaoskit action is called so; the actions are .*terminatePods/,
    );
    expect(() => known.find('deploymentFullyAvailable', 'action')).toThrow(
      'chaos.deploymentFullyAvailable: chaoscluster.deployment.probes.deployment_fully_available is a probe: use chaos.probe.deploymentFullyAvailable',
    );
    expect(catalogueOf([]).rulesOf('x.y')).toBeUndefined();
  });
});

describe('durations', () => {
  it('reads milliseconds and texts of units', () => {
    expect(durationMs('30s', 'm')).toBe(30_000);
    expect(durationMs('1m30s', 'm')).toBe(90_000);
    expect(durationMs('500ms', 'm')).toBe(500);
    expect(durationMs(250, 'm')).toBe(250);
  });

  it('refuses anything else, naming where and what is accepted', () => {
    // @ts-expect-error a duration needs a unit
    expect(() => durationMs('30', 'toHoldWithin')).toThrow(
      /^toHoldWithin: the duration must be milliseconds .* received "30"$/,
    );
    expect(() => durationMs(-1, 'toRecoverWithin')).toThrow(/toRecoverWithin/);
  });
});
