// What a record of changes holds, and how it is read back: every entry is parsed and checked on
// its own, so that one damaged or hand-edited entry is named (ConfigMap and key) and skipped,
// never a reason to fail everyone's `status` (D86).

import { z } from 'zod';
import type { FieldValue } from './pointers.js';
import type { Writer } from './writer.js';

/** Which object: enough to read it, restore it, or create it again. */
export interface ObjectRef {
  apiVersion: string;
  plural: string;
  namespaced: boolean;
  noun: string;
  namespace?: string;
  name: string;
  /** The object's uid when the run first touched it (absent for objects the run created). */
  uid?: string;
}

/** The object's chaoskit annotations before the run first wrote it (another run's change under it). */
export interface Prior {
  run?: string;
  undo?: string;
  mac?: string;
}

/** One object the run changed. Field changes are keyed by identity pointers (record/locate.ts). */
export interface TouchedObject {
  ref: ObjectRef;
  activities: string[];
  /** What the changed fields held before the run first changed them. */
  original: Record<string, FieldValue>;
  /** What the run last wrote there (the after-image a revert checks first). */
  written: Record<string, FieldValue>;
  /**
   * When the run wrote over another run's change still in place (`after`): what the fields held
   * before that run — reverting both ends there, whatever the order (D87).
   */
  base?: Record<string, FieldValue>;
  /** The run whose change this one was written over. */
  after?: string;
  prior?: Prior;
  /** The run created it: reverting deletes it. */
  created?: boolean;
  /** The run deleted it: reverting creates it again from this copy. */
  deleted?: Record<string, unknown>;
}

/** Pods the run deleted or evicted: recorded, not revertable (their controllers replace them). */
export interface RemovedPods {
  namespace: string;
  names: string[];
  activity: string;
  how: 'deleted' | 'evicted';
  /** The selection was chosen by the experiment (a label, a pattern, every pod): the share rail counts it. */
  selected?: boolean;
}

/** The pod a deployed run ran in: while it lives, the run is its own to settle (D121). */
export interface RunPod {
  namespace: string;
  name: string;
  uid: string;
}

/**
 * The record's header: which run, where, and when its changes expire; who wrote it, and with
 * which key (the Secret in the record's namespace). Version 3: earlier records name no writer.
 */
export interface RunHeader {
  v: 3;
  runId: string;
  namespace: string;
  started: string;
  expires: string;
  title?: string;
  /** The `chaoskit deploy` deployment the run belongs to (its experiment's name). */
  deployment?: string;
  pod?: RunPod;
  writer: Writer;
  key: string;
}

const writer = z.object({ username: z.string().min(1), groups: z.array(z.string()).optional() });

const fieldValue = z.object({ present: z.boolean(), value: z.unknown().optional() });
const fields = z.record(z.string().startsWith('/'), fieldValue);

const objectRef = z.object({
  apiVersion: z.string().min(1),
  plural: z.string().min(1),
  namespaced: z.boolean(),
  noun: z.string(),
  namespace: z.string().min(1).optional(),
  name: z.string().min(1),
  uid: z.string().optional(),
});

export const touchedObject = z.object({
  ref: objectRef,
  activities: z.array(z.string()),
  original: fields,
  written: fields,
  base: fields.optional(),
  after: z.string().optional(),
  prior: z
    .object({ run: z.string().optional(), undo: z.string().optional(), mac: z.string().optional() })
    .optional(),
  created: z.boolean().optional(),
  deleted: z.record(z.string(), z.unknown()).optional(),
});

export const removedPods = z.object({
  namespace: z.string(),
  names: z.array(z.string()),
  activity: z.string(),
  how: z.enum(['deleted', 'evicted']),
  selected: z.boolean().optional(),
});

export const runHeader = z.object({
  v: z.literal(3),
  runId: z.string().min(1),
  namespace: z.string().min(1),
  started: z.string(),
  expires: z.string(),
  title: z.string().optional(),
  deployment: z.string().min(1).optional(),
  pod: z.object({ namespace: z.string().min(1), name: z.string().min(1), uid: z.string().min(1) }).optional(),
  writer,
  key: z.string().min(1),
});

/** The data key of the header, and the suffix of each entry's MAC key. */
export const HEADER_KEY = 'run';
export const MAC_SUFFIX = '.mac';

/** The data key of an object's entry. */
export const objectKey = (id: string) => `o-${id}`;
/** The data key of a batch of removed pods. */
export const podsKey = (n: number) => `p-${String(n).padStart(4, '0')}`;

/** What an object's undo annotation holds: its entry, less what only the record needs. */
export interface Undo {
  v: 3;
  run: string;
  /** The namespace of the run's record and key. */
  ledger: string;
  /** Who made the change, and the Secret of the key that sealed it (as in the record's header). */
  writer: Writer;
  key: string;
  /** The activities that made the change (checked as a record entry's are). */
  activities: string[];
  uid?: string;
  created?: boolean;
  original?: Record<string, FieldValue>;
  written?: Record<string, FieldValue>;
  base?: Record<string, FieldValue>;
  after?: string;
}

export const undo = z.object({
  v: z.literal(3),
  run: z.string().min(1),
  ledger: z.string().min(1),
  writer,
  key: z.string().min(1),
  activities: z.array(z.string()),
  uid: z.string().optional(),
  created: z.boolean().optional(),
  original: fields.optional(),
  written: fields.optional(),
  base: fields.optional(),
  after: z.string().optional(),
});

/** The first problem of a value against a schema, in words with its field. */
export function problemOf(schema: z.ZodType, value: unknown): string | undefined {
  const parsed = schema.safeParse(value);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0]!;
  return `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`;
}

/** JSON text parsed, or the reason it is not JSON. */
export function parseJson(text: string): { value: unknown } | { problem: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (err) {
    return { problem: `not JSON (${(err as Error).message})` };
  }
}
