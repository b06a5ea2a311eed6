import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ConfigurationError } from '../errors/errors.js';
import { redact, registerSecret, registerTarget } from '../errors/redact.js';
import { type ExecConfig, type Kubeconfig, loadKubeconfig } from './kubeconfig.js';

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

/** How requests authenticate, besides a client certificate. */
export type ClusterAuth =
  | { kind: 'none' }
  | { kind: 'bearer'; token: string }
  /** An API key with a prefix other than Bearer: the whole header value. */
  | { kind: 'header'; value: string }
  /** A token re-read whenever the file changes (a rotated service-account token). */
  | { kind: 'token-file'; path: string }
  | { kind: 'basic'; username: string; password: string }
  | { kind: 'exec'; exec: ExecConfig }
  /** A legacy kubeconfig auth-provider (oidc, gcp, azure), left to @kubernetes/client-node. */
  | { kind: 'auth-provider'; kubeconfig: Kubeconfig; context: string };

/** Everything needed to reach one cluster as one identity: plain data, resolved once. */
export interface ClusterConfig {
  server: string;
  /** PEM text or file of the CA; absent: the system's CAs. */
  ca?: { file?: string; pem?: string };
  /** TLS verification off (CLUSTER_VERIFY_SSL=false, or insecure-skip-tls-verify). */
  insecure: boolean;
  servername?: string;
  proxyUrl?: string;
  clientCert?: { cert: { file?: string; pem?: string }; key: { file?: string; pem?: string } };
  auth: ClusterAuth;
  impersonate?: string;
}

export interface ClusterClient {
  config: ClusterConfig;
  /** Which mechanism was used, for logs (never a credential; its names and paths are masked). */
  source: string;
  /** The names that chose the cluster (context, cluster, user): masked wherever they appear. */
  names?: string[];
  /** The files the configuration came from (kubeconfigs, the service-account mount): masked too. */
  files?: string[];
}

const PLUGIN_VERBS = new Set(['token', 'get-token', 'get', 'login', 'auth', 'credentials', 'exec']);

/**
 * Everything that selects or reaches the cluster is masked in every message from now on: the
 * server (URL, host and port, host), the names, the files, the proxy, the user to impersonate,
 * an exec plugin's command, arguments and environment. Credentials are secrets already.
 */
function maskTargets(config: ClusterConfig, names: Array<string | undefined>, files: string[]): void {
  maskServer(config.server);
  const targets = [
    ...names,
    ...files,
    config.ca?.file,
    config.clientCert?.cert.file,
    config.clientCert?.key.file,
    config.proxyUrl,
    config.impersonate,
    config.servername,
  ];
  const { auth } = config;
  if (auth.kind === 'token-file') targets.push(auth.path);
  if (auth.kind === 'basic') targets.push(auth.username);
  if (auth.kind === 'exec') {
    // Its arguments name the cluster (`--cluster prod-eks`); flags and verbs name nothing.
    const named = (auth.exec.args ?? []).filter((arg) => !arg.startsWith('-') && !PLUGIN_VERBS.has(arg));
    targets.push(auth.exec.command, ...named);
    for (const variable of auth.exec.env ?? []) registerSecret(variable.value);
  }
  for (const target of targets) registerTarget(target);
}

/** A value, and when it is a URL its origin, `host:port` and host. */
function maskServer(value: string | undefined): void {
  registerTarget(value);
  if (!value || !URL.canParse(value)) return;
  const url = new URL(value);
  for (const part of [url.origin, url.host, url.hostname]) registerTarget(part);
}

/**
 * Masks what the environment says about the cluster (CLUSTER_CONTEXT, CLUSTER_HOST, the
 * kubeconfig and its current context), before anything is printed: a process provider's
 * output, or an error, may show them before any activity has reached the cluster.
 */
export function maskEnvironmentTargets(env: NodeJS.ProcessEnv = process.env): void {
  try {
    createClusterClient({}, { env, warn: () => {} });
  } catch {
    // Nothing configured, or configured wrong: what could be read is masked all the same.
  }
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

/** Which name gave `key`'s value, in words: `KUBERNETES_CONTEXT in the environment`. */
function givenBy(secrets: Record<string, unknown>, env: NodeJS.ProcessEnv, key: string): string {
  if (key in secrets) return `${key} in the secrets`;
  if (ALIAS(key) in secrets) return `${ALIAS(key)} in the secrets`;
  return env[key] !== undefined ? key : ALIAS(key);
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

/** Resolves how to reach the cluster the secrets (then the environment) point at. */
export function createClusterClient(
  secrets: Record<string, unknown> = {},
  options: ClientOptions = {},
): ClusterClient {
  const env = options.env ?? process.env;
  const warn = options.warn ?? ((m: string) => process.stderr.write(`chaoskit: warning: ${redact(m)}\n`));
  const lookup = lookupIn(secrets, env);
  // Masked before anything can fail: an error may name them.
  for (const key of [
    'CLUSTER_CONTEXT',
    'CLUSTER_HOST',
    'CLUSTER_CA_CERT_FILE',
    'CLUSTER_CERT_FILE',
    'CLUSTER_KEY_FILE',
  ])
    maskServer(str(lookup(key)));
  for (const key of ['CLUSTERCONFIG', 'KUBECONFIG'])
    for (const path of (env[key] ?? '').split(delimiter)) registerTarget(path);
  const tried: string[] = [];
  let client: ClusterClient | undefined;

  if (str(secrets.CLUSTER_HOST ?? secrets.KUBERNETES_HOST)) {
    client = explicit(lookup, 'CLUSTER_HOST from the secrets');
  } else {
    tried.push('CLUSTER_HOST in the secrets (not given)');
    const files = kubeconfigFiles(env);
    if (files.existing.length > 0) {
      client = fromKubeconfig(
        files.existing,
        str(lookup('CLUSTER_CONTEXT')),
        files.from,
        givenBy(secrets, env, 'CLUSTER_CONTEXT'),
      );
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
  maskTargets(client.config, [str(lookup('CLUSTER_CONTEXT')), ...(client.names ?? [])], client.files ?? []);
  if (!verifyTls(lookup('CLUSTER_VERIFY_SSL'))) {
    client.config.insecure = true;
    warn(`TLS verification of ${client.config.server} is turned off (CLUSTER_VERIFY_SSL)`);
  }
  return client;
}

/** The kubeconfig files kubectl would read: CLUSTERCONFIG, else KUBECONFIG, else ~/.kube/config. */
export function kubeconfigFiles(env: NodeJS.ProcessEnv = process.env): {
  existing: string[];
  considered: string;
  /** Where the paths came from, in words that name no path: `KUBECONFIG`, `~/.kube/config`. */
  from: string;
} {
  const variable = env.CLUSTERCONFIG ? 'CLUSTERCONFIG' : env.KUBECONFIG ? 'KUBECONFIG' : undefined;
  const value = variable ? env[variable]! : join(homedir(), '.kube', 'config');
  const paths = value
    .split(delimiter)
    .filter(Boolean)
    .map((p) => (p.startsWith('~/') ? join(homedir(), p.slice(2)) : p));
  return {
    existing: paths.filter((p) => existsSync(p)),
    considered: variable ? `${variable}=${value}` : value,
    from: variable ?? '~/.kube/config',
  };
}

const pem = (data: string | undefined) => (data ? Buffer.from(data, 'base64').toString('utf8') : undefined);

function fromKubeconfig(
  files: string[],
  context: string | undefined,
  from: string,
  contextFrom: string,
): ClusterClient {
  const kc = loadKubeconfig(files);
  const wanted = context ?? kc.currentContext;
  if (context && !kc.contexts.some((c) => c.name === context)) {
    // The file's contexts are not listed; the one asked for is, with what asked for it (masked
    // but on the line that ends the command, D90).
    throw new ConfigurationError(
      `the context '${context}' that ${contextFrom} names is not in the kubeconfig ${files.join(delimiter)} (${from}), which has ${contextCount(kc.contexts.length)} (kubectl config get-contexts lists them)`,
    );
  }
  const ctx = kc.contexts.find((c) => c.name === wanted);
  const cluster = ctx && kc.clusters.find((c) => c.name === ctx.cluster);
  if (!ctx || !cluster) {
    throw new ConfigurationError(
      `kubeconfig ${files.join(', ')} has no current context; set CLUSTER_CONTEXT`,
    );
  }
  const user = kc.users.find((u) => u.name === ctx.user) ?? { name: ctx.user };
  for (const value of [user.token, user.password, user.keyData]) registerSecret(value);
  // Files the kubeconfig names are checked now: a missing one is a setting to fix, not an
  // unreachable cluster.
  const named = (what: string) =>
    `the ${what} of context '${ctx.name}' in the kubeconfig ${files.join(delimiter)}`;
  if (cluster.caFile) readable(cluster.caFile, named('certificate-authority'));
  if (user.certFile) readable(user.certFile, named('client-certificate'));
  if (user.keyFile) readable(user.keyFile, named('client-key'));
  if (user.tokenFile) readable(user.tokenFile, named('tokenFile'));
  const auth: ClusterAuth = user.authProvider
    ? { kind: 'auth-provider', kubeconfig: kc, context: ctx.name }
    : user.exec
      ? { kind: 'exec', exec: user.exec }
      : user.token
        ? { kind: 'bearer', token: user.token }
        : user.tokenFile
          ? { kind: 'token-file', path: user.tokenFile }
          : user.username
            ? { kind: 'basic', username: user.username, password: user.password ?? '' }
            : { kind: 'none' };
  const config: ClusterConfig = {
    server: cluster.server,
    insecure: cluster.insecure === true,
    auth,
    ...(cluster.caFile || cluster.caData
      ? { ca: cluster.caFile ? { file: cluster.caFile } : { pem: pem(cluster.caData)! } }
      : {}),
    ...(cluster.tlsServerName ? { servername: cluster.tlsServerName } : {}),
    ...(cluster.proxyUrl ? { proxyUrl: cluster.proxyUrl } : {}),
    ...((user.certFile || user.certData) && (user.keyFile || user.keyData)
      ? {
          clientCert: {
            cert: user.certFile ? { file: user.certFile } : { pem: pem(user.certData)! },
            key: user.keyFile ? { file: user.keyFile } : { pem: pem(user.keyData)! },
          },
        }
      : {}),
    ...(user.impersonate ? { impersonate: user.impersonate } : {}),
  };
  return {
    config,
    source: `kubeconfig ${files.join(delimiter)} (context ${ctx.name})`,
    names: [ctx.name, ctx.cluster, ctx.user],
    files,
  };
}

export const contextCount = (n: number) => `${n} context${n === 1 ? '' : 's'}`;

function explicit(lookup: Lookup, source: string): ClusterClient {
  const server = str(lookup('CLUSTER_HOST'))!;
  const caFile = str(lookup('CLUSTER_CA_CERT_FILE'));
  let auth: ClusterAuth = { kind: 'none' };
  let clientCert: ClusterConfig['clientCert'];
  let kind: string;
  const apiKey = str(lookup('CLUSTER_API_KEY'));
  if (apiKey !== undefined) {
    registerSecret(apiKey);
    const prefix = str(lookup('CLUSTER_API_KEY_PREFIX')) ?? 'Bearer';
    auth =
      prefix === 'Bearer'
        ? { kind: 'bearer', token: apiKey }
        : { kind: 'header', value: prefix ? `${prefix} ${apiKey}` : apiKey };
    kind = 'API key';
  } else if (str(lookup('CLUSTER_CERT_FILE')) !== undefined) {
    const keyFile = str(lookup('CLUSTER_KEY_FILE'));
    if (!keyFile) throw new ConfigurationError('CLUSTER_CERT_FILE is set but CLUSTER_KEY_FILE is not');
    clientCert = {
      cert: { file: readable(str(lookup('CLUSTER_CERT_FILE'))!, 'CLUSTER_CERT_FILE') },
      key: { file: readable(keyFile, 'CLUSTER_KEY_FILE') },
    };
    kind = 'client certificate';
  } else if (str(lookup('CLUSTER_USERNAME')) !== undefined) {
    const password = str(lookup('CLUSTER_PASSWORD')) ?? '';
    registerSecret(password);
    auth = { kind: 'basic', username: str(lookup('CLUSTER_USERNAME'))!, password };
    kind = 'username and password';
  } else {
    throw new ConfigurationError(
      `${source}: CLUSTER_HOST needs credentials: CLUSTER_API_KEY, CLUSTER_CERT_FILE with CLUSTER_KEY_FILE, or CLUSTER_USERNAME with CLUSTER_PASSWORD`,
    );
  }
  const config: ClusterConfig = {
    server,
    insecure: false,
    auth,
    ...(caFile ? { ca: { file: readable(caFile, 'CLUSTER_CA_CERT_FILE') } } : {}),
    ...(clientCert ? { clientCert } : {}),
  };
  return { config, source: `${source} (${kind})` };
}

function inPod(env: NodeJS.ProcessEnv, dir: string): ClusterClient {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT ?? '443';
  if (!host) throw new ConfigurationError('RUNNER_IN_POD=true but KUBERNETES_SERVICE_HOST is not set');
  const tokenFile = readable(join(dir, 'token'), 'the service-account token');
  const caFile = readable(join(dir, 'ca.crt'), 'the service-account CA');
  const server = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    config: { server, insecure: false, ca: { file: caFile }, auth: { kind: 'token-file', path: tokenFile } },
    source: `RUNNER_IN_POD (service account at ${dir})`,
    files: [dir],
  };
}

function readable(path: string, what: string): string {
  try {
    statSync(path);
    return path;
  } catch {
    throw new ConfigurationError(`${what}: file ${path} does not exist or cannot be read`);
  }
}

/** The text of a PEM given inline or as a file (read once, when the connection is made). */
export function pemText(source: { file?: string; pem?: string }): string {
  return source.pem ?? readFileSync(source.file!, 'utf8');
}
