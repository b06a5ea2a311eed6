import { execFile } from 'node:child_process';
import { constants, existsSync } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { promisify } from 'node:util';
import { istiodMissing, missingBinaries } from '../host/binaries.js';
import { cacheBusy, cacheDir, type ProgressSink } from '../host/cache.js';
import { type GoWrapper, requiredGo } from '../host/go.js';
import { istioCrdsPath } from '../istio/crds.js';
import type { MeshOptions } from '../types.js';

const execFileAsync = promisify(execFile);

/** What the local provider cannot start without, found before any component runs. */
export class PreflightError extends Error {
  override readonly name = 'PreflightError';
  constructor(readonly problems: string[]) {
    super(`the local cluster cannot start:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

async function version(command: string, args: string[]): Promise<string | undefined> {
  try {
    const { stdout } = await execFileAsync(command, args, { timeout: 10_000 });
    return stdout.trim();
  } catch {
    return undefined;
  }
}

/** `1.24.0` ≤ `go1.26.8`? */
function atLeast(have: string, want: string): boolean {
  const parts = (v: string) => (/(\d+)\.(\d+)(?:\.(\d+))?/.exec(v) ?? []).slice(1).map((n) => Number(n ?? 0));
  const [a, b] = [parts(have), parts(want)];
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

/**
 * Checks, before anything starts, what the local provider needs on this machine: openssl
 * (certificates), and — only when something must still be built or fetched — Go and a
 * writable cache. Every problem is one line of one PreflightError. A cache that another
 * process is building into is not a problem: the start waits for it, and says so here.
 */
export async function preflight(mesh: MeshOptions | undefined, progress: ProgressSink): Promise<void> {
  const problems: string[] = [];
  if (!(await version('openssl', ['version']))) {
    problems.push('openssl was not found on PATH: the local cluster issues its certificates with it');
  }
  const toBuild: string[] = missingBinaries().map((p) => p.split('/').at(-1)!);
  const wrappers: GoWrapper[] = toBuild.length ? ['kubernetes', 'etcd', 'kwok'] : [];
  if (mesh?.istiod && istiodMissing()) {
    toBuild.push('pilot-discovery');
    wrappers.push('istiod');
  }
  const crdsToFetch =
    mesh !== undefined && !mesh.crdsPath && !process.env.CHAOSKIT_MESH_CRDS && !existsSync(istioCrdsPath());
  if (crdsToFetch) wrappers.push('istio-api');
  const given = mesh?.crdsPath ?? process.env.CHAOSKIT_MESH_CRDS;
  if (mesh && given && !existsSync(given)) {
    problems.push(`the mesh CRD file ${given} does not exist (mesh.crdsPath or CHAOSKIT_MESH_CRDS)`);
  }
  if (wrappers.length > 0) {
    const what = [
      ...(toBuild.length ? [`build ${toBuild.join(', ')}`] : []),
      ...(crdsToFetch ? ["fetch Istio's CRDs"] : []),
    ].join(' and ');
    const want = wrappers.map(requiredGo).reduce((a, b) => (atLeast(a, b) ? a : b));
    const go = await version('go', ['env', 'GOVERSION']);
    if (!go) {
      problems.push(
        `Go was not found on PATH: it is needed once, to ${what} from the Go module proxy into ${cacheDir()} (Go ${want} or later)`,
      );
    } else if (!atLeast(go, want)) {
      problems.push(`Go ${go} is too old to ${what}: Go ${want} or later is needed`);
    }
    try {
      await mkdir(cacheDir(), { recursive: true });
      await access(cacheDir(), constants.W_OK);
    } catch {
      problems.push(`the cache ${cacheDir()} is not writable (set CHAOSKIT_CACHE to a directory that is)`);
    }
    if (problems.length === 0 && (await cacheBusy())) {
      progress(
        `chaoskit: ${cacheDir()} is busy: another chaoskit process is building into it; waiting for it`,
      );
    }
  }
  if (problems.length > 0) throw new PreflightError(problems);
}
