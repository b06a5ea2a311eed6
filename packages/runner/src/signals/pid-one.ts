/**
 * A container's entrypoint is PID 1, to which the kernel delivers no signal it has no handler
 * for: a deleted pod's SIGTERM would wait for the SIGKILL at the end of the grace period. These
 * end the process as the default action would; while a run has its own (interrupts.ts), they
 * leave the signal to it, and the rollbacks play first (D120).
 */
export function endAsPidOne(): void {
  if (process.pid !== 1) return;
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)
    process.on(signal, () => {
      if (process.listenerCount(signal) === 1) process.exit(code);
    });
}
