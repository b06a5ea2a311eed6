// The activity packages built into the bundled command (dist/bundle/, D149): the bundle script
// (scripts/bundle.mjs) puts its own version of this module in the bundle, one entry a chaoskit
// activity package, each loaded from its own chunk on first use. The unbundled build has none
// and finds every package in node_modules.

/** An activity package built into the bundle. */
export interface BundledPackage {
  name: string;
  version: string;
  /** The modules its package.json declares. */
  modules: string[];
  /** Imports its chunk (which shares the bundle's one copy of @chaoskit/core). */
  load: () => Promise<Record<string, unknown>>;
}

export const BUNDLED: readonly BundledPackage[] = [];
