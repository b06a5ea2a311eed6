// For test runners without fixtures (node:test, jest): a fault for the length of a body, reverted
// however the body ends.

import { type Fault, revertAndThrow } from './fault.js';

/**
 * Makes the fault (`action`: a `chaos.<name>(…)` call, or a function making one), runs `body`
 * with it, and reverts it after — when `body` returns, throws or its assertion fails. An error
 * of the body comes first; a revert that also fails is added to it (an AggregateError).
 */
export async function withFault<R, T>(
  action: Promise<Fault<R>> | (() => Promise<Fault<R>>),
  body: (fault: Fault<R>) => T | Promise<T>,
): Promise<T> {
  const fault = await (typeof action === 'function' ? action() : action);
  let value: T;
  try {
    value = await body(fault);
  } catch (err) {
    return revertAndThrow(err, () => fault.revert());
  }
  await fault.revert();
  return value;
}
