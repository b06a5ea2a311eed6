// Ctrl-C and SIGTERM during a run: the first stops the run at a safe point (its rollbacks still
// play); while they play, a signal asks for confirmation, and a second one within 3 s abandons
// them. The exit code says which signal stopped the run (130 SIGINT, 143 SIGTERM).

export const CONFIRM_WINDOW_MS = 3000;

export interface Interrupts {
  /** Aborted by the first signal: the hypothesis and the method stop. */
  readonly run: AbortSignal;
  /** Aborted by a confirmed later signal: the rollbacks are abandoned. */
  readonly rollbacks: AbortSignal;
  /** The first signal received, if any. */
  readonly received: NodeJS.Signals | undefined;
  /** 130 after SIGINT, 143 after SIGTERM, undefined when no signal came. */
  readonly exitCode: number | undefined;
  dispose(): void;
}

export function handleInterrupts(
  say: (line: string) => void,
  source: Pick<NodeJS.Process, 'on' | 'off'> = process,
  now: () => number = Date.now,
): Interrupts {
  const run = new AbortController();
  const rollbacks = new AbortController();
  let received: NodeJS.Signals | undefined;
  let asked: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (!received) {
      received = signal;
      run.abort(new Error(`interrupted by ${signal}`));
      say(
        `${signal}: stopping the current activity at its next safe point, then playing the rollbacks (press Ctrl-C again to abandon them)`,
      );
      return;
    }
    if (rollbacks.signal.aborted) return;
    if (asked !== undefined && now() - asked <= CONFIRM_WINDOW_MS) {
      rollbacks.abort(new Error('rollbacks abandoned'));
      say('abandoning the rollbacks: what they were to undo stays in place (the journal lists them)');
      return;
    }
    asked = now();
    say(
      `the rollbacks are playing; press Ctrl-C again within ${CONFIRM_WINDOW_MS / 1000} s to abandon them (what they undo would stay in place)`,
    );
  };
  source.on('SIGINT', onSignal);
  source.on('SIGTERM', onSignal);
  return {
    run: run.signal,
    rollbacks: rollbacks.signal,
    get received() {
      return received;
    },
    get exitCode() {
      return received === 'SIGINT' ? 130 : received === 'SIGTERM' ? 143 : undefined;
    },
    dispose() {
      source.off('SIGINT', onSignal);
      source.off('SIGTERM', onSignal);
    },
  };
}
