// A token kept in a file (a pod's service-account token): the kubelet rotates it, so it is read
// again whenever the file changes, not on a timer.

import { readFileSync, statSync } from 'node:fs';
import { registerSecret } from '../errors/redact.js';
import type { Authenticator } from './authenticator.js';

export class TokenFileAuthenticator implements Authenticator {
  #read: { mtimeMs: number; header: string } | undefined;

  constructor(private readonly path: string) {}

  async authorization(): Promise<string> {
    const mtimeMs = statSync(this.path).mtimeMs;
    if (this.#read?.mtimeMs !== mtimeMs) {
      const token = readFileSync(this.path, 'utf8').trim();
      registerSecret(token);
      this.#read = { mtimeMs, header: `Bearer ${token}` };
    }
    return this.#read.header;
  }
}
