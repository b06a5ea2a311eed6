// Requests to a cluster over one HTTP/2 connection, as client-go sends them: many at once on one
// TLS connection, where HTTP/1.1 needs a TLS connection per request out (D156). The protocol is
// chosen by TLS (ALPN) when the connection is made: a server that does not offer h2 is reached
// over HTTP/1.1, as before.

import type { IncomingHttpHeaders } from 'node:http';
import { type ClientHttp2Session, type ClientHttp2Stream, connect as connectHttp2 } from 'node:http2';
import { isIP } from 'node:net';
import { PassThrough, type Readable } from 'node:stream';
import { type ConnectionOptions, connect as connectTls, type TLSSocket } from 'node:tls';

// How much the server may send ahead of what was read, per answer and in all, as client-go's
// HTTP/2 transport allows (4 MiB a stream): with HTTP/2's default of 64 KiB, a list or table of
// 100,000 pods (25 MB) arrives a window at a time, each waiting for the client's update.
const STREAM_WINDOW = 4 * 1024 * 1024;
const CONNECTION_WINDOW = 64 * 1024 * 1024;

/** An answer whose body is read as a stream: its status and headers came first. */
export type Answer = Readable & { statusCode?: number; headers: IncomingHttpHeaders };

export interface Http2Request {
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  payload?: string;
  signal?: AbortSignal;
}

/**
 * A TLS connection to `server`, offering h2 and HTTP/1.1: its socket when the server chose h2,
 * else undefined (the connection closed: HTTP/1.1's pool makes its own).
 */
export async function negotiate(server: URL, tls: ConnectionOptions): Promise<TLSSocket | undefined> {
  const host = server.hostname.replace(/^\[|\]$/g, '');
  const socket = connectTls({
    ...tls,
    host,
    port: Number(server.port || 443),
    ALPNProtocols: ['h2', 'http/1.1'],
    // SNI names a host; an address is not sent (Node warns of it).
    ...(tls.servername || isIP(host) ? {} : { servername: host }),
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('secureConnect', resolve);
    socket.once('error', reject);
  });
  if (socket.alpnProtocol === 'h2') return socket;
  socket.destroy();
  return undefined;
}

/**
 * One HTTP/2 session, kept while it lives: a session the server closed or sent GOAWAY on is
 * let go, and the next request opens another. It holds the process open only while a request
 * is out (an idle keep-alive connection does not keep a finished command waiting).
 */
export class Http2Session {
  #active = 0;
  #closed = false;

  constructor(readonly session: ClientHttp2Session) {
    session.unref();
    const done = () => {
      this.#closed = true;
    };
    session.on('close', done);
    session.on('goaway', done);
    // A session's error also fails its open streams, each reported to its own request.
    session.on('error', done);
  }

  static open(server: URL, socket: TLSSocket): Http2Session {
    const session = connectHttp2(server.origin, {
      createConnection: () => socket,
      settings: { initialWindowSize: STREAM_WINDOW },
    });
    session.once('connect', () => session.setLocalWindowSize(CONNECTION_WINDOW));
    return new Http2Session(session);
  }

  /** Whether new requests can go on it. */
  get usable(): boolean {
    return !this.#closed && !this.session.closed && !this.session.destroyed;
  }

  /**
   * Sends one request; resolves with the answer once its headers arrive. A session that closed
   * meanwhile refuses it (ERR_HTTP2_GOAWAY_SESSION, ERR_HTTP2_INVALID_SESSION: never sent).
   */
  async request(options: Http2Request): Promise<Answer> {
    const stream = this.session.request(
      { ':method': options.method, ':path': options.path, ...options.headers },
      { endStream: options.payload === undefined, ...(options.signal ? { signal: options.signal } : {}) },
    );
    if (this.#active++ === 0) this.session.ref();
    stream.once('close', () => {
      if (--this.#active === 0) this.session.unref();
    });
    if (options.payload !== undefined) stream.end(options.payload);
    return new Promise<Answer>((resolve, reject) => {
      stream.once('error', reject);
      stream.once('response', (headers) => {
        const { ':status': status, ...rest } = headers;
        resolve(
          Object.assign(bodyOf(stream), { statusCode: Number(status), headers: rest as IncomingHttpHeaders }),
        );
      });
    });
  }

  close(): void {
    this.session.close();
  }
}

/**
 * The stream's body, taken from it as it arrives, into a stream of its own that ends once the
 * HTTP/2 stream closed after its end and without a reset. Two things of Node's HTTP/2 streams
 * make this necessary: read by async iteration, a body that arrived whole before it was read is
 * reported as a premature close (Node 24.20 and later, nodejs/node#65677); and a stream whose
 * connection was cut ends as if complete (its reset code says otherwise), where HTTP/1.1's
 * answer fails. A reader that stops (destroying it) cancels the stream.
 */
function bodyOf(stream: ClientHttp2Stream): PassThrough {
  // No backpressure: a body is read whole anyway, and a watch's events are small.
  const body = new PassThrough({ highWaterMark: Number.MAX_SAFE_INTEGER });
  let ended = false;
  stream.on('data', (chunk: Buffer) => body.write(chunk));
  stream.on('end', () => {
    ended = true;
  });
  stream.on('error', (err) => body.destroy(err));
  stream.on('close', () => {
    if (body.destroyed) return;
    if (ended && !stream.rstCode) body.end();
    else
      body.destroy(
        Object.assign(new Error(`the answer was cut off (HTTP/2 stream reset, code ${stream.rstCode})`), {
          code: 'ERR_HTTP2_STREAM_CANCEL',
        }),
      );
  });
  body.on('close', () => {
    if (!stream.closed) stream.destroy();
  });
  return body;
}
