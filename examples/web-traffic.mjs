// Real requests to web through the demo's mesh: a gRPC backend on 127.0.0.1 stands behind the
// mesh host web.<namespace>.svc.cluster.local (a ServiceEntry, subset v1, as web's
// VirtualService routes), and a proxyless gRPC client takes its routes, and the faults on them,
// from istiod. So a fault written into web's VirtualService shows in these requests.
import { meshTraffic } from '@chaoskit/cluster';

const REQUESTS = 200;

/** Starts the traffic on a cluster with istiod; `stop()` removes it. */
export async function webTraffic(cluster, namespace) {
  const host = `web.${namespace}.svc.cluster.local`;
  const traffic = await meshTraffic({
    cluster,
    namespace,
    hosts: [{ name: host, subsets: ['v1'] }],
    routes: { web: { host } },
  });
  const send = async () => (await traffic.send({ requests: REQUESTS, concurrency: 20 })).web;
  return {
    host,
    send,
    /** Once the client sees failures (the fault has reached it): a measurement; undefined if none came. */
    async whileFaulty(timeoutMs) {
      try {
        await traffic.waitFor('web', (s) => s.failures > 0, { timeoutMs });
      } catch {
        return undefined;
      }
      return send();
    },
    /** Once no request fails any more: a measurement. */
    async onceHealthy(timeoutMs) {
      await traffic.waitFor('web', (s) => s.failures === 0, { timeoutMs }).catch(() => undefined);
      return send();
    },
    stop: () => traffic.stop(),
  };
}

/** `200 requests: OK 96, Unavailable 104 (52 % failed), p50 0.2 ms` */
export function describeTraffic(stats) {
  if (!stats) return 'no request failed within the time allowed';
  const codes = Object.entries(stats.codes)
    .map(([code, n]) => `${code} ${n}`)
    .join(', ');
  const failed = stats.failures ? ` (${Math.round((100 * stats.failures) / stats.requests)} % failed)` : '';
  return `${stats.requests} requests: ${codes}${failed}, p50 ${stats.latencyMs.p50.toFixed(1)} ms`;
}
