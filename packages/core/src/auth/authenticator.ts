// How a request proves who sends it: what each kind of credential's authenticator does (one per
// kind, as @kubernetes/client-node has one per auth-provider; auth/credentials.ts chooses).

export interface Authenticator {
  /** The Authorization header of the next request; undefined: none. */
  authorization(): Promise<string | undefined>;
  /**
   * The client certificate this credential hands out (an exec plugin's), known once
   * `authorization` has run; the connection's pool is built with it.
   */
  clientCertificate?(): { cert: string; key: string } | undefined;
}

/** A credential that is the same header on every request. */
export class StaticAuthenticator implements Authenticator {
  constructor(private readonly header: string | undefined) {}

  authorization(): Promise<string | undefined> {
    return Promise.resolve(this.header);
  }
}
