import { describe, expect, expectTypeOf, it } from 'vitest';
// As an activity sees them: through the package's entry point.
import type { ActivityContext, KubeClient } from '../index.js';
import { KubeClient as Client } from '../index.js';

describe("a client's transport is core's own", () => {
  it('does not compile from outside: no write goes past the rails, the record and plan mode', () => {
    const raw = (ctx: ActivityContext) => {
      // @ts-expect-error: the transport under the write chain is private (#transport).
      void ctx.kube.transport.send({ method: 'DELETE', path: '/api/v1/namespaces/shop/pods/web' });
      // @ts-expect-error: so is the connection under it.
      void ctx.kube.connection.send({ method: 'DELETE', path: '/api/v1/namespaces/shop/pods/web' });
      // @ts-expect-error: and the run's record, whose transport writes unrailed.
      void ctx.kube.options.ledger;
    };
    expectTypeOf<KubeClient>().not.toHaveProperty('transport');
    expectTypeOf<KubeClient>().not.toHaveProperty('connection');
    expectTypeOf<KubeClient>().not.toHaveProperty('ledger');
    // Nor a KubeConfig, from which any client could be built (exec is ctx.podExec, D171).
    expectTypeOf<ActivityContext>().not.toHaveProperty('kubeConfig');
    expect(raw).toBeTypeOf('function');
    expect('transport' in Client.prototype || 'connection' in Client.prototype).toBe(false);
  });
});
