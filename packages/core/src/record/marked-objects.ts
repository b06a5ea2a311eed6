// Finding a run's changes by the marks on the objects, when its record is gone or damaged: every
// object of the kinds chaoskit's activities write that carries a run's mark, and — when its
// sealed undo verifies — an entry rebuilt from it, so that `status` shows it and `revert` can
// still undo it (D86).

import type { ResourceType } from '../transport/resources.js';
import type { Transport } from '../transport/transport.js';
import type { ObjectRef, TouchedObject } from './entries.js';
import { refOf, sameObject } from './names.js';
import { markOf, readUndo } from './run-marks.js';
import type { LedgerKeys } from './seal.js';
import type { Writer } from './writer.js';

export interface Marked {
  ref: ObjectRef;
  /** The run whose mark it carries. */
  run: string;
  /** The change rebuilt from its sealed undo; absent when that does not verify (`problem`). */
  entry?: TouchedObject;
  /** Who made it (from its sealed undo): what it is undone as. */
  writer?: Writer;
  problem?: string;
}

type Meta = {
  metadata?: { name?: string; namespace?: string; uid?: string; annotations?: Record<string, string> };
};

/**
 * Objects of `types` carrying the mark of a run that records in `ledger` (marks of single calls
 * outside runs aside), each verified with the key of its writer.
 */
export async function findMarked(
  kube: Transport,
  types: readonly ResourceType[],
  keys: LedgerKeys,
  ledger: string,
): Promise<Marked[]> {
  const found: Marked[] = [];
  for (const type of types) {
    const items = await kube.list<Meta>(type, { namespace: null, metadataOnly: true }).catch(() => []);
    for (const item of items) {
      const run = markOf(item);
      if (!run || run.startsWith('call-')) continue;
      const ref = { ...refOf(type, item.metadata?.name ?? '', item.metadata?.namespace) };
      const read = await readUndo(keys, ref, item);
      if ('problem' in read) {
        found.push({ ref, run, problem: read.problem });
        continue;
      }
      const undo = read.undo;
      if (undo.ledger !== ledger) {
        found.push({
          ref,
          run,
          problem: `its undo belongs to the ledger in namespace '${undo.ledger}' (--ledger-namespace)`,
        });
        continue;
      }
      const entry: TouchedObject = {
        ref: { ...ref, ...(undo.uid ? { uid: undo.uid } : {}) },
        activities: undo.activities,
        original: undo.original ?? {},
        written: undo.written ?? {},
        ...(undo.base ? { base: undo.base } : {}),
        ...(undo.after ? { after: undo.after, prior: { run: undo.after } } : {}),
        ...(undo.created ? { created: true } : {}),
      };
      found.push({ ref, run: undo.run, entry, writer: undo.writer });
    }
  }
  return found;
}

/** The marked objects a run's verified entries do not cover: its changes found only by their marks. */
export function uncovered(
  marked: readonly Marked[],
  runs: ReadonlyArray<{ runId: string; objects: readonly TouchedObject[] }>,
): Marked[] {
  return marked.filter(
    (m) => !runs.some((run) => run.runId === m.run && run.objects.some((o) => sameObject(o.ref, m.ref))),
  );
}
