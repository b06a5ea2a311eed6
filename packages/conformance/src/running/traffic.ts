import { execText } from '@chaoskit/cluster';
import type { KubeConfig } from '@kubernetes/client-node';

/** Requests of a window of the client's record: how many, how many failed, who served the rest. */
export interface TrafficWindow {
  requests: number;
  failed: number;
  servedBy: Record<string, number>;
}

/**
 * The client pod's record: one line per request it sent through the Service's ClusterIP, the
 * name of the pod that answered or `-` for a failure. A mark is a position in that record.
 */
export class Traffic {
  constructor(
    private readonly kc: KubeConfig,
    private readonly namespace: string,
    readonly client: string,
  ) {}

  private async lines(): Promise<string[]> {
    const { stdout } = await execText(
      this.kc,
      { namespace: this.namespace, pod: this.client, container: 'client' },
      ['cat', '/tmp/served'],
    );
    return stdout.split('\n').filter(Boolean);
  }

  /** The position now: what was sent so far. */
  async mark(): Promise<number> {
    return (await this.lines()).length;
  }

  /** The requests sent since `from` (a mark). */
  async since(from: number): Promise<TrafficWindow> {
    const window = (await this.lines()).slice(from);
    const servedBy: Record<string, number> = {};
    for (const line of window) if (line !== '-') servedBy[line] = (servedBy[line] ?? 0) + 1;
    return { requests: window.length, failed: window.filter((l) => l === '-').length, servedBy };
  }

  /** Polls `check` twice a second (each read of the record is an exec in the client). */
  private async poll(what: string, check: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (!(await check().catch(() => false))) {
      if (Date.now() > deadline) throw new Error(`timed out after 60s waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  /** Waits until each of the last `count` requests passes `accept` (ANSWERED, FAILED, a pod's name). */
  untilLast(count: number, accept: (line: string) => boolean, what: string): Promise<void> {
    return this.poll(what, async () => {
      const last = (await this.lines()).slice(-count);
      return last.length === count && last.every(accept);
    });
  }

  /** Waits until the requests since `from` pass `accept`. */
  untilSince(from: number, accept: (w: TrafficWindow) => boolean, what: string): Promise<void> {
    return this.poll(what, async () => accept(await this.since(from)));
  }
}

export const ANSWERED = (line: string) => line !== '-';
export const FAILED = (line: string) => line === '-';

/** One line of evidence: `requests 53 (2 failed), served by web-1 20, web-2 31`. */
export function describeWindow(w: TrafficWindow): string {
  const by = Object.entries(w.servedBy)
    .map(([pod, n]) => `${pod} ${n}`)
    .join(', ');
  return `${w.requests} requests (${w.failed} failed)${by ? `, served by ${by}` : ''}`;
}
