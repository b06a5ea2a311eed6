import { argumentSignatures, expectAsDeclared, refusals } from '@chaoskit/cluster/testing';
import { type InvalidArgument, isChaosError } from '@chaoskit/core';
import { describe, expect, it } from 'vitest';
import {
  activities,
  addAbortFaultActivity,
  addDelayFaultActivity,
  getVirtualServiceActivity,
  setFaultActivity,
} from './index.js';

const refusal = refusals<InvalidArgument>(isChaosError);

const base = {
  virtual_service_name: 'reviews',
  routes: [{ destination: { host: 'reviews', subset: 'v2' } }],
};

describe('the activities of chaostoolkit-istio 0.1.4', () => {
  it('are every activity the package defines, in the modules its package.json declares', () =>
    expectAsDeclared(import.meta.url));

  it('declares the 7 operations with their arguments and defaults, in 0.1.4 order', () => {
    const shape = argumentSignatures(activities);
    const common = ['ns="default"', 'version="networking.istio.io/v1alpha3"'];
    expect(shape).toMatchObject({
      'chaosmesh.fault.actions.set_fault': ['virtual_service_name*', 'routes*', 'fault*', ...common],
      'chaosmesh.fault.actions.add_delay_fault': [
        'virtual_service_name*',
        'fixed_delay*',
        'routes*',
        'percentage=100',
        ...common,
      ],
      'chaosmesh.fault.actions.add_abort_fault': [
        'virtual_service_name*',
        'http_status*',
        'routes*',
        'percentage=100',
        ...common,
      ],
      'chaosmesh.fault.actions.unset_fault': ['virtual_service_name*', 'routes*', ...common],
      'chaosmesh.fault.actions.remove_delay_fault': ['virtual_service_name*', 'routes*', ...common],
      'chaosmesh.fault.actions.remove_abort_fault': ['virtual_service_name*', 'routes*', ...common],
      'chaosmesh.fault.probes.get_virtual_service': ['virtual_service_name*', ...common],
    });
    for (const a of activities) {
      expect(a.kind).toBe(a.module.endsWith('.actions') ? 'action' : 'probe');
      for (const arg of a.arguments) expect(arg.description, `${a.name}.${arg.name}`).toBeTruthy();
      expect(a.rbac).toEqual([
        {
          apiGroups: ['networking.istio.io'],
          resources: ['virtualservices'],
          verbs: a.kind === 'action' ? ['get', 'update'] : ['get'],
        },
      ]);
    }
  });

  it('exports the camelCase functions', async () => {
    const mod = await import('./index.js');
    for (const a of activities) expect(typeof (mod as Record<string, unknown>)[a.camelName]).toBe('function');
  });

  it('describes the arguments in the JSON Schema', () => {
    const schema = addAbortFaultActivity.jsonSchema() as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
    };
    expect(schema.required).toEqual(['virtual_service_name', 'http_status', 'routes']);
    expect(schema.properties.http_status).toMatchObject({ type: 'integer', minimum: 200, maximum: 599 });
    expect(schema.properties.version?.enum).toEqual([
      'networking.istio.io/v1alpha3',
      'networking.istio.io/v1beta1',
      'networking.istio.io/v1',
    ]);
  });
});

describe('argument checks (before any request)', () => {
  it('percentage: a number or {value}, both become Istio {value}; 100 when none is given (D85)', () => {
    const args = { ...base, http_status: 503 };
    expect(addAbortFaultActivity.validate({ ...args, percentage: 50 }).percentage).toEqual({ value: 50 });
    expect(addAbortFaultActivity.validate({ ...args, percentage: { value: 100.0 } }).percentage).toEqual({
      value: 100,
    });
    expect(addAbortFaultActivity.validate({ ...args, percentage: 0 }).percentage).toEqual({ value: 0 });
    expect(addAbortFaultActivity.validate(args).percentage).toEqual({ value: 100 });
    expect(addAbortFaultActivity.validate({ ...args, percentage: null }).percentage).toEqual({ value: 100 });
    expect(addDelayFaultActivity.validate({ ...base, fixed_delay: '1s' }).percentage).toEqual({ value: 100 });
    for (const bad of [101, -1, '50', { value: 150 }, { value: 50, extra: 1 }, {}, true]) {
      const err = refusal(() => addAbortFaultActivity.validate({ ...args, percentage: bad }));
      expect(err.argument).toBe('percentage');
      expect(err.message).toMatch(/a number from 0 to 100, or a mapping \{value: number from 0 to 100\}/);
    }
  });

  it('http_status: an integer from 200 to 599', () => {
    for (const ok of [200, 404, 503, 599]) {
      expect(addAbortFaultActivity.validate({ ...base, http_status: ok }).http_status).toBe(ok);
    }
    for (const bad of [199, 600, 0, 503.5, '503', null]) {
      const err = refusal(() => addAbortFaultActivity.validate({ ...base, http_status: bad }));
      expect(err.argument).toBe('http_status');
      expect(err.accepted).toMatch(/an integer from 200 to 599/);
    }
    expect(refusal(() => addAbortFaultActivity.validate(base)).received).toMatch(/required/);
  });

  it('fixed_delay: a duration the mesh accepts', () => {
    for (const ok of ['5s', '500ms', '1.5s', '1m', '1h30m']) {
      expect(addDelayFaultActivity.validate({ ...base, fixed_delay: ok }).fixed_delay).toBe(ok);
    }
    for (const bad of ['5', '5 s', '1d', '0s', '-1s', '1.5ms', '', 5]) {
      const err = refusal(() => addDelayFaultActivity.validate({ ...base, fixed_delay: bad }));
      expect(err.argument).toBe('fixed_delay');
      expect(err.accepted).toMatch(/a duration of at least 1ms/);
    }
    expect(refusal(() => addDelayFaultActivity.validate({ ...base, fixed_delay: '1d' })).message).toMatch(
      /unknown unit "d"/,
    );
  });

  it('version: only the full networking.istio.io group/version of v1alpha3, v1beta1 or v1', () => {
    for (const v of [
      'networking.istio.io/v1alpha3',
      'networking.istio.io/v1beta1',
      'networking.istio.io/v1',
    ]) {
      expect(getVirtualServiceActivity.validate({ virtual_service_name: 'r', version: v }).version).toBe(v);
    }
    for (const bad of [
      'v1',
      'v1beta1',
      'networking.istio.io/v2',
      'security.istio.io/v1',
      'networking.istio.io',
    ]) {
      const err = refusal(() =>
        getVirtualServiceActivity.validate({ virtual_service_name: 'r', version: bad }),
      );
      expect(err.argument).toBe('version');
      expect(err.accepted).toMatch(/'networking.istio.io\/v1alpha3', 'networking.istio.io\/v1beta1'/);
    }
  });

  it('routes: a non-empty list of {destination: {host, subset?}}; items without destination are refused', () => {
    const args = { virtual_service_name: 'reviews', http_status: 503 };
    expect(
      addAbortFaultActivity.validate({ ...args, routes: [{ destination: { host: 'ratings' } }] }).routes,
    ).toEqual([{ destination: { host: 'ratings' } }]);
    for (const bad of [
      [],
      [{}],
      [{ weight: 50 }],
      [{ destination: { subset: 'v1' } }],
      [{ destination: { host: '' } }],
      [{ destination: { host: 'r', subset: '' } }],
      [{ destination: { host: 'r', port: { number: 80 } } }],
      [{ destination: { host: 'r' }, weight: 10 }],
      'reviews',
      { destination: { host: 'r' } },
    ]) {
      const err = refusal(() => addAbortFaultActivity.validate({ ...args, routes: bad }));
      expect(err.argument, JSON.stringify(bad)).toBe('routes');
    }
  });

  it('virtual_service_name: a valid object name', () => {
    for (const bad of ['Reviews', 'a_b', '', 'x'.repeat(254)]) {
      expect(refusal(() => getVirtualServiceActivity.validate({ virtual_service_name: bad })).argument).toBe(
        'virtual_service_name',
      );
    }
  });

  it('fault: abort and/or delay of the checked shapes; normalised to Istio', () => {
    const ok = setFaultActivity.validate({
      ...base,
      fault: {
        abort: { httpStatus: 503, percentage: 20 },
        delay: { fixedDelay: '2s', percentage: { value: 5 } },
      },
    });
    expect(ok.fault).toEqual({
      abort: { httpStatus: 503, percentage: { value: 20 } },
      delay: { fixedDelay: '2s', percentage: { value: 5 } },
    });
    // D85: a kind without percentage is written with 100.
    expect(setFaultActivity.validate({ ...base, fault: { delay: { fixedDelay: '1m' } } }).fault).toEqual({
      delay: { fixedDelay: '1m', percentage: { value: 100 } },
    });
    expect(setFaultActivity.validate({ ...base, fault: { abort: { httpStatus: 503 } } }).fault).toEqual({
      abort: { httpStatus: 503, percentage: { value: 100 } },
    });
    const cases: Array<[unknown, RegExp]> = [
      [{}, /it has neither/],
      [{ abort: { percentage: { value: 50 } } }, /at fault\.abort\.httpStatus/],
      [
        { abort: { httpStatus: 700 } },
        /an integer from 200 to 599 \(Istio's abort.httpStatus\) at fault\.abort\.httpStatus/,
      ],
      [{ abort: { httpStatus: 503, grpcStatus: 'UNAVAILABLE' } }, /unknown key 'grpcStatus'/],
      [{ delay: { fixedDelay: '5' } }, /missing unit .* at fault\.delay\.fixedDelay/],
      [{ delay: { fixedDelay: '5s', percentage: { value: 101 } } }, /at fault\.delay\.percentage/],
      [{ delay: {} }, /at fault\.delay\.fixedDelay/],
      [{ aborts: { httpStatus: 503 } }, /a mapping with abort .*\(got the mapping \{"aborts"/],
      ['abort', /a mapping with abort/],
      [null, /a mapping with abort/],
    ];
    for (const [fault, message] of cases) {
      const err = refusal(() => setFaultActivity.validate({ ...base, fault }));
      expect(err.argument, JSON.stringify(fault)).toBe('fault');
      expect(err.message, JSON.stringify(fault)).toMatch(message);
    }
  });
});
