import { describe, expect, it } from 'vitest';
import { DurationSyntaxError, fixedDelayProblem, parseGoDuration } from './duration.js';

// Produced by Go 1.x's time.ParseDuration (the parser behind CEL's duration(), which Istio's
// CRD rule `duration(self) >= duration('1ms')` calls); null: Go returns an error.
const GO: ReadonlyArray<readonly [string, bigint | null]> = [
  ['5s', 5000000000n],
  ['500ms', 500000000n],
  ['1.5s', 1500000000n],
  ['1m', 60000000000n],
  ['1h30m', 5400000000000n],
  ['+2s', 2000000000n],
  ['.5s', 500000000n],
  ['5.s', 5000000000n],
  ['250000us', 250000000n],
  ['250000µs', 250000000n],
  ['250000μs', 250000000n],
  ['1ms', 1000000n],
  ['0.001s', 1000000n],
  ['999us', 999000n],
  ['999999ns', 999999n],
  ['1000000ns', 1000000n],
  ['1.5ms', 1500000n],
  ['0', 0n],
  ['+0', 0n],
  ['-0', 0n],
  ['0s', 0n],
  ['-1s', -1000000000n],
  ['', null],
  ['5', null],
  ['5 s', null],
  [' 5s', null],
  ['5s ', null],
  ['1d', null],
  ['5S', null],
  ['1.h', 3600000000000n],
  ['.', null],
  ['.s', null],
  ['1e3ms', null],
  ['1_000ms', null],
  ['2562047h', 9223369200000000000n],
  ['2562048h', null],
  ['9223372036854775807ns', 9223372036854775807n],
  ['9223372036854775808ns', null],
  ['-9223372036854775808ns', -9223372036854775808n],
  ['0.0000000001s', 0n],
  ['1.0000000000000000001s', 1000000000n],
  ['1h1h', 7200000000000n],
  ['3.3333333333333333333h', 12000000000000n],
  ['0.1h', 360000000000n],
  ['1.234567891s', 1234567891n],
  ['00005s', 5000000000n],
  ['0x10s', null],
  ['1m0.5s', 60500000000n],
  ['1.5ms500us', 2000000n],
  ['-', null],
  ['+', null],
  ['s', null],
  ['ms5', null],
  ['5ms.', null],
  ['٣s', null],
  ['1ns1ns', 2n],
  ['100000000000000000000ns', null],
  ['18446744073709551615ns', null],
  ['0.5m', 30000000000n],
  ['1.23456789123456789123456789h', 4444444408444n],
  ['2.5e1s', null],
  ['1m1', null],
  ['9223372036854775.807us', 9223372036854775807n],
  ['9223372036854775.808us', null],
  ['9223372.036854775807s', 9223372036854775n],
  ['9223372.036854775808s', 9223372036854775n],
];

describe('parseGoDuration', () => {
  it.each(GO)('%j parses as Go parses it', (text, expected) => {
    if (expected === null) expect(() => parseGoDuration(text)).toThrow(DurationSyntaxError);
    else expect(parseGoDuration(text)).toBe(expected);
  });
});

describe('fixedDelayProblem: what the mesh accepts as delay.fixedDelay', () => {
  it.each([
    '5s',
    '500ms',
    '1.5s',
    '1m',
    '1h30m',
    '+2s',
    '.5s',
    '1ms',
    '0.001s',
    '250000us',
    '250000µs',
    '1.5ms500us',
  ])('accepts %j', (text) => expect(fixedDelayProblem(text)).toBeUndefined());

  it.each([
    ['0', /shorter than 1ms/],
    ['0s', /shorter than 1ms/],
    ['999us', /shorter than 1ms/],
    ['-1s', /shorter than 1ms/],
    ['1.5ms', /whole number of milliseconds/],
    ['1000001ns', /whole number of milliseconds/],
    ['5', /missing unit/],
    ['', /no number/],
    ['5 s', /unknown unit " s"/],
    ['1d', /unknown unit "d"/],
    ['5S', /unknown unit "S"/],
    ['2562048h', /overflow/],
    ['.s', /lone "\."/],
    ['five seconds', /unexpected 'f'/],
  ])('refuses %j', (text, why) => expect(fixedDelayProblem(text)).toMatch(why));
});
