import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sharedCluster, testNamespace } from '@chaoskit/cluster/testing';
import { CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../client/kube-client.js';
import { isChaosError, unmaskedMessage } from '../errors/errors.js';
import { whoAmI } from '../transport/access.js';
import { connectionFor } from '../transport/connection.js';
import { Namespaces, Pods } from '../transport/resources.js';
import { Transport } from '../transport/transport.js';
import { type ClusterClient, createClusterClient } from './cluster-client.js';

const execFileAsync = promisify(execFile);
const cluster = sharedCluster();
const { credentials, users } = cluster;

let dir: string;
let ns: Awaited<ReturnType<typeof testNamespace>>;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-creds-'));
  ns = await testNamespace(cluster.kc, 'creds');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await ns.remove();
});

/** Who the server says the client is: a review through core's connection layer. */
async function whoami(client: ClusterClient): Promise<string> {
  return (await whoAmI(new Transport(connectionFor(client)))) ?? '';
}

function kubeconfigFile(
  contexts: Array<{ name: string; user: Record<string, unknown> }>,
  current: string,
): string {
  return dump({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'local', cluster: { server: credentials.server, 'certificate-authority': credentials.caFile } },
    ],
    users: contexts.map((c) => ({ name: c.name, user: c.user })),
    contexts: contexts.map((c) => ({ name: c.name, context: { cluster: 'local', user: c.name } })),
    'current-context': current,
  });
}

/** Two contexts, `token` (current) and `cert`, each its own user. */
const tokenAndCertContexts = () =>
  kubeconfigFile(
    [
      { name: 'token', user: { token: credentials.token } },
      {
        name: 'cert',
        user: { 'client-certificate': credentials.clientCertFile, 'client-key': credentials.clientKeyFile },
      },
    ],
    'token',
  );

const noFiles = { KUBECONFIG: '/nonexistent/kubeconfig', HOME: '/nonexistent-home' };

describe('explicit credentials in the secrets', () => {
  it('connects with a static bearer token (API key)', async () => {
    const client = createClusterClient(
      {
        CLUSTER_HOST: credentials.server,
        CLUSTER_API_KEY: credentials.token,
        CLUSTER_CA_CERT_FILE: credentials.caFile,
      },
      { env: noFiles },
    );
    expect(client.source).toMatch(/API key/);
    expect(await whoami(client)).toBe(users.token);
  });

  it('connects with a client certificate and key', async () => {
    const client = createClusterClient(
      {
        CLUSTER_HOST: credentials.server,
        CLUSTER_CERT_FILE: credentials.clientCertFile,
        CLUSTER_KEY_FILE: credentials.clientKeyFile,
        CLUSTER_CA_CERT_FILE: credentials.caFile,
      },
      { env: noFiles },
    );
    expect(await whoami(client)).toBe(users.clientCert);
  });

  it('accepts the KUBERNETES_* key names of Chaos Toolkit experiments through secretsFor', async () => {
    const { secretsFor } = await import('../config/secrets.js');
    const secrets = secretsFor(
      {
        k8s: {
          KUBERNETES_HOST: credentials.server,
          KUBERNETES_API_KEY: credentials.token,
          KUBERNETES_CA_CERT_FILE: credentials.caFile,
        },
      },
      ['k8s'],
    );
    expect(await whoami(createClusterClient(secrets, { env: noFiles }))).toBe(users.token);
  });

  it('fails with a TLS error when the server CA is unknown, unless verification is turned off (with a warning)', async () => {
    const secrets = { CLUSTER_HOST: credentials.server, CLUSTER_API_KEY: credentials.token };
    const unverified = createClusterClient(secrets, { env: noFiles });
    const err = await whoami(unverified).catch((e: unknown) => e);
    expect(JSON.stringify(err, Object.getOwnPropertyNames(err)) + String((err as Error).cause ?? '')).toMatch(
      /self[- ]signed|certificate|SELF_SIGNED|UNABLE_TO_VERIFY/i,
    );

    const warnings: string[] = [];
    const off = createClusterClient(
      { ...secrets, CLUSTER_VERIFY_SSL: 'false' },
      { env: noFiles, warn: (m) => warnings.push(m) },
    );
    expect(await whoami(off)).toBe(users.token);
    expect(warnings.join('\n')).toMatch(/TLS verification .* is turned off/);
  });
});

describe('username and password', () => {
  let server: Server;
  let url: string;
  const seen: string[] = [];
  beforeAll(async () => {
    await execFileAsync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-days',
        '1',
        '-keyout',
        'basic.key',
        '-out',
        'basic.crt',
      ],
      { cwd: dir },
    );
    server = createServer(
      { key: await readFile(join(dir, 'basic.key')), cert: await readFile(join(dir, 'basic.crt')) },
      (req, res) => {
        seen.push(req.headers.authorization ?? '');
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ apiVersion: 'v1', kind: 'NamespaceList', metadata: {}, items: [] }));
      },
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('really sends Authorization: Basic (at a loopback TLS endpoint that records it)', async () => {
    const client = createClusterClient(
      {
        CLUSTER_HOST: url,
        CLUSTER_USERNAME: 'alice',
        CLUSTER_PASSWORD: 's3cret-pw',
        CLUSTER_CA_CERT_FILE: join(dir, 'basic.crt'),
      },
      { env: noFiles },
    );
    await new KubeClient(connectionFor(client)).list(Namespaces);
    expect(seen.at(-1)).toBe(`Basic ${Buffer.from('alice:s3cret-pw').toString('base64')}`);
  });
});

describe('kubeconfig files', () => {
  it('chooses between two contexts with CLUSTER_CONTEXT (secrets first, then the environment)', async () => {
    const path = join(dir, 'two-contexts.yaml');
    await writeFile(path, tokenAndCertContexts());
    const env = { ...noFiles, KUBECONFIG: path };
    expect(await whoami(createClusterClient({}, { env }))).toBe(users.token);
    expect(await whoami(createClusterClient({}, { env: { ...env, CLUSTER_CONTEXT: 'cert' } }))).toBe(
      users.clientCert,
    );
    const fromSecrets = createClusterClient(
      { CLUSTER_CONTEXT: 'cert' },
      { env: { ...env, CLUSTER_CONTEXT: 'token' } },
    );
    expect(await whoami(fromSecrets)).toBe(users.clientCert);
  });

  it("honours Chaos Toolkit's KUBERNETES_CONTEXT and KUBERNETES_HOST in the environment (chaoskit's names win)", async () => {
    const path = join(dir, 'ctk-contexts.yaml');
    await writeFile(path, tokenAndCertContexts());
    const env = { ...noFiles, KUBECONFIG: path, KUBERNETES_CONTEXT: 'cert' };
    expect(await whoami(createClusterClient({}, { env }))).toBe(users.clientCert);
    const both = { ...env, CLUSTER_CONTEXT: 'token' };
    expect(await whoami(createClusterClient({}, { env: both }))).toBe(users.token);
    // No kubeconfig: explicit credentials from the environment under Chaos Toolkit's names.
    const explicit = createClusterClient(
      {},
      {
        env: {
          ...noFiles,
          KUBERNETES_HOST: credentials.server,
          KUBERNETES_API_KEY: credentials.unprivilegedToken,
          KUBERNETES_CA_CERT_FILE: credentials.caFile,
        },
      },
    );
    expect(await whoami(explicit)).toBe(users.unprivileged);
  });

  it('says how many contexts there are when CLUSTER_CONTEXT is not one of them, naming none of them', async () => {
    const path = join(dir, 'one-context.yaml');
    await writeFile(path, kubeconfigFile([{ name: 'token', user: { token: credentials.token } }], 'token'));
    let err: unknown;
    try {
      createClusterClient({ KUBERNETES_CONTEXT: 'prod' }, { env: { ...noFiles, KUBECONFIG: path } });
    } catch (e) {
      err = e;
    }
    // Context names and kubeconfig paths select clusters: masked in the message that may be
    // logged, shown whole to the user where it ends a command (D90).
    expect((err as Error).message).toBe(
      "the context '***' that KUBERNETES_CONTEXT in the secrets names is not in the kubeconfig *** (KUBECONFIG), which has 1 context (kubectl config get-contexts lists them)",
    );
    expect(unmaskedMessage(err)).toBe(
      `the context 'prod' that KUBERNETES_CONTEXT in the secrets names is not in the kubeconfig ${path} (KUBECONFIG), which has 1 context (kubectl config get-contexts lists them)`,
    );
  });

  it('prefers CLUSTERCONFIG over KUBECONFIG', async () => {
    const admin = join(dir, 'admin.yaml');
    const weak = join(dir, 'weak.yaml');
    await writeFile(admin, kubeconfigFile([{ name: 'admin', user: { token: credentials.token } }], 'admin'));
    await writeFile(
      weak,
      kubeconfigFile([{ name: 'weak', user: { token: credentials.unprivilegedToken } }], 'weak'),
    );
    const client = createClusterClient({}, { env: { ...noFiles, KUBECONFIG: weak, CLUSTERCONFIG: admin } });
    expect(await whoami(client)).toBe(users.token);
    expect(await whoami(createClusterClient({}, { env: { ...noFiles, KUBECONFIG: weak } }))).toBe(
      users.unprivileged,
    );
  });

  it('merges several KUBECONFIG files as kubectl does', async () => {
    const a = join(dir, 'merge-a.yaml');
    const b = join(dir, 'merge-b.yaml');
    await writeFile(a, kubeconfigFile([{ name: 'a', user: { token: credentials.unprivilegedToken } }], 'a'));
    await writeFile(b, kubeconfigFile([{ name: 'b', user: { token: credentials.token } }], 'b'));
    const env = { ...noFiles, KUBECONFIG: `${a}:${b}` };
    // Both files define a cluster named 'local': the first one's wins, no error.
    expect(await whoami(createClusterClient({}, { env }))).toBe(users.unprivileged);
    expect(await whoami(createClusterClient({ CLUSTER_CONTEXT: 'b' }, { env }))).toBe(users.token);
  });

  it('runs exec-credential plugins named in a kubeconfig (managed clusters)', async () => {
    const plugin = join(dir, 'credential-plugin.sh');
    await writeFile(
      plugin,
      `#!/bin/sh\necho '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"${credentials.token}"}}'\n`,
    );
    await chmod(plugin, 0o755);
    const path = join(dir, 'exec.yaml');
    await writeFile(
      path,
      kubeconfigFile(
        [
          {
            name: 'exec',
            user: {
              exec: {
                apiVersion: 'client.authentication.k8s.io/v1',
                command: plugin,
                interactiveMode: 'Never',
              },
            },
          },
        ],
        'exec',
      ),
    );
    expect(await whoami(createClusterClient({}, { env: { ...noFiles, KUBECONFIG: path } }))).toBe(
      users.token,
    );
  });
});

describe('running inside a pod', () => {
  const admin = () => cluster.kc.makeApiClient(CoreV1Api);

  async function serviceAccountToken(secretName: string): Promise<string> {
    await admin().createNamespacedSecret({
      namespace: ns.name,
      body: { metadata: { name: secretName }, type: 'Opaque' },
    });
    const secret = await admin().readNamespacedSecret({ name: secretName, namespace: ns.name });
    const request = await admin().createNamespacedServiceAccountToken({
      name: 'runner',
      namespace: ns.name,
      body: {
        spec: {
          audiences: [],
          expirationSeconds: 3600,
          // Bound to a Secret, so deleting the Secret revokes the token.
          boundObjectRef: { apiVersion: 'v1', kind: 'Secret', name: secretName, uid: secret.metadata!.uid! },
        },
      },
    });
    return request.status!.token!;
  }

  it('uses the mounted service-account token and CA with RUNNER_IN_POD=true, and re-reads a rotated token', async () => {
    await admin().createNamespacedServiceAccount({
      namespace: ns.name,
      body: { metadata: { name: 'runner' } },
    });
    await cluster.kc.makeApiClient(RbacAuthorizationV1Api).createNamespacedRoleBinding({
      namespace: ns.name,
      body: {
        metadata: { name: 'runner-view' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
        subjects: [{ kind: 'ServiceAccount', name: 'runner', namespace: ns.name }],
      },
    });
    const mount = join(dir, 'serviceaccount');
    await rm(mount, { recursive: true, force: true });
    await execFileAsync('mkdir', ['-p', mount]);
    await writeFile(join(mount, 'ca.crt'), await readFile(credentials.caFile));
    await writeFile(join(mount, 'namespace'), ns.name);
    await writeFile(join(mount, 'token'), await serviceAccountToken('first'));
    const port = new URL(credentials.server).port;
    const env = {
      ...noFiles,
      RUNNER_IN_POD: 'true',
      KUBERNETES_SERVICE_HOST: '127.0.0.1',
      KUBERNETES_SERVICE_PORT: port,
      CHAOSKIT_SERVICE_ACCOUNT_DIR: mount,
    };
    const client = createClusterClient({}, { env });
    expect(client.source).toMatch(/RUNNER_IN_POD/);
    const expected = `system:serviceaccount:${ns.name}:runner`;
    expect(await whoami(client)).toBe(expected);
    await new KubeClient(connectionFor(client)).list(Pods, { namespace: ns.name });

    // Rotation: revoke the first token, mount a second; the same client must use the new one.
    await admin().deleteNamespacedSecret({ name: 'first', namespace: ns.name });
    await new Promise((r) => setTimeout(r, 1100)); // a later mtime than the first write
    await writeFile(join(mount, 'token'), await serviceAccountToken('second'));
    expect(await whoami(client)).toBe(expected);
  });
});

describe('nothing configured', () => {
  it('lists everything it tried instead of falling back to localhost', () => {
    let caught: unknown;
    try {
      createClusterClient({}, { env: noFiles });
    } catch (err) {
      caught = err;
    }
    expect(isChaosError(caught, 'ConfigurationError')).toBe(true);
    const message = (caught as Error).message;
    for (const part of [
      'CLUSTER_HOST in the secrets',
      'kubeconfig',
      'RUNNER_IN_POD',
      'CLUSTER_HOST in the environment',
    ]) {
      expect(message).toContain(part);
    }
  });
});
