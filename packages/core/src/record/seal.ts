// What makes a record of changes its writer's own: an HMAC over every record entry and every
// object's undo annotation, with a key kept in a Secret of the ledger namespace, and the writer
// it vouches for sealed with them. Anyone who can write a ConfigMap can write something shaped
// like a record; only a holder of the key can write one that verifies, and each key vouches for
// its own writers only (D86, D158):
//
// - a runner's key, `chaoskit-ledger-key-<service account>`, which `chaoskit deploy` creates and
//   only that runner's ServiceAccount may read: it vouches for that ServiceAccount alone;
// - the operators' key, `chaoskit-ledger-key`, which the people and CI identities that run
//   chaoskit themselves read (the -ledger Role): it vouches for any writer except a
//   ServiceAccount that has a runner's key (a runner's records are sealed with its own).
//
// Keys are created by those who may create Secrets in the ledger namespace (who may already act
// as its ServiceAccounts); no run ever needs to create one but the operators' first.

import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isApiError } from '../errors/errors.js';
import { type Identity, missingRights, type RbacRule } from '../transport/access.js';
import { sendWrite } from '../transport/ops.js';
import { Secrets } from '../transport/resources.js';
import type { Transport } from '../transport/transport.js';
import { actingAs, serviceAccountOf, type Writer } from './writer.js';

/** The operators' key: what people's and CI identities' runs seal their records with. */
export const LEDGER_KEY_SECRET = 'chaoskit-ledger-key';
export const LEDGER_KEY_LABEL = 'chaoskit.io/ledger-key';

/** The Secret holding the key of the runner that runs as ServiceAccount `serviceAccount`. */
export function runnerKeyName(serviceAccount: string): string {
  const name = `${LEDGER_KEY_SECRET}-${serviceAccount}`;
  if (name.length <= 253) return name;
  const hash = createHash('sha256').update(serviceAccount).digest('hex').slice(0, 16);
  return `${name.slice(0, 236)}-${hash}`;
}

/**
 * What a run's identity needs in the ledger namespace: its record (listed to see the other runs'
 * for the share rail and chains) and the key that seals it. `own`: the only ConfigMaps it may
 * change and delete (a deployed runner's record and share locks); without it, every ConfigMap.
 */
export function ledgerRules(key: string, own?: readonly string[]): RbacRule[] {
  const ours = own ? { resourceNames: [...own] } : {};
  return [
    { apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get', 'list'] },
    { apiGroups: [''], resources: ['configmaps'], verbs: ['delete', 'patch'], ...ours },
    { apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: [key] },
  ];
}

/** The rules of a run of a person or a CI identity: its records, and the operators' key. */
export const LEDGER_RULES: readonly RbacRule[] = Object.freeze(
  ledgerRules(LEDGER_KEY_SECRET).map((rule) => Object.freeze(rule)),
);

/** What a MAC is over: its purpose and the names that bind it to one place. */
export type Binding = readonly string[];

export class LedgerKey {
  readonly #key: Buffer;

  constructor(
    key: Buffer,
    /** Where the key is kept: the namespace of the records it signs. */
    readonly namespace: string,
    /** The Secret it is kept in. */
    readonly secret: string,
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

/** A new key's Secret: 32 random bytes, labelled and saying what it is for. */
export function keySecret(
  name: string,
  namespace: string,
  purpose: string,
  labels: Record<string, string> = {},
): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: {
      name,
      namespace,
      labels: { ...labels, [LEDGER_KEY_LABEL]: 'true' },
      annotations: { 'chaoskit.io/purpose': purpose },
    },
    data: { key: randomBytes(32).toString('base64') },
  };
}

const OPERATORS_PURPOSE =
  "signs the records of changes of chaoskit runs by people and CI identities: whoever can read it can write records that chaoskit revert acts on as their writer; let only the chaos operators' Role read it";

/** The key kept in Secret `secret`; undefined when there is none. A Secret without a usable key is an error. */
export async function readLedgerKey(
  kube: Transport,
  namespace: string,
  secret: string,
): Promise<LedgerKey | undefined> {
  let found: SecretObject;
  try {
    found = await kube.get<SecretObject>(Secrets, secret, namespace);
  } catch (err) {
    if (isApiError(err, 'NotFound')) return undefined;
    throw err;
  }
  const raw = found.data?.key ? Buffer.from(found.data.key, 'base64') : undefined;
  if (!raw || raw.length < 32)
    throw new Error(
      `Secret ${secret} in namespace '${namespace}' holds no usable key (data.key must be at least 32 bytes)`,
    );
  return new LedgerKey(raw, namespace, secret);
}

/**
 * The key a run of `writer` seals its record with: a deployed runner's own (`runner`), which its
 * identity — a ServiceAccount of the ledger namespace — may read; otherwise the operators' key,
 * created on first use when the identity may (someone who may create Secrets there). Never
 * replaced.
 */
export async function keyForRun(
  kube: Transport,
  namespace: string,
  writer: Writer,
  runner: boolean,
): Promise<LedgerKey> {
  if (runner) {
    const account = serviceAccountOf(writer.username);
    if (account?.namespace !== namespace)
      throw new Error(
        `a deployed run seals its record with its runner's key, and ${writer.username} is no ServiceAccount of namespace '${namespace}'`,
      );
    const name = runnerKeyName(account.name);
    const own = await readLedgerKey(kube, namespace, name);
    if (!own)
      throw new Error(
        `the runner's key (Secret ${name} in namespace '${namespace}') is gone: chaoskit deploy makes it again`,
      );
    return own;
  }
  const shared = await readLedgerKey(kube, namespace, LEDGER_KEY_SECRET);
  if (shared) return shared;
  try {
    await sendWrite(kube, {
      verb: 'create',
      type: Secrets,
      namespace,
      body: keySecret(LEDGER_KEY_SECRET, namespace, OPERATORS_PURPOSE),
    });
  } catch (err) {
    // Another run created it at the same moment: theirs is used.
    if (!isApiError(err, 'Conflict')) {
      if (isApiError(err, 'Forbidden')) throw new Error(noOperatorsKey(namespace), { cause: err });
      throw err;
    }
  }
  return (await readLedgerKey(kube, namespace, LEDGER_KEY_SECRET))!;
}

/** Why there is no operators' key to seal with, and who makes it. */
export const noOperatorsKey = (namespace: string) =>
  `there is no ledger key (Secret ${LEDGER_KEY_SECRET}) in namespace '${namespace}' yet, and this identity may not create it: someone who may create Secrets there makes it by running chaoskit once, or with kubectl create secret generic ${LEDGER_KEY_SECRET} -n ${namespace} --from-literal=key="$(head -c 32 /dev/urandom | base64)"`;

/**
 * A key read: there, not there, not readable by the writer itself (so it never sealed with it),
 * or unknown (neither the reader nor, acting as the writer, the reader may tell).
 */
type Read = { key: LedgerKey } | { absent: true } | { writerMayNot: true } | { unknown: true };
type Attempt = { key: LedgerKey } | { absent: true } | { forbidden: true };

/**
 * The keys that vouch for records, each read once: with the reader's own rights, else as the
 * writer it would vouch for (whoever may act as a runner may read its key).
 */
export class LedgerKeys {
  readonly #reads = new Map<string, Promise<Attempt>>();

  constructor(
    readonly kube: Transport,
    /** The reader's identity (whether it is the writer, which it then need not act as). */
    readonly self: Promise<Identity | undefined> = Promise.resolve(undefined),
  ) {}

  /** The key kept in `secret` of `namespace`, as the reader or else as `writer`. */
  async #read(namespace: string, secret: string, writer: Writer): Promise<Read> {
    const attempt = (kube: Transport, id: string) => {
      let read = this.#reads.get(id);
      if (!read) {
        read = readLedgerKey(kube, namespace, secret).then(
          (key): Attempt => (key ? { key } : { absent: true }),
          (err: unknown): Attempt => {
            if (isApiError(err, 'Forbidden')) return { forbidden: true };
            throw err;
          },
        );
        this.#reads.set(id, read);
      }
      return read;
    };
    const own = await attempt(this.kube, `${namespace}/${secret}`);
    if (!('forbidden' in own)) return own;
    const self = await this.self;
    if (self?.username === writer.username) return { writerMayNot: true };
    const asWriter = actingAs(this.kube, self, writer);
    const theirs = await attempt(asWriter, `${namespace}/${secret}/${writer.username}`);
    if (!('forbidden' in theirs)) return theirs;
    // Refused as the writer: because the writer may not read it, or the reader may not act as them.
    const readable = await missingRights(asWriter, [
      { verb: 'get', group: '', resource: 'secrets', name: secret, namespace },
    ]).then(
      (missing) => missing.length === 0,
      () => undefined,
    );
    return readable === false ? { writerMayNot: true } : { unknown: true };
  }

  /**
   * The key in `secret` of `namespace` when it vouches for records of `writer`; otherwise why
   * they cannot be verified.
   */
  async vouching(
    namespace: string,
    secret: string,
    writer: Writer,
  ): Promise<{ key: LedgerKey } | { problem: string }> {
    const account = serviceAccountOf(writer.username);
    const runner = account?.namespace === namespace ? runnerKeyName(account.name) : undefined;
    const where = (name: string) => `Secret ${name} in namespace '${namespace}'`;
    if (secret === LEDGER_KEY_SECRET && runner) {
      const own = await this.#read(namespace, runner, writer);
      if ('key' in own)
        return {
          problem: `it is sealed with the operators' key, but ${writer.username} has a runner's key of its own (${where(runner)}), which alone seals its records`,
        };
      // A key its writer may not read is not one it sealed with.
      if ('unknown' in own)
        return {
          problem: `it is sealed with the operators' key, and whether ${writer.username} has a runner's key of its own (${where(runner)}) cannot be told: this identity may neither read it nor act as ${writer.username}`,
        };
    } else if (secret !== runner && secret !== LEDGER_KEY_SECRET)
      return {
        problem: `it names ${where(secret)} as its key, which vouches for no record of ${writer.username}`,
      };
    const read = await this.#read(namespace, secret, writer);
    if ('key' in read) return read;
    return {
      problem:
        'absent' in read
          ? `its key (${where(secret)}) does not exist`
          : `its key (${where(secret)}) can be read neither by this identity nor as ${writer.username}`,
    };
  }
}
