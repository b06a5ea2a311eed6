// The README's "in this checkout, after ./dev setup: npx chaoskit --help, npx chaoskit-cluster
// --help, npx chaoskit-conformance --help": each answers from the checkout itself. npm links a
// workspace's bin only to a file that exists, and a fresh clone has no dist/ when it installs:
// the build makes them (executable), and ./dev links them once it has.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

it('names the three commands it says answer in the checkout', () => {
  expect(readFileSync(`${ROOT}/README.md`, 'utf8')).toContain(
    'In this checkout, after `./dev setup`: `npx chaoskit --help`, `npx chaoskit-cluster --help`,\n`npx chaoskit-conformance --help`.',
  );
});

it.each(['chaoskit', 'chaoskit-cluster', 'chaoskit-conformance'])(
  'npx --no-install %s --help answers from the checkout',
  (bin) => {
    const out = execFileSync('npx', ['--no-install', bin, '--help'], { cwd: ROOT, encoding: 'utf8' });
    expect(out).toMatch(new RegExp(`^Usage: ${bin} `));
  },
);
