// Runs vitest and ends with the plain summary line CI reads, taken from vitest's own JSON
// report: `N passed, N failed, N skipped`. Exits with vitest's exit code.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

const report = '.vitest-report.json';
rmSync(report, { force: true });
const run = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit' },
);
let summary = 'vitest wrote no report';
try {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  summary = `${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`;
  if (r.numFailedTestSuites > 0 && r.numFailedTests === 0) {
    summary = `${r.numPassedTests} passed, ${r.numFailedTestSuites} failed, ${skipped} skipped`;
  }
} catch {}
console.log(summary);
process.exit(run.status ?? 1);
