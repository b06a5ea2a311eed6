#!/usr/bin/env node
// The `chaoskit` command: Node's compile cache on first, so that every module the command then
// loads is compiled once per version and read from the cache afterwards. A namespace import, so
// that an older Node reaches the version check instead of failing to link.
import * as nodeModule from 'node:module';
import { RUNNER_VERSION } from './package/version.js';
import { endAsPidOne } from './signals/pid-one.js';

const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  process.stderr.write(`chaoskit: needs Node 22 or later; this is Node ${process.versions.node}\n`);
  process.exit(1);
}
nodeModule.enableCompileCache?.();
// `--version` alone answers before the program and its commands load (a tenth of the time).
const args = process.argv.slice(2);
const versionOnly = args.length === 1 && (args[0] === '--version' || args[0] === '-V');
endAsPidOne();
if (versionOnly) process.stdout.write(`${RUNNER_VERSION}\n`);
else await (await import('./cli.js')).main(process.argv);
