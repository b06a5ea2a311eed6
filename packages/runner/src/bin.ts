#!/usr/bin/env node
// The `chaoskit` command: Node's compile cache on first, so that every module the command then
// loads is compiled once per version and read from the cache afterwards. A namespace import, so
// that an older Node reaches the version check instead of failing to link.
import * as nodeModule from 'node:module';

const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  process.stderr.write(`chaoskit: needs Node 22 or later; this is Node ${process.versions.node}\n`);
  process.exit(1);
}
nodeModule.enableCompileCache?.();
// `--version` alone answers before the program and its commands load (a tenth of the time).
const args = process.argv.slice(2);
const versionOnly = args.length === 1 && (args[0] === '--version' || args[0] === '-V');
// A container's entrypoint is PID 1, to which the kernel delivers no signal it has no handler
// for: a deleted pod's SIGTERM would wait for the SIGKILL at the end of the grace period. These
// end the process as the default action would; while a run has its own (interrupts.ts), they
// leave the signal to it, and the rollbacks play first (D120).
if (process.pid === 1)
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)
    process.on(signal, () => {
      if (process.listenerCount(signal) === 1) process.exit(code);
    });
if (versionOnly) process.stdout.write(`${(await import('./version.js')).RUNNER_VERSION}\n`);
else await import('./cli.js');
