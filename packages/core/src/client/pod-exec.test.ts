import { describe, expect, it } from 'vitest';
import { exitCodeOf } from './pod-exec.js';

describe('exitCodeOf', () => {
  it('is 0 on Success', () => {
    expect(exitCodeOf({ status: 'Success' })).toBe(0);
  });

  it("is the kubelet's ExitCode cause, as an integer", () => {
    expect(
      exitCodeOf({
        status: 'Failure',
        reason: 'NonZeroExitCode',
        message:
          'command terminated with non-zero exit code: error executing command [sh -c exit 3], exit code 3',
        details: { causes: [{ reason: 'ExitCode', message: '3' }] },
      }),
    ).toBe(3);
  });

  it('reads a trailing "exit status N" when there is no cause (kwok)', () => {
    expect(
      exitCodeOf({
        status: 'Failure',
        message: 'Internal error occurred: error executing command: exit status 42',
      }),
    ).toBe(42);
  });

  it('is 1 for any other failure, as kubectl exits', () => {
    expect(
      exitCodeOf({ status: 'Failure', message: 'exec: "nope": executable file not found in $PATH' }),
    ).toBe(1);
    expect(exitCodeOf({ status: 'Failure', details: { causes: [{ reason: 'Other', message: '7' }] } })).toBe(
      1,
    );
    expect(exitCodeOf({ status: 'Failure', message: 'exit status 4 and more' })).toBe(1);
    expect(exitCodeOf({})).toBe(1);
  });
});
