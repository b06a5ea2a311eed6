import { describe, expect, it } from 'vitest';
import { nearMiss, suggest } from './suggest.js';

describe('suggest and nearMiss', () => {
  it('suggest hints at a close name, or the only one a name begins', () => {
    expect(suggest('labelselector', ['label_selector', 'ns'])).toBe('label_selector');
    expect(suggest('grace', ['grace_period', 'qty'])).toBe('grace_period');
    expect(suggest('gr', ['grace_period', 'qty'])).toBeUndefined();
  });

  it('nearMiss finds only slips: one edit (two from 8 letters), a swap, case and separators', () => {
    expect(nearMiss('argument', ['arguments', 'type'])).toBe('arguments');
    expect(nearMiss('rollback', ['rollbacks', 'method'])).toBe('rollbacks');
    expect(nearMiss('tolerence', ['tolerance'])).toBe('tolerance');
    expect(nearMiss('pasues', ['pauses'])).toBe('pauses');
    expect(nearMiss('steady_state_hypothesis', ['steady-state-hypothesis'])).toBe('steady-state-hypothesis');
    // Keys others write that are no slip of a known one.
    for (const key of ['title', 'ns', 'count', 'name', 'id', 'secrets'])
      expect(nearMiss(key, ['type', 'module', 'func', 'arguments', 'ref', 'dry', 'pauses'])).toBeUndefined();
  });
});
