#!/usr/bin/env node
// The `chaoskit` command: Node's compile cache on first, so that every module the command then
// loads is compiled once per version and read from the cache afterwards.
import { enableCompileCache } from 'node:module';

enableCompileCache?.();
await import('./cli.js');
