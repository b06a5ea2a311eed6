import { readdirSync } from 'node:fs';
import type { ConformanceCase } from '../case.js';

const root = new URL('./', import.meta.url);

export interface DiscoveredCase {
  /** The directory of its file: pod, node, mesh… (`--only` takes these). */
  group: string;
  case: ConformanceCase;
}

let found: Promise<DiscoveredCase[]> | undefined;

/**
 * Every case: the default export of each `<group>/*.case.(ts|js)` file, found on disk, so that
 * adding an activity's case is adding its file. The coverage guard checks them against every
 * registered activity.
 */
export function discoverCases(): Promise<DiscoveredCase[]> {
  found ??= (async () => {
    const groups = readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const out: DiscoveredCase[] = [];
    for (const group of groups) {
      const files = readdirSync(new URL(`${group}/`, root))
        .filter((file) => /\.case\.(ts|js)$/.test(file))
        .sort();
      for (const file of files) {
        const mod = (await import(new URL(`${group}/${file}`, root).href)) as { default: ConformanceCase };
        out.push({ group, case: mod.default });
      }
    }
    return out;
  })();
  return found;
}

/** Every case, without their groups. */
export async function loadCases(): Promise<ConformanceCase[]> {
  return (await discoverCases()).map((d) => d.case);
}
