import { afterEach, describe, expect, it, vi } from 'vitest';
import { isChaosError } from '../errors/errors.js';
import { type Outcome, Throttle, type Ticket } from './throttle.js';

/** A throttle on a clock the test moves. */
function clocked(max = 16) {
  let now = 0;
  const throttle = new Throttle(max, { now: () => now });
  /** One request taking `ms`, answered with `outcome`. */
  const request = async (ms: number, outcome: Outcome) => {
    const ticket = await throttle.acquire();
    now += ms;
    throttle.release(ticket, outcome);
  };
  return { throttle, request, tick: (ms: number) => (now += ms) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('Throttle', () => {
  it('starts at 2 and doubles per window of successes up to its maximum (slow start)', async () => {
    const { throttle, request } = clocked(16);
    expect(throttle.limit).toBe(2);
    for (let i = 0; i < 2; i++) await request(10, 'ok');
    expect(throttle.limit).toBe(4);
    for (let i = 0; i < 20; i++) await request(10, 'ok');
    expect(throttle.limit).toBe(16);
  });

  it('takes 0.7 of its limit on a 429, and the other 429s of the same window take it to one at a time, not below', async () => {
    const { throttle, request, tick } = clocked(16);
    for (let i = 0; i < 2; i++) await request(10, 'ok');
    const window: Ticket[] = [];
    for (let i = 0; i < 4; i++) window.push(await throttle.acquire());
    tick(10);
    for (const ticket of window) throttle.release(ticket, 'overloaded');
    // 4 → 2.8 (the first), then 1.96, 1.37, 1 (not 0.96: the same window).
    expect(throttle.limit).toBe(1);
    // A 429 of a request sent after that decrease is news: below one at a time.
    const next = await throttle.acquire();
    tick(10);
    throttle.release(next, 'overloaded');
    expect(throttle.limit).toBeCloseTo(0.7);
  });

  it('after the first 429, grows by 1/16 per success below two at a time, by a quarter per window above', async () => {
    const { throttle, request } = clocked(16);
    for (let i = 0; i < 2; i++) await request(10, 'ok');
    await request(10, 'overloaded'); // 4 → 2.8: slow start is over
    await request(10, 'ok');
    expect(throttle.limit).toBeCloseTo(2.8 + 1 / (4 * 2.8));
    while (throttle.limit >= 2) await request(10, 'overloaded');
    const between = throttle.limit;
    expect(between).toBeGreaterThanOrEqual(1);
    await request(10, 'ok');
    expect(throttle.limit).toBeCloseTo(between + between / 16);
    while (throttle.limit >= 1) await request(10, 'overloaded');
    const low = throttle.limit;
    expect(low).toBeLessThan(1);
    await request(10, 'ok');
    expect(throttle.limit).toBeCloseTo(low + low / 16);
  });

  it('below one request at a time, waits after each answer for latency × (1/limit − 1)', async () => {
    vi.useFakeTimers();
    const throttle = new Throttle(16, { initial: 1 });
    const first = await throttle.acquire();
    vi.advanceTimersByTime(100);
    throttle.release(first, 'overloaded'); // 1 → 0.7: the next one waits 100 × (1/0.7 − 1) ms
    const paced = throttle.acquire();
    await vi.advanceTimersByTimeAsync(50);
    const second = await paced;
    vi.advanceTimersByTime(100);
    throttle.release(second, 'ok'); // latency 100 ms, limit 0.74
    const gap = 100 * (1 / throttle.limit - 1);
    let started = false;
    const third = throttle.acquire().then((ticket) => {
      started = true;
      return ticket;
    });
    await vi.advanceTimersByTimeAsync(gap - 5);
    expect(started).toBe(false);
    await vi.advanceTimersByTimeAsync(10);
    expect(started).toBe(true);
    throttle.release(await third, 'ok');
  });

  it("never paces slower than the server's Retry-After: one request, then at most that pause", async () => {
    vi.useFakeTimers();
    const throttle = new Throttle(16, { initial: 1 });
    /** Moves the clock until the place is given; returns how long that took. */
    const turn = async () => {
      let ticket: Ticket | undefined;
      void throttle.acquire().then((t) => {
        ticket = t;
      });
      let waited = 0;
      for (; !ticket; waited += 10) await vi.advanceTimersByTimeAsync(10);
      return { ticket, waited };
    };
    for (let i = 0; i < 30; i++) {
      const { ticket } = await turn();
      vi.advanceTimersByTime(100);
      throttle.release(ticket, 'overloaded', 2000);
    }
    // 100 ms out, then 2000 ms of pause: 100 / 2100 of the time.
    expect(throttle.limit).toBeCloseTo(100 / 2100, 2);
    const { ticket, waited } = await turn();
    expect(waited).toBeLessThanOrEqual(2010);
    throttle.release(ticket, 'ok');
  });

  it('backs off when the time per request rises, but never below one at a time on latency alone', async () => {
    const { throttle, request } = clocked(16);
    for (let i = 0; i < 40; i++) await request(10, 'ok');
    expect(throttle.limit).toBe(16);
    for (let i = 0; i < 40; i++) await request(100, 'ok');
    expect(throttle.limit).toBeLessThan(16);
    expect(throttle.limit).toBeGreaterThanOrEqual(1);
    const backedOff = throttle.limit;
    // While it stays high it does not grow again.
    await request(100, 'ok');
    expect(throttle.limit).toBeLessThanOrEqual(backedOff);
  });

  it('never lets more than the limit through at once, and lets the waiting in as places free', async () => {
    const throttle = new Throttle(2, { initial: 2 });
    const a = await throttle.acquire();
    await throttle.acquire();
    let third = false;
    const waiting = throttle.acquire().then(() => {
      third = true;
    });
    await Promise.resolve();
    expect(third).toBe(false);
    throttle.release(a, 'other');
    await waiting;
    expect(third).toBe(true);
  });

  it('stops waiting when the signal aborts: Aborted, its cause the reason', async () => {
    const throttle = new Throttle(1, { initial: 1 });
    await throttle.acquire();
    const controller = new AbortController();
    const waiting = throttle.acquire(controller.signal);
    const reason = new Error('interrupted');
    controller.abort(reason);
    const err = await waiting.catch((e: unknown) => e);
    expect(isChaosError(err, 'Aborted')).toBe(true);
    expect((err as Error).cause).toBe(reason);
    expect(throttle.inflight).toBe(1);
  });
});
