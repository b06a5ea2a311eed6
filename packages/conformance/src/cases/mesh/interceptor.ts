// A real concurrent edit between an activity's read and its write: a proxy in front of the API
// server holds the activity's first write while another client changes the object.
//
// The proxy speaks TLS with a certificate of its own, which the activity is given as its CA
// (CLUSTER_CA_CERT_FILE), so the activity verifies the proxy as it verifies any cluster: no
// plain http, no CLUSTER_VERIFY_SSL=false, and no "TLS verification turned off" warning on the
// user's terminal for a fixture of the kit.

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type CaseContext, ScenarioSkipped } from '../../case-context.js';

export interface Interceptor {
  /** Secrets that send the activity through the interceptor (same identity). */
  secrets: Record<string, unknown>;
  /** Whether a write was held and the concurrent edit made. */
  fired(): boolean;
}

/**
 * A key and a self-signed certificate for 127.0.0.1, valid for a day, made by openssl (which
 * the local provider needs anyway); without openssl the scenario is skipped, with the reason.
 */
async function loopbackCertificate(t: CaseContext): Promise<{ key: Buffer; cert: Buffer; certFile: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'chaoskit-interceptor-'));
  t.onCleanup(() => rm(dir, { recursive: true, force: true }));
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  // EC keys: generated in milliseconds, where RSA takes a noticeable moment on a loaded machine.
  const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  args.push('-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=chaoskit conformance proxy');
  args.push('-addext', 'subjectAltName=IP:127.0.0.1');
  try {
    await promisify(execFile)('openssl', args);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new ScenarioSkipped('needs openssl, to make the certificate of its TLS proxy');
    throw err;
  }
  return { key: await readFile(keyFile), cert: await readFile(certFile), certFile };
}

/**
 * A pass-through proxy in front of the API server for the case identity: it holds the first
 * PUT of a virtual service, runs `concurrentEdit` (a real write by another client), then lets
 * the PUT through. The PUT then carries a resourceVersion that is no longer current.
 */
export async function interceptFirstWrite(
  t: CaseContext,
  concurrentEdit: () => Promise<void>,
): Promise<Interceptor> {
  const upstream = new URL(t.cluster.server);
  const ca = t.cluster.caFile ? readFileSync(t.cluster.caFile) : undefined;
  const { key, cert, certFile } = await loopbackCertificate(t);
  let fired = false;
  let failure: unknown;
  const server = https.createServer({ key, cert }, async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (!fired && req.method === 'PUT' && req.url?.includes('/virtualservices/')) {
      fired = true;
      try {
        await concurrentEdit();
      } catch (err) {
        failure = err;
      }
    }
    const send = upstream.protocol === 'https:' ? https.request : http.request;
    const forward = send(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: upstream.host },
        ...(ca ? { ca } : {}),
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', (err) => {
      res.writeHead(502);
      res.end(String(err));
    });
    forward.end(Buffer.concat(chunks));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.onCleanup(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const { port } = server.address() as AddressInfo;
  return {
    // The same identity, through the proxy, which the activity trusts by its certificate alone.
    secrets: { ...t.secrets, CLUSTER_HOST: `https://127.0.0.1:${port}`, CLUSTER_CA_CERT_FILE: certFile },
    fired: () => {
      if (failure) throw failure;
      return fired;
    },
  };
}
