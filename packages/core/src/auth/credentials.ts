// Which authenticator a cluster's credential gets: chosen once per connection.

import { AuthProviderAuthenticator } from './auth-provider.js';
import { type Authenticator, StaticAuthenticator } from './authenticator.js';
import type { ClusterAuth, ClusterConfig } from './cluster-client.js';
import { ExecAuthenticator } from './exec.js';
import { TokenFileAuthenticator } from './token-file.js';

const basic = (auth: Extract<ClusterAuth, { kind: 'basic' }>) =>
  `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;

/** The authenticator of a cluster's credential. */
export function authenticatorFor(config: ClusterConfig): Authenticator {
  const auth = config.auth;
  switch (auth.kind) {
    case 'none':
      return new StaticAuthenticator(undefined);
    case 'bearer':
      return new StaticAuthenticator(`Bearer ${auth.token}`);
    case 'header':
      return new StaticAuthenticator(auth.value);
    case 'basic':
      return new StaticAuthenticator(basic(auth));
    case 'token-file':
      return new TokenFileAuthenticator(auth.path);
    case 'exec':
      return new ExecAuthenticator(auth.exec, config.server);
    case 'auth-provider':
      return new AuthProviderAuthenticator(auth);
  }
}
