// How many requests one connection sends at once, learnt from the server as TCP learns its
// window (AIMD, D106): it starts low and doubles while every answer is a success (slow start),
// takes 0.7 of itself on a 429 (the other 429s of the same window take it down to one at a time,
// no further: they say nothing new), then grows back slowly, and only while the server's time
// per request holds. Below one request at a time it paces: a limit of 0.5 keeps one request out
// half of the time, and the pause between two requests never exceeds the server's Retry-After.
// An apiserver at its in-flight limit answers 429 even to a client that sends one request at a
// time (the control plane's own requests, set off by this client's changes, take its places), so
// pacing is what keeps a throttled bulk action's request count near an unthrottled one's.
// Concurrent calls on one connection share it.

import { Aborted } from '../errors/errors.js';

/** How a request ended, for the throttle: a success, a 429, or anything else (no lesson). */
export type Outcome = 'ok' | 'overloaded' | 'other';

/** A place taken by `acquire`, given back with `release`. */
export interface Ticket {
  readonly startedAt: number;
  /** How many decreases had happened when it was sent. */
  readonly epoch: number;
  /** Requests out at once, this one included, when it was sent. */
  readonly concurrent: number;
}

export interface ThrottleOptions {
  /** The limit it starts at (default 2, then doubling): a first burst costs at most one 429. */
  initial?: number;
  /** The clock (ms); tests give their own. */
  now?: () => number;
}

// Exponentially weighted averages of the time per request (latency over requests out at once),
// fast and slow: the fast one well above the slow one is the server slowing down.
const FAST = 0.2;
const SLOW = 0.02;
/** Samples before the time per request is judged at all. */
const WARM_UP = 20;
/** The fast average over the slow one beyond which the limit backs off, and below which it grows. */
const RISING = 2;
const HOLDING = 1.25;
/**
 * What a 429 leaves of the limit (as CUBIC's 0.7). With the growth of 1/16 per success below two
 * requests at a time, about one request in seven is answered 429 where the limit settles
 * (0.7 × 1.0625^5.7 ≈ 1), whatever the server's load: the load moves where it settles, not how
 * many requests it costs.
 */
const BACK_OFF = 0.7;

export class Throttle {
  #max: number;
  readonly #now: () => number;
  #limit: number;
  /** Below it the limit doubles per window (slow start); set by each decrease. */
  #threshold = Number.POSITIVE_INFINITY;
  #epoch = 0;
  #inflight = 0;
  #waiting: Array<() => void> = [];
  /** Average latency of successes (ms), for the pacing below one request at a time. */
  #latency: number | undefined;
  #fast = 0;
  #slow = 0;
  #samples = 0;
  /** Below a limit of 1, the earliest start of the next request. */
  #nextStart = 0;
  /** The server's last Retry-After (ms): the pace never waits longer between two requests. */
  #retryAfter = 1000;
  #timer: NodeJS.Timeout | undefined;

  constructor(max: number, options: ThrottleOptions = {}) {
    this.#max = max;
    this.#now = options.now ?? Date.now;
    this.#limit = Math.min(max, options.initial ?? 2);
  }

  /** The most requests it lets out at once. */
  get max(): number {
    return this.#max;
  }

  /** Lowers (or raises) the most it lets out at once: the connection learnt what it can carry. */
  limitTo(max: number): void {
    this.#max = max;
    this.#limit = Math.min(this.#limit, max);
  }

  /** The current limit: requests out at once, or below 1 the share of the time one is out. */
  get limit(): number {
    return this.#limit;
  }

  /** Requests out now. */
  get inflight(): number {
    return this.#inflight;
  }

  /** Waits for a place (and, below a limit of 1, for its turn); Aborted when `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<Ticket> {
    if (signal?.aborted) return Promise.reject(new Aborted(signal.reason));
    return new Promise<Ticket>((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener('abort', abort);
        this.#inflight++;
        resolve({ startedAt: this.#now(), epoch: this.#epoch, concurrent: this.#inflight });
      };
      const abort = () => {
        this.#waiting = this.#waiting.filter((w) => w !== go);
        reject(new Aborted(signal?.reason));
      };
      signal?.addEventListener('abort', abort, { once: true });
      this.#waiting.push(go);
      this.#dispatch();
    });
  }

  /**
   * Gives the place back with how the request ended (and, for a 429, the server's Retry-After);
   * its latency is measured from `acquire`.
   */
  release(ticket: Ticket, outcome: Outcome, retryAfterMs?: number): void {
    this.#inflight--;
    const now = this.#now();
    const latency = Math.max(0, now - ticket.startedAt);
    if (retryAfterMs !== undefined && retryAfterMs > 0) this.#retryAfter = retryAfterMs;
    // Lessons from requests sent before the last decrease were learnt with it already.
    const fresh = ticket.epoch === this.#epoch;
    if (outcome === 'overloaded') {
      // Every 429 of a window takes the limit down towards one at a time (each is a request the
      // server had no room for), only the first one below it.
      if (fresh) this.#decrease(Math.max(this.#limit * BACK_OFF, this.#floor(latency)));
      else if (this.#limit > 1) this.#limit = this.#threshold = Math.max(1, this.#limit * BACK_OFF);
    } else if (outcome === 'ok') {
      this.#latency = this.#latency === undefined ? latency : this.#latency + 0.2 * (latency - this.#latency);
      const perRequest = latency / ticket.concurrent;
      this.#fast = this.#samples === 0 ? perRequest : this.#fast + FAST * (perRequest - this.#fast);
      this.#slow = this.#samples === 0 ? perRequest : this.#slow + SLOW * (perRequest - this.#slow);
      this.#samples++;
      // Below one request at a time the pace follows the 429s alone: there the latency of a
      // lone request says more about the others' traffic than about this client's.
      const judged = this.#samples >= WARM_UP && this.#slow > 0 && this.#limit >= 1;
      if (judged && this.#fast > RISING * this.#slow) {
        // Latency alone never takes it below one at a time: only the server's 429 does.
        if (fresh && this.#limit > 1) this.#decrease(Math.max(1, this.#limit * 0.8));
      } else if (!judged || this.#fast <= HOLDING * this.#slow) {
        this.#grow();
      }
    }
    if (this.#limit < 1) {
      const gap = (this.#latency ?? latency) * (1 / this.#limit - 1);
      this.#nextStart = now + Math.min(gap, this.#retryAfter);
    }
    this.#dispatch();
  }

  #decrease(to: number): void {
    this.#epoch++;
    this.#limit = this.#threshold = to;
  }

  /**
   * The lowest pace: one request, then a pause of the server's Retry-After. The server asks no
   * more of a client than that; slower would only slow the action down.
   */
  #floor(latency: number): number {
    const busy = Math.max(1, this.#latency ?? latency);
    return Math.min(1, busy / (busy + this.#retryAfter));
  }

  #grow(): void {
    const limit = this.#limit;
    // Slow start: +1 per success doubles it per window. Then 1/16 more per success up to two at
    // a time (between one and two, as below one, the limit is a pace: see BACK_OFF), a quarter
    // per window beyond (the two meet at 2).
    const step = limit < this.#threshold ? 1 : Math.min(limit / 16, 1 / (4 * limit));
    this.#limit = Math.min(this.#max, limit + step);
  }

  #dispatch(): void {
    while (this.#waiting.length > 0 && this.#inflight < Math.max(1, Math.floor(this.#limit))) {
      const wait = this.#limit < 1 ? this.#nextStart - this.#now() : 0;
      if (wait > 0) {
        this.#timer ??= setTimeout(() => {
          this.#timer = undefined;
          this.#nextStart = 0;
          this.#dispatch();
        }, wait);
        return;
      }
      this.#waiting.shift()!();
    }
  }
}
