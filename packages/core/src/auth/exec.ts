// An exec credential plugin (client.authentication.k8s.io): a command that prints a token or a
// client certificate, run again when what it printed expires.

import { spawn } from 'node:child_process';
import { ConfigurationError } from '../errors/errors.js';
import { registerSecret } from '../errors/redact.js';
import type { Authenticator } from './authenticator.js';
import type { ExecConfig } from './kubeconfig.js';

interface Credential {
  header?: string;
  /** When to run the plugin again (ms since epoch). */
  expires?: number;
}

interface ExecStatus {
  token?: string;
  clientCertificateData?: string;
  clientKeyData?: string;
  expirationTimestamp?: string;
}

export class ExecAuthenticator implements Authenticator {
  #credential: Credential | undefined;
  #cert: { cert: string; key: string } | undefined;

  constructor(
    private readonly exec: ExecConfig,
    /** The cluster's server, for a plugin that asks for it (`provideClusterInfo`). */
    private readonly server: string,
  ) {}

  async authorization(): Promise<string | undefined> {
    if (
      !this.#credential ||
      (this.#credential.expires !== undefined && Date.now() >= this.#credential.expires)
    ) {
      this.#credential = await this.run();
    }
    return this.#credential.header;
  }

  clientCertificate(): { cert: string; key: string } | undefined {
    return this.#cert;
  }

  private async run(): Promise<Credential> {
    const exec = this.exec;
    const apiVersion = exec.apiVersion ?? 'client.authentication.k8s.io/v1';
    const info = {
      apiVersion,
      kind: 'ExecCredential',
      spec: {
        interactive: false,
        ...(exec.provideClusterInfo ? { cluster: { server: this.server } } : {}),
      },
    };
    const env: NodeJS.ProcessEnv = { ...process.env, KUBERNETES_EXEC_INFO: JSON.stringify(info) };
    for (const e of exec.env ?? []) env[e.name] = e.value;
    const stdout = await new Promise<string>((resolve, reject) => {
      const child = spawn(exec.command, exec.args ?? [], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
      });
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        err += d;
      });
      child.on('error', (e) =>
        reject(
          new ConfigurationError(
            `the kubeconfig's exec credential plugin '${exec.command}' cannot run: ${e.message}`,
          ),
        ),
      );
      child.on('exit', (code) =>
        code === 0
          ? resolve(out)
          : reject(
              new ConfigurationError(
                `the kubeconfig's exec credential plugin '${exec.command}' failed (exit ${code}): ${err.trim().split('\n').at(-1) ?? ''}`,
              ),
            ),
      );
    });
    let status: ExecStatus;
    try {
      status = (JSON.parse(stdout) as { status?: ExecStatus }).status ?? {};
    } catch {
      throw new ConfigurationError(
        `the kubeconfig's exec credential plugin '${exec.command}' did not print an ExecCredential`,
      );
    }
    registerSecret(status.token);
    if (status.clientCertificateData && status.clientKeyData) {
      registerSecret(status.clientKeyData);
      this.#cert = { cert: status.clientCertificateData, key: status.clientKeyData };
    }
    const expires = status.expirationTimestamp ? Date.parse(status.expirationTimestamp) - 10_000 : undefined;
    return {
      ...(status.token ? { header: `Bearer ${status.token}` } : {}),
      ...(expires !== undefined && !Number.isNaN(expires) ? { expires } : {}),
    };
  }
}
