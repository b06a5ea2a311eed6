import assert from 'node:assert/strict';
import type {
  allowDnsAccessActivity,
  createNetworkPolicyActivity,
  denyAllEgressActivity,
  denyAllIngressActivity,
} from '@chaoskit/chaoscluster-networking';
import { NetworkingV1Api } from '@kubernetes/client-node';
import type { Scenario } from '../case.js';
import type { CaseContext } from '../case-context.js';
import { fetch, idlePod, service, webApp } from './app.js';
import { ANSWERED, describeWindow, FAILED, type Traffic } from './traffic.js';

// The network policy activities proven on real traffic: the cluster's enforcer (the local
// provider's real nodes run kube-router's firewall) must cut what the policy denies and let
// through what it allows. Where the cluster enforces no policy these fail: a policy that
// changes nothing is exactly what they exist to catch.

const RUNNING = 'on running containers: ';

/** Waits until the client's requests fail, logs the evidence, then proves the policy was the cause. */
async function cutByPolicy(t: CaseContext, traffic: Traffic, policy: string, what: string): Promise<void> {
  const from = await traffic.mark();
  await traffic.untilLast(5, FAILED, `requests through the Service cut by ${policy}`);
  const cut = await traffic.since(from);
  await t.kc.makeApiClient(NetworkingV1Api).deleteNamespacedNetworkPolicy({ name: policy, namespace: t.ns });
  const back = await traffic.mark();
  await traffic.untilLast(3, ANSWERED, `requests answered again once ${policy} is gone`);
  t.log(
    `running: ${what}: with ${policy}, ${describeWindow(cut)}; once removed, ${describeWindow(await traffic.since(back))}`,
  );
}

export const denyIngressRunning: Scenario<typeof denyAllIngressActivity> = {
  name: `${RUNNING}the web pods stop answering the client through the Service, and answer again once the policy is gone`,
  running: true,
  timeoutMs: 180_000,
  async run(t) {
    const { traffic } = await webApp(t, 1);
    await t.call({ ns: t.ns, label_selectors: { app: 'web' } });
    await cutByPolicy(t, traffic, 'chaostoolkit-deny-all-ingress', 'deny_all_ingress');
  },
};

export const denyEgressRunning: Scenario<typeof denyAllEgressActivity> = {
  name: `${RUNNING}the client's requests through the Service stop leaving it, and go again once the policy is gone`,
  running: true,
  timeoutMs: 180_000,
  async run(t) {
    const { traffic } = await webApp(t, 1);
    await t.call({ ns: t.ns, label_selectors: { role: 'client' } });
    await cutByPolicy(t, traffic, 'chaostoolkit-deny-all-egress', 'deny_all_egress');
  },
};

export const allowDnsRunning: Scenario<typeof allowDnsAccessActivity> = {
  name: `${RUNNING}with all egress denied, port 53 is reached again and port 80 stays cut`,
  running: true,
  timeoutMs: 180_000,
  async run(t) {
    const { traffic, clusterIp } = await webApp(t, 1);
    const dns = await service(t, 'dns', 53);
    // The fixture: all egress of the client denied (admin identity), then the activity.
    await t.kc.makeApiClient(NetworkingV1Api).createNamespacedNetworkPolicy({
      namespace: t.ns,
      body: {
        metadata: { name: 'deny-egress' },
        spec: { podSelector: { matchLabels: { role: 'client' } }, policyTypes: ['Egress'] },
      },
    });
    await traffic.untilLast(3, FAILED, 'the client cut by the fixture policy');
    const from = await traffic.mark();
    assert.equal(await fetch(t, 'client', 'client', dns, 53), undefined, 'port 53 cut before');
    await t.call({ ns: t.ns, label_selectors: { role: 'client' } });
    const page = await t.until(
      'port 53 reached from the client',
      () => fetch(t, 'client', 'client', dns, 53),
      60_000,
    );
    assert.match(page, /^web-/);
    assert.equal(await fetch(t, 'client', 'client', clusterIp, 80), undefined, 'port 80 still cut');
    const window = await traffic.since(from);
    assert.equal(window.requests, window.failed, 'no request to port 80 answered');
    t.log(
      `running: allow_dns_access: port 53 answered by ${page}, port 80 cut; the client's stream to port 80: ${describeWindow(window)}`,
    );
  },
};

export const createPolicyRunning: Scenario<typeof createNetworkPolicyActivity> = {
  name: `${RUNNING}a policy letting only role=allowed in: the client is cut, an allowed pod still gets through`,
  running: true,
  timeoutMs: 180_000,
  async run(t) {
    const { traffic, clusterIp } = await webApp(t, 1);
    await idlePod(t, 'allowed', { role: 'allowed' });
    await t.call({
      ns: t.ns,
      spec: {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: { name: 'web-from-allowed' },
        spec: {
          podSelector: { matchLabels: { app: 'web' } },
          policyTypes: ['Ingress'],
          ingress: [
            { from: [{ podSelector: { matchLabels: { role: 'allowed' } } }], ports: [{ port: 8080 }] },
          ],
        },
      },
    });
    const from = await traffic.mark();
    await traffic.untilLast(5, FAILED, 'the client cut by web-from-allowed');
    const page = await fetch(t, 'allowed', 'main', clusterIp, 80);
    assert.match(page ?? '', /^web-/, 'the allowed pod is answered');
    t.log(
      `running: create_network_policy web-from-allowed: allowed pod answered by ${page}; the client: ${describeWindow(await traffic.since(from))}`,
    );
  },
};
