// Bridges to @kubernetes/client-node for what chaoskit's own client does not do: a generated,
// typed API client over chaoskit's connection (ctx.api), and a KubeConfig for exec over
// websockets. Both load client-node on first use only.

import { readFileSync } from 'node:fs';
import type { ApiType, Configuration, KubeConfig } from '@kubernetes/client-node';
import type { ClusterConfig } from './cluster-client.js';
import { pemText } from './cluster-client.js';
import type { Connection, HttpMethod } from './connection.js';

export type ApiConstructor<T extends ApiType> = new (config: Configuration) => T;

/**
 * A generated client-node API whose every request goes through `connection`; in plan mode every
 * mutation is a server-side dry run, and the call's signal aborts every request, as with ctx.kube.
 */
export async function generatedApi<T extends ApiType>(
  connection: Connection,
  api: ApiConstructor<T>,
  options: { dryRun?: boolean; signal?: AbortSignal } = {},
): Promise<T> {
  const cn = await import('@kubernetes/client-node');
  const base = connection.server.href.replace(/\/$/, '');
  const httpApi = cn.wrapHttpLibrary({
    async send(request) {
      const url = new URL(request.getUrl());
      const headers = request.getHeaders();
      const body = request.getBody();
      const method = request.getHttpMethod() as HttpMethod;
      if (options.dryRun && method !== 'GET') url.searchParams.set('dryRun', 'All');
      const res = await connection.send({
        method,
        path: url.pathname.slice(new URL(base).pathname.replace(/\/$/, '').length) + url.search,
        ...(body !== undefined ? { body: String(body) } : {}),
        ...(headers['Content-Type'] ? { contentType: headers['Content-Type'] } : {}),
        ...(headers.Accept ? { accept: headers.Accept } : {}),
        ...signalOf(request.getSignal(), options.signal),
      });
      const headerMap = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)]));
      return new cn.ResponseContext(res.status, headerMap, {
        text: async () => res.body,
        binary: async () => Buffer.from(res.body),
        stream: () => null,
      });
    },
  });
  return new api(
    cn.createConfiguration({ baseServer: new cn.ServerConfiguration(base, {}), authMethods: {}, httpApi }),
  );
}

/** The request's own signal and the call's, either aborting it. */
function signalOf(...signals: Array<AbortSignal | undefined>): { signal?: AbortSignal } {
  const given = signals.filter((s): s is AbortSignal => s !== undefined);
  if (given.length === 0) return {};
  return { signal: given.length === 1 ? given[0]! : AbortSignal.any(given) };
}

const base64 = (text: string) => Buffer.from(text).toString('base64');

/** A client-node KubeConfig for the same cluster and identity. */
export async function clientNodeKubeConfig(config: ClusterConfig): Promise<KubeConfig> {
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kc = new KubeConfig();
  const auth = config.auth;
  if (auth.kind === 'auth-provider') {
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
  }
  const user: Record<string, unknown> = { name: 'chaoskit' };
  if (auth.kind === 'bearer') user.token = auth.token;
  if (auth.kind === 'token-file') user.token = readFileSync(auth.path, 'utf8').trim();
  if (auth.kind === 'basic') Object.assign(user, { username: auth.username, password: auth.password });
  if (auth.kind === 'exec') user.exec = auth.exec;
  if (config.clientCert) {
    user.certData = base64(pemText(config.clientCert.cert));
    user.keyData = base64(pemText(config.clientCert.key));
  }
  if (auth.kind !== 'auth-provider') {
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
  }
  return kc;
}
