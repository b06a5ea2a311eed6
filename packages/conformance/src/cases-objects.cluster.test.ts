import { describeSharedCases } from './test-shared-cases.js';

await describeSharedCases('objects');
