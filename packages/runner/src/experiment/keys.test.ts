// The keys of an experiment (D71, D94): Chaos Toolkit's are accepted where it accepts them,
// a key it ignores is a warning, a typo that would change what runs is refused with its fix.

import { describe, expect, it } from 'vitest';
import { InvalidExperiment } from '../output/errors.js';
import { prepareExperiment } from '../prepare/prepare.js';
import { python } from '../testing/test-experiments.js';
import { keyFindings } from './keys.js';

type Json = Record<string, unknown>;

const up: Json = {
  type: 'probe',
  name: 'app-is-up',
  provider: { type: 'http', url: 'http://127.0.0.1:9/health' },
  tolerance: 200,
};
const kill = (extra: Json = {}, provider: Json = {}): Json => ({
  type: 'action',
  name: 'kill',
  provider: {
    ...python('chaosk8s.pod.actions', 'terminate_pods', { label_selector: 'app=web', ns: 'shop' }),
    ...provider,
  },
  ...extra,
});
const experiment = (extra: Json = {}): Json => ({
  title: 't',
  description: 'd',
  'steady-state-hypothesis': { title: 'up', probes: [up] },
  method: [kill()],
  ...extra,
});

/** What validate says: the problems (none when valid) and the warnings. */
async function validate(raw: Json) {
  try {
    const { warnings } = await prepareExperiment(structuredClone(raw), {}, {});
    return { problems: [] as string[], warnings };
  } catch (err) {
    if (!(err instanceof InvalidExperiment)) throw err;
    return { problems: err.problems, warnings: [] as string[] };
  }
}

describe('public experiments Chaos Toolkit runs are accepted', () => {
  it.each<[string, Json]>([
    [
      'a hypothesis reference step with its type and tolerance',
      experiment({
        'steady-state-hypothesis': {
          title: 'up',
          probes: [up, { type: 'probe', tolerance: 200, ref: 'app-is-up' }],
        },
      }),
    ],
    [
      'a method reference step with its type',
      experiment({ method: [kill(), { type: 'probe', ref: 'app-is-up' }] }),
    ],
    [
      'a reference step with a name and background',
      experiment({ method: [kill(), { type: 'action', name: 'again', ref: 'kill', background: true }] }),
    ],
  ])('%s', async (_what, raw) => {
    expect(await validate(raw)).toEqual({ problems: [], warnings: [] });
  });

  it.each<[string, Json, string]>([
    [
      'count inside a provider',
      experiment({ method: [kill({}, { count: 1 })] }),
      "method activity 'kill': provider: unknown key 'count' is ignored, as Chaos Toolkit ignores it (a python provider takes type, module, func, arguments, secrets)",
    ],
    [
      'name inside a provider',
      experiment({ method: [kill({}, { name: 'kill-web' })] }),
      "method activity 'kill': provider: unknown key 'name' is ignored",
    ],
    [
      'title on an activity',
      experiment({ method: [kill({ title: 'Kill a pod' })] }),
      "method activity 'kill': unknown key 'title' is ignored, as Chaos Toolkit ignores it (an activity takes type, name, provider,",
    ],
    ['ns on an activity', experiment({ method: [kill({ ns: 'shop' })] }), "unknown key 'ns' is ignored"],
    [
      'secrets on a probe',
      experiment({ method: [kill(), { ...up, name: 'up-again', secrets: ['k8s'] }] }),
      "method activity 'up-again': 'secrets' outside the provider is ignored, as Chaos Toolkit ignores it",
    ],
    [
      'pauses on a reference step',
      experiment({ method: [kill(), { ref: 'kill', pauses: { after: 1 } }] }),
      "method activity #2: pauses on a reference step is not applied, as in Chaos Toolkit: the step runs 'kill' with that activity's own pauses",
    ],
    ['a key of its own at the top', experiment({ owner: 'team-a' }), "unknown key 'owner' is ignored"],
  ])('%s: a warning', async (_what, raw, warning) => {
    const { problems, warnings } = await validate(raw);
    expect(problems).toEqual([]);
    expect(warnings.join('\n')).toContain(warning);
  });
});

describe('a key whose being ignored would change what runs is refused, with the fix', () => {
  it.each<[string, Json, string]>([
    [
      'argument: for arguments:',
      experiment({ method: [kill({}, { argument: { ns: 'prod' } })] }),
      "method activity 'kill': provider: unknown key 'argument'; did you mean 'arguments'? Chaos Toolkit would ignore it",
    ],
    [
      'arguments outside the provider',
      experiment({ method: [kill({ arguments: { ns: 'prod' } })] }),
      "method activity 'kill': 'arguments' belongs inside the provider: Chaos Toolkit ignores it here and would run the activity without these arguments; move it to provider.arguments",
    ],
    [
      'args outside the provider',
      experiment({ method: [kill({ args: { ns: 'prod' } })] }),
      "method activity 'kill': 'args' belongs inside the provider",
    ],
    [
      'a top-level rollback:',
      experiment({ rollback: [kill()] }),
      "unknown key 'rollback'; did you mean 'rollbacks'?",
    ],
    [
      'pause: for pauses:',
      experiment({ method: [kill({ pause: { after: 1 } })] }),
      "method activity 'kill': unknown key 'pause'; did you mean 'pauses'?",
    ],
    [
      'a typo in a hypothesis',
      experiment({ 'steady-state-hypothesis': { title: 'x', probe: [] } }),
      "steady-state-hypothesis: unknown key 'probe'; did you mean 'probes'?",
    ],
    [
      'steady_state_hypothesis',
      { title: 't', description: 'd', steady_state_hypothesis: { title: 'x', probes: [up] }, method: [] },
      "unknown key 'steady_state_hypothesis'; did you mean 'steady-state-hypothesis'?",
    ],
    [
      'a tolerence',
      experiment({ 'steady-state-hypothesis': { title: 'x', probes: [{ ...up, tolerence: 200 }] } }),
      "steady-state probe 'app-is-up': unknown key 'tolerence'; did you mean 'tolerance'?",
    ],
    [
      'befor in pauses',
      experiment({ method: [kill({ pauses: { befor: 3 } })] }),
      "method activity 'kill': pauses: unknown key 'befor'; did you mean 'before'?",
    ],
    [
      'arguments on a reference step',
      experiment({ method: [kill(), { ref: 'kill', arguments: { ns: 'prod' } }] }),
      "method activity #2: 'arguments' on a reference step is ignored by Chaos Toolkit: the step runs 'kill' with that activity's own arguments",
    ],
    [
      'a reference step with a provider',
      experiment({ method: [kill(), { ref: 'kill', provider: { type: 'process', path: 'true' } }] }),
      'method activity #2: a step is a reference (ref) or an activity (provider), not both',
    ],
  ])('%s', async (_what, raw, problem) => {
    const { problems } = await validate(raw);
    expect(problems.join('\n')).toContain(problem);
  });

  it('never suggests the key that was written', () => {
    const { errors, warnings } = keyFindings(
      experiment({ method: [{ type: 'probe', ref: 'app-is-up', tolerance: 1, name: 'x' }] }),
    );
    expect([...errors, ...warnings].join('\n')).not.toMatch(/unknown key '(\w+)'.*did you mean '\1'/);
    expect(errors).toEqual([]);
  });

  it('still requires a tolerance on a hypothesis reference step, as chaoslib does', async () => {
    const { problems } = await validate(
      experiment({
        'steady-state-hypothesis': { title: 'up', probes: [up, { type: 'probe', ref: 'app-is-up' }] },
      }),
    );
    expect(problems).toEqual(['steady-state probe #2: a hypothesis probe must have a tolerance']);
  });
});
