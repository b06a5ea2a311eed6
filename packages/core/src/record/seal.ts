// What makes a record of changes chaoskit's own: an HMAC over every record entry and every
// object's undo annotation, with a key kept in a Secret of the ledger namespace. Anyone who can
// write a ConfigMap can write something shaped like a record; only an identity that can read
// this Secret (the chaos operators', as `chaoskit rbac` grants it) can write one that verifies,
// and `status` and `revert` act on nothing else (D86).

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { RbacRule } from '../auth/access.js';
import { sendWrite } from '../cluster/ops.js';
import { Secrets } from '../cluster/resources.js';
import type { Transport } from '../cluster/transport.js';
import { isApiError } from '../errors/errors.js';

/** The Secret holding the ledger key, in the ledger namespace. */
export const LEDGER_KEY_SECRET = 'chaoskit-ledger-key';
export const LEDGER_KEY_LABEL = 'chaoskit.io/ledger-key';

/**
 * What a run's identity needs in the ledger namespace: its record (listed to see the other runs'
 * for the share rail and chains) and the key that seals it (created on first use).
 */
export const LEDGER_RULES: readonly RbacRule[] = Object.freeze([
  { apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'delete', 'get', 'list', 'patch'] },
  { apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: [LEDGER_KEY_SECRET] },
  { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
]);

/** What a MAC is over: its purpose and the names that bind it to one place. */
export type Binding = readonly string[];

export class LedgerKey {
  readonly #key: Buffer;

  constructor(
    key: Buffer,
    /** Where the key is kept: the namespace of the records it signs. */
    readonly namespace: string,
  ) {
    this.#key = key;
  }

  /** The MAC of `text` bound to `binding` (hex). */
  seal(binding: Binding, text: string): string {
    const mac = createHmac('sha256', this.#key);
    for (const part of binding) mac.update(`${part.length}:${part}`);
    return mac.update(text).digest('hex');
  }

  /** Whether `mac` is the MAC of `text` bound to `binding`. */
  verifies(binding: Binding, text: string, mac: unknown): boolean {
    if (typeof mac !== 'string' || !/^[0-9a-f]{64}$/.test(mac)) return false;
    return timingSafeEqual(Buffer.from(this.seal(binding, text), 'hex'), Buffer.from(mac, 'hex'));
  }
}

interface SecretObject {
  data?: Record<string, string>;
}

function keyOf(secret: SecretObject, namespace: string): LedgerKey | undefined {
  const raw = secret.data?.key ? Buffer.from(secret.data.key, 'base64') : undefined;
  return raw && raw.length >= 32 ? new LedgerKey(raw, namespace) : undefined;
}

/**
 * The ledger key of `namespace`. A run creates it on first use (`create`); `status` and `revert`
 * only read it: without it, no record verifies. A Secret of that name without a usable key is
 * an error, never replaced (someone else's, or damaged).
 */
export async function ledgerKey(
  kube: Transport,
  namespace: string,
  options: { create: boolean },
): Promise<LedgerKey | undefined> {
  const where = `Secret ${LEDGER_KEY_SECRET} in namespace '${namespace}'`;
  const read = async () => {
    try {
      return await kube.get<SecretObject>(Secrets, LEDGER_KEY_SECRET, namespace);
    } catch (err) {
      if (isApiError(err, 'NotFound')) return undefined;
      throw err;
    }
  };
  let secret = await read();
  if (!secret && options.create) {
    try {
      secret = await sendWrite<SecretObject>(kube, {
        verb: 'create',
        type: Secrets,
        namespace,
        body: {
          apiVersion: 'v1',
          kind: 'Secret',
          type: 'Opaque',
          metadata: {
            name: LEDGER_KEY_SECRET,
            namespace,
            labels: { [LEDGER_KEY_LABEL]: 'true' },
            annotations: {
              'chaoskit.io/purpose':
                "signs chaoskit's records of changes: whoever can read it can write records that chaoskit revert acts on; let only the chaos operators' Role read it",
            },
          },
          data: { key: randomBytes(32).toString('base64') },
        },
      });
    } catch (err) {
      // Another run created it at the same moment: use theirs.
      if (!isApiError(err, 'Conflict')) throw err;
      secret = await read();
    }
  }
  if (!secret) return undefined;
  const key = keyOf(secret, namespace);
  if (!key) throw new Error(`${where} holds no usable key (data.key must be at least 32 bytes)`);
  return key;
}
