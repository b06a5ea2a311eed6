import { connect } from 'node:http2';

// Just enough of the xDS wire format to ask istiod one real question over ADS: a
// DiscoveryRequest for named resources of one type, answered by a DiscoveryResponse. Used to
// decide that istiod serves xDS, without a gRPC or protobuf dependency.

const ADS_PATH = '/envoy.service.discovery.v3.AggregatedDiscoveryService/StreamAggregatedResources';
export const LISTENER_TYPE = 'type.googleapis.com/envoy.config.listener.v3.Listener';

function varint(n: number): Buffer {
  const bytes: number[] = [];
  let v = n;
  while (v > 0x7f) {
    bytes.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  bytes.push(v);
  return Buffer.from(bytes);
}

/** A length-delimited field (wire type 2). */
function field(num: number, value: Buffer | string): Buffer {
  const body = typeof value === 'string' ? Buffer.from(value) : value;
  return Buffer.concat([varint((num << 3) | 2), varint(body.length), body]);
}

/** google.protobuf.Struct of string values. */
function struct(values: Record<string, string>): Buffer {
  return Buffer.concat(
    Object.entries(values).map(([k, v]) => field(1, Buffer.concat([field(1, k), field(2, field(3, v))]))),
  );
}

export interface XdsNode {
  id: string;
  metadata: Record<string, string>;
}

export function discoveryRequest(node: XdsNode, typeUrl: string, names: string[]): Buffer {
  const nodeMsg = Buffer.concat([field(1, node.id), field(3, struct(node.metadata))]);
  return Buffer.concat([field(2, nodeMsg), ...names.map((n) => field(3, n)), field(4, typeUrl)]);
}

export interface DiscoveryResponse {
  versionInfo: string;
  typeUrl: string;
  nonce: string;
  resources: number;
}

export function parseDiscoveryResponse(buf: Buffer): DiscoveryResponse {
  const out: DiscoveryResponse = { versionInfo: '', typeUrl: '', nonce: '', resources: 0 };
  let i = 0;
  const readVarint = () => {
    let result = 0;
    let mul = 1;
    for (;;) {
      const b = buf[i++];
      if (b === undefined) throw new Error('truncated DiscoveryResponse');
      result += (b & 0x7f) * mul;
      if (b < 0x80) return result;
      mul *= 128;
    }
  };
  while (i < buf.length) {
    const key = readVarint();
    const num = Math.floor(key / 8);
    const wire = key & 7;
    if (wire === 0) readVarint();
    else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else if (wire === 2) {
      const len = readVarint();
      const value = buf.subarray(i, i + len);
      i += len;
      if (num === 1) out.versionInfo = value.toString();
      else if (num === 2) out.resources++;
      else if (num === 4) out.typeUrl = value.toString();
      else if (num === 5) out.nonce = value.toString();
    } else throw new Error(`unexpected wire type ${wire} in DiscoveryResponse`);
  }
  return out;
}

/**
 * Opens an ADS stream to a plaintext xDS server, sends one DiscoveryRequest and resolves with
 * the first DiscoveryResponse. Rejects on a gRPC error status, a closed stream or a timeout.
 */
export function adsRequest(
  address: string,
  node: XdsNode,
  typeUrl: string,
  names: string[],
  timeoutMs = 5000,
): Promise<DiscoveryResponse> {
  return new Promise((resolve, reject) => {
    const session = connect(`http://${address}`);
    let settled = false;
    const finish = (err: Error | undefined, value?: DiscoveryResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      session.destroy();
      if (err) reject(err);
      else resolve(value!);
    };
    const timer = setTimeout(
      () => finish(new Error(`no DiscoveryResponse within ${timeoutMs} ms`)),
      timeoutMs,
    );
    session.on('error', (err) => finish(err));
    const stream = session.request({
      ':method': 'POST',
      ':path': ADS_PATH,
      'content-type': 'application/grpc',
      te: 'trailers',
    });
    let pending = Buffer.alloc(0);
    stream.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      if (pending.length < 5) return;
      const len = pending.readUInt32BE(1);
      if (pending.length < 5 + len) return;
      try {
        finish(undefined, parseDiscoveryResponse(pending.subarray(5, 5 + len)));
      } catch (err) {
        finish(err as Error);
      }
    });
    stream.on('trailers', (trailers) => {
      const code = trailers['grpc-status'];
      finish(new Error(`ADS stream ended: grpc-status ${code} ${trailers['grpc-message'] ?? ''}`.trim()));
    });
    stream.on('response', (headers) => {
      const code = headers['grpc-status'];
      if (code !== undefined && code !== '0')
        finish(new Error(`ADS stream refused: grpc-status ${code} ${headers['grpc-message'] ?? ''}`.trim()));
    });
    stream.on('error', (err) => finish(err));
    stream.on('close', () => finish(new Error('ADS stream closed before a DiscoveryResponse')));
    const msg = discoveryRequest(node, typeUrl, names);
    const header = Buffer.alloc(5);
    header.writeUInt32BE(msg.length, 1);
    stream.write(Buffer.concat([header, msg]));
  });
}
