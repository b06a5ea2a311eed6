// etcd of the local cluster, through its JSON gateway (plain http on loopback).

async function call<T>(etcdUrl: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${etcdUrl}${path}`, { method: 'POST', body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`etcd ${path}: HTTP ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** etcd's current revision: the resourceVersion of the latest write to the cluster. */
export async function etcdRevision(etcdUrl: string): Promise<number> {
  // Any range read carries the store's revision in its header; this key holds nothing.
  const answer = await call<{ header: { revision: string } }>(etcdUrl, '/v3/kv/range', {
    key: Buffer.from('/chaoskit-revision').toString('base64'),
  });
  return Number(answer.header.revision);
}

/**
 * Compacts etcd up to its current revision, as the apiserver's compactor does every 5 minutes
 * with an older one: a list's continue token from before now is answered 410 Gone.
 */
export async function compactEtcd(etcdUrl: string): Promise<number> {
  const revision = await etcdRevision(etcdUrl);
  await call(etcdUrl, '/v3/kv/compaction', { revision: String(revision), physical: true });
  return revision;
}
