import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The wrapper modules under packages/cluster/go pin what the local provider builds or fetches
// from the Go module proxy; each has a go.sum, so every download is checked.
export const goDir = fileURLToPath(new URL('../../go/', import.meta.url));

export type GoWrapper =
  | 'kubernetes'
  | 'etcd'
  | 'kwok'
  | 'istio-api'
  | 'istiod'
  | 'meshprobe'
  | 'benchref'
  | 'prometheus'
  | 'jaeger'
  | 'registry'
  | 'images'
  | 'kube-router';

// The toolchain on PATH as it is (no automatic toolchain download), modules only as go.sum
// allows, no cgo: static binaries that run on any Linux of the same architecture.
const goEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  GOTOOLCHAIN: 'local',
  GOWORK: 'off',
  CGO_ENABLED: '0',
  GOFLAGS: '-mod=readonly',
});

/** The `go` directive of a wrapper module: the oldest Go that can build it. */
export function requiredGo(wrapper: GoWrapper): string {
  const mod = readFileSync(join(goDir, wrapper, 'go.mod'), 'utf8');
  return /^go\s+(\S+)/m.exec(mod)?.[1] ?? '1.24.0';
}

/**
 * Runs `go` in a wrapper module. With `capture`, stdout is returned; otherwise it goes to this
 * process's stderr, as Go's own progress does.
 */
export function runGo(args: string[], wrapper: GoWrapper, capture = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('go', args, {
      cwd: join(goDir, wrapper),
      env: goEnv(),
      stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'],
    });
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    child.on('error', (err) =>
      reject(new Error(`cannot run 'go' (is Go installed and on PATH?): ${err.message}`, { cause: err })),
    );
    child.on('exit', (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`'go ${args[0]}' in ${wrapper} failed with exit code ${code}`)),
    );
  });
}
