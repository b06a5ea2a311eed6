import { describe, expect, it } from 'vitest';
import { k3sImportError, MissingK3sPackages } from './k3s-provider.js';

/** An error shaped like the one Node's ESM loader throws for a package it cannot find. */
function notFound(name: string, code = 'ERR_MODULE_NOT_FOUND'): Error {
  return Object.assign(new Error(`Cannot find package '${name}' imported from /app/dist/k3s-provider.js`), {
    code,
  });
}

describe('k3sImportError', () => {
  it.each(['testcontainers', '@testcontainers/k3s'])('says how to install %s when it is missing', (name) => {
    const cause = notFound(name);
    const err = k3sImportError(cause);
    expect(err).toBeInstanceOf(MissingK3sPackages);
    expect((err as Error).message).toBe(
      'the k3s provider needs the optional packages testcontainers and @testcontainers/k3s: npm install testcontainers @testcontainers/k3s',
    );
    expect((err as Error).cause).toBe(cause);
  });

  it('does not blame the optional packages for a missing dependency of theirs', () => {
    const cause = notFound('ssh2');
    expect(k3sImportError(cause)).toBe(cause);
  });

  it('passes any other failure through', () => {
    const cause = new SyntaxError('Unexpected token');
    expect(k3sImportError(cause)).toBe(cause);
    expect(k3sImportError(undefined)).toBeUndefined();
  });
});
