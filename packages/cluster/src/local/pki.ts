import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { issueCa, issueCert } from '../host/certificates.js';

export interface Pki {
  /** CA that signs client certificates (the apiserver's --client-ca-file). */
  clientCaFile: string;
  clientCertFile: string;
  clientKeyFile: string;
  serviceAccountKeyFile: string;
  serviceAccountPubFile: string;
  tokenFile: string;
  adminToken: string;
  componentsToken: string;
  unprivilegedToken: string;
  /** The real nodes' agents: each kubelet as its node (Node authorizer), kube-proxy, kube-router. */
  agents: { kubelets: Record<string, string>; kubeProxy: string; kubeRouter: string };
}

export const ADMIN_USER = 'chaoskit-admin';
export const ADMIN_CERT_USER = 'chaoskit-admin-cert';
export const COMPONENTS_USER = 'chaoskit-components';
export const UNPRIVILEGED_USER = 'chaoskit-unprivileged';
/** kube-proxy's user: bound to system:node-proxier by the apiserver's own bootstrap policy. */
export const KUBE_PROXY_USER = 'system:kube-proxy';
export const KUBE_ROUTER_USER = 'chaoskit-kube-router';

function token(): string {
  return randomBytes(24).toString('hex');
}

/**
 * Issues everything the control plane and the tests authenticate with: static bearer tokens
 * (admin, components, and one user with no RBAC bindings), a client certificate in
 * system:masters signed by a throwaway CA, and the service-account signing key pair.
 */
export async function issuePki(dir: string, realNodes: string[] = []): Promise<Pki> {
  const sa = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const serviceAccountKeyFile = join(dir, 'sa.key');
  const serviceAccountPubFile = join(dir, 'sa.pub');
  await writeFile(serviceAccountKeyFile, sa.privateKey, { mode: 0o600 });
  await writeFile(serviceAccountPubFile, sa.publicKey);

  await issueCa(dir, 'client-ca', '/CN=chaoskit-client-ca');
  await issueCert(dir, 'admin', `/O=system:masters/CN=${ADMIN_CERT_USER}`, 'client-ca');

  const adminToken = token();
  const componentsToken = token();
  const unprivilegedToken = token();
  const agents = {
    kubelets: Object.fromEntries(realNodes.map((n) => [n, token()])),
    kubeProxy: token(),
    kubeRouter: token(),
  };
  const agentLines = realNodes.length
    ? [
        ...realNodes.map((n) => `${agents.kubelets[n]},system:node:${n},uid-node-${n},"system:nodes"`),
        `${agents.kubeProxy},${KUBE_PROXY_USER},uid-kube-proxy`,
        `${agents.kubeRouter},${KUBE_ROUTER_USER},uid-kube-router,"system:masters"`,
      ]
    : [];
  const tokenFile = join(dir, 'tokens.csv');
  await writeFile(
    tokenFile,
    [
      `${adminToken},${ADMIN_USER},uid-admin,"system:masters"`,
      `${componentsToken},${COMPONENTS_USER},uid-components,"system:masters"`,
      `${unprivilegedToken},${UNPRIVILEGED_USER},uid-unprivileged`,
      ...agentLines,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );

  return {
    clientCaFile: join(dir, 'client-ca.crt'),
    clientCertFile: join(dir, 'admin.crt'),
    clientKeyFile: join(dir, 'admin.key'),
    serviceAccountKeyFile,
    serviceAccountPubFile,
    tokenFile,
    adminToken,
    componentsToken,
    unprivilegedToken,
    agents,
  };
}
