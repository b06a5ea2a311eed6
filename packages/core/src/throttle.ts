// How many requests one connection sends at once: starts at the pool's size, halves when the
// server answers 429 (too many requests), grows back slowly — by one per four windows of
// successes — on success (AIMD, as TCP does). Bulk work thus settles at what the apiserver accepts instead of trading 429s
// for retries: the request count stays near what an unthrottled run sends.

export class Throttle {
  #limit: number;
  #inflight = 0;
  #waiting: Array<() => void> = [];

  constructor(readonly max: number) {
    this.#limit = max;
  }

  /** The current limit (at least 1). */
  get limit(): number {
    return Math.max(1, Math.floor(this.#limit));
  }

  /** Waits for a place; rejects when `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (this.#inflight < this.limit) {
      this.#inflight++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener('abort', abort);
        this.#inflight++;
        resolve();
      };
      const abort = () => {
        this.#waiting = this.#waiting.filter((w) => w !== go);
        reject(signal?.reason ?? new Error('aborted'));
      };
      signal?.addEventListener('abort', abort, { once: true });
      this.#waiting.push(go);
    });
  }

  /** Gives the place back, saying whether the server was overloaded (429). */
  release(overloaded: boolean): void {
    this.#inflight--;
    if (overloaded) this.#limit = Math.max(1, this.#limit / 2);
    else this.#limit = Math.min(this.max, this.#limit + 1 / (4 * this.limit));
    while (this.#waiting.length > 0 && this.#inflight < this.limit) this.#waiting.shift()!();
  }
}
