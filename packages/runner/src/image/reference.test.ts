// Image references as container engines read them: what --image and --push accept, and the name a
// node reports for each.
import { describe, expect, it } from 'vitest';
import { neverPulled, parseReference, reportedName } from './reference.js';

describe('parseReference', () => {
  it.each([
    ['chaoskit.local/runner:0.1.0', 'chaoskit.local/runner:0.1.0', true],
    ['busybox', 'docker.io/library/busybox:latest', false],
    ['acme/runner:2', 'docker.io/acme/runner:2', false],
    ['localhost:5000/chaoskit/runner', 'localhost:5000/chaoskit/runner:latest', false],
    ['ghcr.io/acme/chaoskit-runner:1.0.0', 'ghcr.io/acme/chaoskit-runner:1.0.0', false],
    [
      `registry.example.com/runner@sha256:${'a'.repeat(64)}`,
      `registry.example.com/runner@sha256:${'a'.repeat(64)}`,
      false,
    ],
  ])('reads %s as the node reports it: %s', (text, reported, local) => {
    const ref = parseReference(text)!;
    expect(reportedName(ref)).toBe(reported);
    expect(neverPulled(ref)).toBe(local);
  });

  it.each(['Runner:latest', 'acme//runner', 'runner:', ':tag', 'acme/runner:-x', ''])(
    'refuses %j',
    (text) => {
      expect(parseReference(text)).toBeUndefined();
    },
  );
});
