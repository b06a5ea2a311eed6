// A legacy kubeconfig auth-provider (oidc, gcp, azure): rare, so left to @kubernetes/client-node,
// loaded only for such a user.

import type { KubeConfig } from '@kubernetes/client-node';
import { registerSecret } from '../errors/redact.js';
import type { Authenticator } from './authenticator.js';
import type { ClusterAuth } from './cluster-client.js';

type AuthProvider = Extract<ClusterAuth, { kind: 'auth-provider' }>;

/** A client-node KubeConfig of the kubeconfig that names the auth-provider, at its context. */
export async function authProviderKubeConfig(auth: AuthProvider): Promise<KubeConfig> {
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kc = new KubeConfig();
  const k = auth.kubeconfig;
  kc.loadFromOptions({
    clusters: k.clusters.map((c) => ({ name: c.name, server: c.server, skipTLSVerify: !!c.insecure })),
    users: k.users.map((u) => ({
      name: u.name,
      ...(u.authProvider ? { authProvider: u.authProvider } : {}),
    })),
    contexts: k.contexts,
    currentContext: auth.context,
  });
  return kc;
}

export class AuthProviderAuthenticator implements Authenticator {
  constructor(private readonly auth: AuthProvider) {}

  async authorization(): Promise<string | undefined> {
    const kc = await authProviderKubeConfig(this.auth);
    const opts: { headers?: Record<string, string> } = {};
    // Not in client-node's typings, but the one method that applies an auth-provider's header.
    await (
      kc as unknown as { applyAuthorizationHeader(o: typeof opts): Promise<void> }
    ).applyAuthorizationHeader(opts);
    const header = opts.headers?.Authorization;
    registerSecret(header);
    return header;
  }
}
