import { afterEach, describe, expect, it } from 'vitest';
import { clearSecretsForTests, redact, redactValue, registerSecret, registerTarget } from './redact.js';

afterEach(() => clearSecretsForTests());

describe('redact (D90)', () => {
  it('masks a short context name where it is named, and never inside another word', () => {
    registerTarget('sa');
    registerTarget('shop');
    expect(redact('context sa: usage of the sandbox; sa-token, (sa).')).toBe(
      'context ***: usage of the sandbox; sa-token, (***).',
    );
    expect(redact('the workshop of shop, shopping; shop-frontend and shop_1 are other names')).toBe(
      'the workshop of ***, shopping; shop-frontend and shop_1 are other names',
    );
  });

  it('masks a credential wherever it appears, inside other text too', () => {
    registerSecret('tok-123456');
    expect(redact('Bearer tok-123456 and xtok-123456y')).toBe('Bearer *** and x***y');
  });

  it('masks a server URL whole before its host, and a host or path at the end of a sentence', () => {
    for (const value of ['https://api.prod.example:6443', 'api.prod.example:6443', 'api.prod.example'])
      registerTarget(value);
    registerTarget('/home/ops/.kube/prod');
    expect(
      redact(
        'GET https://api.prod.example:6443/api failed; dial api.prod.example:6443: refused. Read /home/ops/.kube/prod.',
      ),
    ).toBe('GET ***/api failed; dial ***: refused. Read ***.');
    expect(redact('api.prod.example.org is another host')).toBe('api.prod.example.org is another host');
  });

  it('keeps the identity a refusal names, whole, and masks the names around it', () => {
    // The kubeconfig's context and user are named after the service account, as often.
    registerTarget('runner');
    const forbidden =
      'pods is forbidden: User "system:serviceaccount:shop:runner" cannot list resource "pods" in the namespace "shop" (context runner)';
    expect(redact(forbidden)).toBe(
      'pods is forbidden: User "system:serviceaccount:shop:runner" cannot list resource "pods" in the namespace "shop" (context ***)',
    );
    expect(redact('as system:serviceaccount:shop:runner, runner may not')).toBe(
      'as system:serviceaccount:shop:runner, *** may not',
    );
    expect(redactValue({ error: 'User "runner" cannot get' })).toEqual({ error: 'User "runner" cannot get' });
  });

  it('masks a credential even inside an identity', () => {
    registerSecret('s3cr3t-value');
    expect(redact('User "s3cr3t-value" cannot get')).toBe('User "***" cannot get');
  });

  it('shows the values the user typed on this command line, only where asked', () => {
    registerTarget('nope');
    registerTarget('prod-eu');
    const message = "--context 'nope' is not a context of the kubeconfig; prod-eu is";
    expect(redact(message)).toBe("--context '***' is not a context of the kubeconfig; *** is");
    expect(redact(message, { show: ['nope'] })).toBe(
      "--context 'nope' is not a context of the kubeconfig; *** is",
    );
  });

  it('leaves the names every cluster has, and single characters, alone', () => {
    for (const value of ['default', 'kubernetes', 'a']) registerTarget(value);
    expect(redact('namespace default of kubernetes, a pod')).toBe('namespace default of kubernetes, a pod');
  });
});
