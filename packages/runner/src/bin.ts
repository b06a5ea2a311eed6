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
await import('./cli.js');
