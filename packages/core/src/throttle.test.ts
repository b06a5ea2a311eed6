import { describe, expect, it } from 'vitest';
import { Throttle } from './throttle.js';

describe('Throttle', () => {
  it('halves its limit on 429 and grows back by one per four windows of successes', () => {
    const t = new Throttle(16);
    expect(t.limit).toBe(16);
    for (const _ of [1, 2, 3]) {
      void t.acquire();
      t.release(true);
    }
    expect(t.limit).toBe(2);
    for (let i = 0; i < 8; i++) {
      void t.acquire();
      t.release(false);
    }
    expect(t.limit).toBe(3);
  });

  it('never lets more than the limit through at once, and lets the waiting in as places free', async () => {
    const t = new Throttle(2);
    await t.acquire();
    await t.acquire();
    let third = false;
    const waiting = t.acquire().then(() => {
      third = true;
    });
    await Promise.resolve();
    expect(third).toBe(false);
    t.release(false);
    await waiting;
    expect(third).toBe(true);
  });

  it('stops waiting when the signal aborts', async () => {
    const t = new Throttle(1);
    await t.acquire();
    const controller = new AbortController();
    const waiting = t.acquire(controller.signal);
    controller.abort(new Error('interrupted'));
    await expect(waiting).rejects.toThrow('interrupted');
  });
});
