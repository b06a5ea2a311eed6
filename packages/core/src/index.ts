// One zod for every chaoskit package: argument schemas are built with core's copy.
export { z } from 'zod';
export * from './api.js';
export * from './args.js';
export * from './bulk.js';
export * from './cluster-client.js';
export * from './configuration.js';
export * from './define-activity.js';
export * from './document-file.js';
export * from './errors.js';
export * from './label-selector.js';
export * from './parse-since.js';
export * from './random.js';
export { redact, redactValue, registerSecret } from './redact.js';
export * from './registry.js';
export * from './secrets.js';
export * from './select-nodes.js';
export * from './select-pods.js';
export * from './substitute.js';
