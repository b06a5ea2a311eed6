// A bridge to @kubernetes/client-node for what chaoskit's own client does not do: a KubeConfig
// of the same cluster and identity, for exec over websockets. It loads client-node on first use.

import { readFileSync } from 'node:fs';
import type { KubeConfig } from '@kubernetes/client-node';
import { authProviderKubeConfig } from './auth-provider.js';
import type { ClusterConfig } from './cluster-client.js';
import { pemText } from './cluster-client.js';

const base64 = (text: string) => Buffer.from(text).toString('base64');

/** A client-node KubeConfig for the same cluster and identity. */
export async function clientNodeKubeConfig(config: ClusterConfig): Promise<KubeConfig> {
  const auth = config.auth;
  if (auth.kind === 'auth-provider') return authProviderKubeConfig(auth);
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kc = new KubeConfig();
  const user: Record<string, unknown> = { name: 'chaoskit' };
  if (auth.kind === 'bearer') user.token = auth.token;
  if (auth.kind === 'token-file') user.token = readFileSync(auth.path, 'utf8').trim();
  if (auth.kind === 'basic') Object.assign(user, { username: auth.username, password: auth.password });
  if (auth.kind === 'exec') user.exec = auth.exec;
  if (config.clientCert) {
    user.certData = base64(pemText(config.clientCert.cert));
    user.keyData = base64(pemText(config.clientCert.key));
  }
  kc.loadFromOptions({
    clusters: [
      {
        name: 'chaoskit',
        server: config.server,
        skipTLSVerify: config.insecure,
        ...(config.ca ? { caData: base64(pemText(config.ca)) } : {}),
        ...(config.servername ? { tlsServerName: config.servername } : {}),
      },
    ],
    users: [user],
    contexts: [{ name: 'chaoskit', cluster: 'chaoskit', user: 'chaoskit' }],
    currentContext: 'chaoskit',
  });
  return kc;
}
