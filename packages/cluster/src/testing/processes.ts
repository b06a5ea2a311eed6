import { execFileSync } from 'node:child_process';

export { isAlive } from '../host/processes.js';

/**
 * The pids of the processes of this machine whose command line holds `marker`: kwok runs a fake
 * pod's exec commands as its own children, so a marker in the command finds them.
 */
export function processesWith(marker: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim().split('\n').map(Number);
  } catch {
    return [];
  }
}
