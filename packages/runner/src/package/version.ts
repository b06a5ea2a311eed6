import { readFileSync } from 'node:fs';

// Written into the bundled command by the bundle script, whose files stand without the
// package.json in the runner image (D149).
declare const CHAOSKIT_RUNNER_VERSION: string | undefined;

export const RUNNER_VERSION: string =
  typeof CHAOSKIT_RUNNER_VERSION === 'string'
    ? CHAOSKIT_RUNNER_VERSION
    : (
        JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
          version: string;
        }
      ).version;

/**
 * The Chaos Toolkit format chaoskit follows (D95): its journals' `chaoslib-version`, a SemVer as
 * Chaos Toolkit's own tools expect (chaostoolkit-reporting picks its template by it). 1.45.0's
 * format is 1.44.0's, against which the conformance kit checks it (1.45.0 only needs a newer Python).
 */
export const CHAOSLIB_VERSION = '1.45.0';
