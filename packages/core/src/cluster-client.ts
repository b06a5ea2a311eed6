import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { type Cluster, KubeConfig, type User } from '@kubernetes/client-node';
import { ConfigurationError } from './errors.js';
import { registerSecret } from './redact.js';

// How an activity reaches the cluster, first match wins (documented in core's README):
//   1. CLUSTER_HOST in the activity's secrets: explicit credentials (API key, username and
//      password, or client certificate and key; optional CA file).
//   2. A kubeconfig file: CLUSTERCONFIG, else KUBECONFIG (several paths merged as kubectl
//      does), else ~/.kube/config; context CLUSTER_CONTEXT (secrets, then environment), else
//      the file's current context.
//   3. RUNNER_IN_POD=true (or Chaos Toolkit's CHAOSTOOLKIT_IN_POD=true): the pod's
//      service-account token and CA.
//   4. CLUSTER_HOST in the environment: explicit credentials from the environment.
// Every CLUSTER_X is also read under Chaos Toolkit's name KUBERNETES_X, in the secrets and in
// the environment, so an unchanged Chaos Toolkit setup reaches the cluster it meant
// (chaoskit's name wins when both are set).
// TLS is verified unless CLUSTER_VERIFY_SSL is false, which prints a warning.

export const DEFAULT_SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

export interface ClientOptions {
  env?: NodeJS.ProcessEnv;
  /** Where warnings go (TLS verification off). Default: stderr. */
  warn?: (message: string) => void;
  /** The service-account mount; CHAOSKIT_SERVICE_ACCOUNT_DIR overrides it too (for tests). */
  serviceAccountDir?: string;
}

export interface ClusterClient {
  kubeConfig: KubeConfig;
  /** Which mechanism was used, for logs (never a credential). */
  source: string;
}

type Lookup = (key: string) => unknown;

const ALIAS = (key: string) => (key.startsWith('CLUSTER_') ? `KUBERNETES_${key.slice(8)}` : key);

function fromEnv(env: NodeJS.ProcessEnv, key: string): string | undefined {
  return env[key] ?? env[ALIAS(key)];
}

function lookupIn(secrets: Record<string, unknown>, env: NodeJS.ProcessEnv): Lookup {
  return (key) =>
    key in secrets ? secrets[key] : ALIAS(key) in secrets ? secrets[ALIAS(key)] : fromEnv(env, key);
}

function str(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return String(value);
}

/** False only for an explicit false ("false", "0", "no", "off" or a boolean false). */
function verifyTls(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (value === false) return false;
  return !['false', '0', 'no', 'off'].includes(String(value).trim().toLowerCase());
}

export function createClusterClient(
  secrets: Record<string, unknown> = {},
  options: ClientOptions = {},
): ClusterClient {
  const env = options.env ?? process.env;
  const warn = options.warn ?? ((m: string) => process.stderr.write(`chaoskit: warning: ${m}\n`));
  const lookup = lookupIn(secrets, env);
  const tried: string[] = [];
  let client: ClusterClient | undefined;

  if (str(secrets.CLUSTER_HOST ?? secrets.KUBERNETES_HOST)) {
    client = explicit(lookup, 'CLUSTER_HOST from the secrets');
  } else {
    tried.push('CLUSTER_HOST in the secrets (not given)');
    const files = kubeconfigFiles(env);
    if (files.existing.length > 0) {
      client = fromKubeconfig(files.existing, str(lookup('CLUSTER_CONTEXT')));
    } else {
      tried.push(`a kubeconfig file (${files.considered} does not exist)`);
      if (env.RUNNER_IN_POD === 'true' || env.CHAOSTOOLKIT_IN_POD === 'true') {
        client = inPod(
          env,
          options.serviceAccountDir ?? env.CHAOSKIT_SERVICE_ACCOUNT_DIR ?? DEFAULT_SERVICE_ACCOUNT_DIR,
        );
      } else {
        tried.push('RUNNER_IN_POD=true (not set)');
        if (str(fromEnv(env, 'CLUSTER_HOST'))) client = explicit(lookup, 'CLUSTER_HOST from the environment');
        else tried.push('CLUSTER_HOST in the environment (not set)');
      }
    }
  }
  if (!client) {
    throw new ConfigurationError(
      `no cluster configured; tried, in order: ${tried.join('; ')}. Give CLUSTER_HOST and credentials in the activity's secrets, a kubeconfig (CLUSTERCONFIG or KUBECONFIG), or set RUNNER_IN_POD=true inside a pod`,
    );
  }
  if (!verifyTls(lookup('CLUSTER_VERIFY_SSL'))) {
    for (const cluster of client.kubeConfig.clusters)
      (cluster as { skipTLSVerify: boolean }).skipTLSVerify = true;
    warn(
      `TLS verification of ${client.kubeConfig.getCurrentCluster()?.server} is turned off (CLUSTER_VERIFY_SSL)`,
    );
  }
  return client;
}

function kubeconfigFiles(env: NodeJS.ProcessEnv): { existing: string[]; considered: string } {
  const variable = env.CLUSTERCONFIG ? 'CLUSTERCONFIG' : env.KUBECONFIG ? 'KUBECONFIG' : undefined;
  const value = variable ? env[variable]! : join(homedir(), '.kube', 'config');
  const paths = value
    .split(delimiter)
    .filter(Boolean)
    .map((p) => (p.startsWith('~/') ? join(homedir(), p.slice(2)) : p));
  return {
    existing: paths.filter((p) => existsSync(p)),
    considered: variable ? `${variable}=${value}` : value,
  };
}

function fromKubeconfig(files: string[], context: string | undefined): ClusterClient {
  // kubectl's merge rule: the first file to define a name wins, and the first current context
  // wins (client-node's mergeConfig throws on a duplicate name instead).
  const loaded = files.map((file) => {
    const one = new KubeConfig();
    one.loadFromFile(file);
    return one;
  });
  const firstByName = <T extends { name: string }>(lists: T[][]) => {
    const seen = new Map<string, T>();
    for (const item of lists.flat()) if (!seen.has(item.name)) seen.set(item.name, item);
    return [...seen.values()];
  };
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: firstByName(loaded.map((k) => k.clusters)),
    users: firstByName(loaded.map((k) => k.users)),
    contexts: firstByName(loaded.map((k) => k.contexts)),
    currentContext: loaded.map((k) => k.currentContext).find(Boolean),
  });
  if (context) {
    if (!kc.getContextObject(context)) {
      throw new ConfigurationError(
        `CLUSTER_CONTEXT '${context}' is not a context of ${files.join(', ')} (contexts: ${
          kc
            .getContexts()
            .map((c) => c.name)
            .join(', ') || 'none'
        })`,
      );
    }
    kc.setCurrentContext(context);
  }
  if (!kc.getCurrentCluster()) {
    throw new ConfigurationError(
      `kubeconfig ${files.join(', ')} has no current context; set CLUSTER_CONTEXT`,
    );
  }
  return {
    kubeConfig: kc,
    source: `kubeconfig ${files.join(delimiter)} (context ${kc.getCurrentContext()})`,
  };
}

function explicit(lookup: Lookup, source: string): ClusterClient {
  const server = str(lookup('CLUSTER_HOST'))!;
  const cluster: Cluster = { name: 'chaoskit', server, skipTLSVerify: false };
  const caFile = str(lookup('CLUSTER_CA_CERT_FILE'));
  if (caFile) (cluster as { caFile?: string }).caFile = readable(caFile, 'CLUSTER_CA_CERT_FILE');

  let user: User;
  let kind: string;
  const apiKey = str(lookup('CLUSTER_API_KEY'));
  if (apiKey !== undefined) {
    registerSecret(apiKey);
    const prefix = str(lookup('CLUSTER_API_KEY_PREFIX')) ?? 'Bearer';
    user =
      prefix === 'Bearer'
        ? { name: 'chaoskit', token: apiKey }
        : { name: 'chaoskit', authProvider: { name: API_KEY_PROVIDER, config: { prefix, key: apiKey } } };
    kind = 'API key';
  } else if (str(lookup('CLUSTER_CERT_FILE')) !== undefined) {
    const keyFile = str(lookup('CLUSTER_KEY_FILE'));
    if (!keyFile) throw new ConfigurationError('CLUSTER_CERT_FILE is set but CLUSTER_KEY_FILE is not');
    user = {
      name: 'chaoskit',
      certFile: readable(str(lookup('CLUSTER_CERT_FILE'))!, 'CLUSTER_CERT_FILE'),
      keyFile: readable(keyFile, 'CLUSTER_KEY_FILE'),
    };
    kind = 'client certificate';
  } else if (str(lookup('CLUSTER_USERNAME')) !== undefined) {
    const password = str(lookup('CLUSTER_PASSWORD')) ?? '';
    registerSecret(password);
    user = { name: 'chaoskit', username: str(lookup('CLUSTER_USERNAME'))!, password };
    kind = 'username and password';
  } else {
    throw new ConfigurationError(
      `${source}: CLUSTER_HOST needs credentials: CLUSTER_API_KEY, CLUSTER_CERT_FILE with CLUSTER_KEY_FILE, or CLUSTER_USERNAME with CLUSTER_PASSWORD`,
    );
  }
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [cluster],
    users: [user],
    contexts: [{ name: 'chaoskit', cluster: 'chaoskit', user: 'chaoskit' }],
    currentContext: 'chaoskit',
  });
  addAuthenticators(kc);
  return { kubeConfig: kc, source: `${source} (${kind})` };
}

function inPod(env: NodeJS.ProcessEnv, dir: string): ClusterClient {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT ?? '443';
  if (!host) throw new ConfigurationError('RUNNER_IN_POD=true but KUBERNETES_SERVICE_HOST is not set');
  const tokenFile = readable(join(dir, 'token'), 'the service-account token');
  const caFile = readable(join(dir, 'ca.crt'), 'the service-account CA');
  const server = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const kc = new KubeConfig();
  const namespace = existsSync(join(dir, 'namespace'))
    ? readFileSync(join(dir, 'namespace'), 'utf8').trim()
    : undefined;
  kc.loadFromOptions({
    clusters: [{ name: 'in-pod', server, caFile, skipTLSVerify: false }],
    // Not `config.tokenFile`: client-node's own file authenticator claims that key first.
    users: [{ name: 'in-pod', authProvider: { name: TOKEN_FILE_PROVIDER, config: { path: tokenFile } } }],
    contexts: [{ name: 'in-pod', cluster: 'in-pod', user: 'in-pod', ...(namespace ? { namespace } : {}) }],
    currentContext: 'in-pod',
  });
  addAuthenticators(kc);
  return { kubeConfig: kc, source: `RUNNER_IN_POD (service account at ${dir})` };
}

function readable(path: string, what: string): string {
  try {
    statSync(path);
    return path;
  } catch {
    throw new ConfigurationError(`${what}: file ${path} does not exist or cannot be read`);
  }
}

// client-node does not export the type from its index.
type Authenticator = Parameters<KubeConfig['addAuthenticator']>[0];

const API_KEY_PROVIDER = 'chaoskit-api-key';
const TOKEN_FILE_PROVIDER = 'chaoskit-token-file';

// An API key with a prefix other than Bearer (CLUSTER_API_KEY_PREFIX).
const apiKeyAuthenticator: Authenticator = {
  isAuthProvider: (user) => user.authProvider?.name === API_KEY_PROVIDER,
  async applyAuthentication(user, opts) {
    const { prefix, key } = user.authProvider!.config as { prefix: string; key: string };
    opts.headers ??= {};
    opts.headers.Authorization = prefix ? `${prefix} ${key}` : key;
  },
};

// The service-account token is re-read whenever the file changes (the kubelet rotates it),
// not on a fixed schedule, so a rotated token is used on the very next request.
const tokenFileAuthenticator: Authenticator = {
  isAuthProvider: (user) => user.authProvider?.name === TOKEN_FILE_PROVIDER,
  async applyAuthentication(user, opts) {
    const config = user.authProvider!.config as { path: string; token?: string; mtimeMs?: number };
    const mtimeMs = statSync(config.path).mtimeMs;
    if (config.token === undefined || config.mtimeMs !== mtimeMs) {
      config.token = readFileSync(config.path, 'utf8').trim();
      config.mtimeMs = mtimeMs;
      registerSecret(config.token);
    }
    opts.headers ??= {};
    opts.headers.Authorization = `Bearer ${config.token}`;
  },
};

function addAuthenticators(kc: KubeConfig): void {
  kc.addAuthenticator(apiKeyAuthenticator);
  kc.addAuthenticator(tokenFileAuthenticator);
}
