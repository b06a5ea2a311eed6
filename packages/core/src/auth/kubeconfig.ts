// Reading kubeconfig files as kubectl does, without @kubernetes/client-node: several files are
// merged (the first file to define a name wins, the first current-context wins), relative
// paths are taken from the file that names them.

import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { load } from 'js-yaml';
import { ConfigurationError } from '../errors/errors.js';

export interface KubeconfigCluster {
  name: string;
  server: string;
  caFile?: string;
  caData?: string;
  insecure?: boolean;
  tlsServerName?: string;
  proxyUrl?: string;
}

export interface ExecConfig {
  command: string;
  args?: string[];
  env?: Array<{ name: string; value: string }>;
  apiVersion?: string;
  provideClusterInfo?: boolean;
}

export interface KubeconfigUser {
  name: string;
  token?: string;
  tokenFile?: string;
  certFile?: string;
  certData?: string;
  keyFile?: string;
  keyData?: string;
  username?: string;
  password?: string;
  exec?: ExecConfig;
  /** A legacy auth-provider (oidc, gcp, azure): left to @kubernetes/client-node. */
  authProvider?: { name: string; config?: Record<string, string> };
  impersonate?: string;
}

export interface KubeconfigContext {
  name: string;
  cluster: string;
  user: string;
  namespace?: string;
}

export interface Kubeconfig {
  clusters: KubeconfigCluster[];
  users: KubeconfigUser[];
  contexts: KubeconfigContext[];
  currentContext?: string;
}

type Raw = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const rec = (v: unknown): Raw => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : {});
const list = (v: unknown): Raw[] => (Array.isArray(v) ? v.map(rec) : []);

function path(dir: string, value: unknown): string | undefined {
  const p = str(value);
  return p === undefined || isAbsolute(p) ? p : join(dir, p);
}

function parseFile(file: string): Kubeconfig {
  let doc: Raw;
  try {
    doc = rec(load(readFileSync(file, 'utf8')));
  } catch (err) {
    throw new ConfigurationError(
      `kubeconfig ${file} cannot be read: ${(err as Error).message.split('\n')[0]}`,
    );
  }
  const dir = dirname(file);
  return {
    clusters: list(doc.clusters).map((entry) => {
      const c = rec(entry.cluster);
      return {
        name: String(entry.name ?? ''),
        server: String(c.server ?? ''),
        ...(path(dir, c['certificate-authority']) ? { caFile: path(dir, c['certificate-authority'])! } : {}),
        ...(str(c['certificate-authority-data']) ? { caData: str(c['certificate-authority-data'])! } : {}),
        ...(c['insecure-skip-tls-verify'] === true ? { insecure: true } : {}),
        ...(str(c['tls-server-name']) ? { tlsServerName: str(c['tls-server-name'])! } : {}),
        ...(str(c['proxy-url']) ? { proxyUrl: str(c['proxy-url'])! } : {}),
      };
    }),
    users: list(doc.users).map((entry) => {
      const u = rec(entry.user);
      const exec = rec(u.exec);
      const provider = rec(u['auth-provider']);
      const user: KubeconfigUser = { name: String(entry.name ?? '') };
      if (str(u.token)) user.token = str(u.token)!;
      if (path(dir, u.tokenFile)) user.tokenFile = path(dir, u.tokenFile)!;
      if (path(dir, u['client-certificate'])) user.certFile = path(dir, u['client-certificate'])!;
      if (str(u['client-certificate-data'])) user.certData = str(u['client-certificate-data'])!;
      if (path(dir, u['client-key'])) user.keyFile = path(dir, u['client-key'])!;
      if (str(u['client-key-data'])) user.keyData = str(u['client-key-data'])!;
      if (str(u.username)) user.username = str(u.username)!;
      if (typeof u.password === 'string') user.password = u.password;
      if (str(u.as)) user.impersonate = str(u.as)!;
      if (str(exec.command)) {
        user.exec = {
          command: str(exec.command)!,
          args: Array.isArray(exec.args) ? exec.args.map(String) : [],
          env: list(exec.env).map((e) => ({ name: String(e.name), value: String(e.value ?? '') })),
          ...(str(exec.apiVersion) ? { apiVersion: str(exec.apiVersion)! } : {}),
          ...(exec.provideClusterInfo === true ? { provideClusterInfo: true } : {}),
        };
      }
      if (str(provider.name)) {
        user.authProvider = {
          name: str(provider.name)!,
          config: rec(provider.config) as Record<string, string>,
        };
      }
      return user;
    }),
    contexts: list(doc.contexts).map((entry) => {
      const c = rec(entry.context);
      return {
        name: String(entry.name ?? ''),
        cluster: String(c.cluster ?? ''),
        user: String(c.user ?? ''),
        ...(str(c.namespace) ? { namespace: str(c.namespace)! } : {}),
      };
    }),
    ...(str(doc['current-context']) ? { currentContext: str(doc['current-context'])! } : {}),
  };
}

/** The files merged as kubectl merges them. */
export function loadKubeconfig(files: readonly string[]): Kubeconfig {
  const loaded = files.map(parseFile);
  const firstByName = <T extends { name: string }>(lists: T[][]) => {
    const seen = new Map<string, T>();
    for (const item of lists.flat()) if (!seen.has(item.name)) seen.set(item.name, item);
    return [...seen.values()];
  };
  const currentContext = loaded.map((k) => k.currentContext).find(Boolean);
  return {
    clusters: firstByName(loaded.map((k) => k.clusters)),
    users: firstByName(loaded.map((k) => k.users)),
    contexts: firstByName(loaded.map((k) => k.contexts)),
    ...(currentContext ? { currentContext } : {}),
  };
}
