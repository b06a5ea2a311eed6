// Throwaway certificates through openssl, for any server this package starts on this machine.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

async function openssl(args: string[], cwd: string): Promise<void> {
  try {
    await execFileAsync('openssl', args, { cwd });
  } catch (err) {
    throw new Error(`openssl ${args[0]} failed (is openssl installed?): ${(err as Error).message}`, {
      cause: err,
    });
  }
}

// EC keys are fast to generate; certificates are valid for two days, enough for any test run.
const ecKey = (dir: string, name: string) =>
  openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.key`], dir);

/** A throwaway CA in `dir`: `<name>.key` and the self-signed `<name>.crt`. */
export async function issueCa(dir: string, name: string, subject: string): Promise<void> {
  await ecKey(dir, name);
  await openssl(
    ['req', '-x509', '-new', '-key', `${name}.key`, '-subj', subject, '-days', '2', '-out', `${name}.crt`],
    dir,
  );
}

/** `<name>.key` and `<name>.crt` signed by the CA `ca` of the same `dir`; `extfile` adds extensions. */
export async function issueCert(
  dir: string,
  name: string,
  subject: string,
  ca: string,
  extfile?: string,
): Promise<void> {
  await ecKey(dir, name);
  await openssl(['req', '-new', '-key', `${name}.key`, '-subj', subject, '-out', `${name}.csr`], dir);
  await openssl(
    [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${ca}.crt`,
      '-CAkey',
      `${ca}.key`,
      '-CAcreateserial',
      '-days',
      '2',
      ...(extfile ? ['-extfile', extfile] : []),
      '-out',
      `${name}.crt`,
    ],
    dir,
  );
}
