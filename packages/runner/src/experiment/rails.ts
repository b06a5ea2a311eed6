// The safety rails of a run (D74, docs/decisions.md), from the experiment's `chaoskit`
// extension and the command line: what they allow is the union of both, a --max-pod-share
// given on the command line wins over the experiment's.

import { type SafetyOptions, z } from '@chaoskit/core';
import { suggest } from '@chaoskit/core/runner';

const namespaces = (what: string) =>
  z.array(z.string().min(1), { error: `${what} must be a list of namespace names` });

/** The experiment's `extensions: [{ name: chaoskit, … }]`. */
export const chaoskitExtension = z.strictObject({
  name: z.literal('chaoskit'),
  allow_namespaces: namespaces('allow_namespaces').optional(),
  protect_namespaces: namespaces('protect_namespaces').optional(),
  allow_all_nodes: z.boolean({ error: 'allow_all_nodes must be true or false' }).optional(),
  max_pod_share: z
    .number({ error: 'max_pod_share must be a number above 0 and at most 1' })
    .gt(0, 'max_pod_share must be above 0')
    .max(1, 'max_pod_share must be at most 1 (every pod)')
    .optional(),
  skip_controls: z
    .array(z.string().min(1), { error: 'skip_controls must be a list of control names' })
    .optional(),
});

export type ChaoskitExtension = z.infer<typeof chaoskitExtension>;

const KNOWN = Object.keys(chaoskitExtension.shape);

/** The problems of the chaoskit extension, in words (unknown keys with a did-you-mean). */
export function extensionProblems(extension: unknown): string[] {
  const parsed = chaoskitExtension.safeParse(extension);
  if (parsed.success) return [];
  return parsed.error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => {
          const hint = suggest(key, KNOWN);
          return `the chaoskit extension: unknown key '${key}'${hint ? `; did you mean '${hint}'?` : ''} (known: ${KNOWN.join(', ')})`;
        })
      : [`the chaoskit extension: ${issue.message}`],
  );
}

/** What the command line says about the rails (`run` and `plan` options). */
export interface RailFlags {
  allowNamespace?: string[];
  protectNamespace?: string[];
  allowAllNodes?: boolean;
  maxPodShare?: number;
  /** `--skip-control`: Python controls the run goes without, knowingly (D96). */
  skipControl?: string[];
}

/** The experiment's chaoskit extensions (already validated). */
const ownExtensions = (extensions: unknown) =>
  (Array.isArray(extensions) ? extensions : []).filter(
    (e): e is ChaoskitExtension => (e as { name?: unknown })?.name === 'chaoskit',
  );

/** The run's rails: the experiment's extension (already validated) and the command line. */
export function railsOf(extensions: unknown, flags: RailFlags = {}): SafetyOptions {
  const own = ownExtensions(extensions);
  const maxPodShare = flags.maxPodShare ?? own.findLast((e) => e.max_pod_share !== undefined)?.max_pod_share;
  return {
    allowNamespaces: [...own.flatMap((e) => e.allow_namespaces ?? []), ...(flags.allowNamespace ?? [])],
    protectNamespaces: [...own.flatMap((e) => e.protect_namespaces ?? []), ...(flags.protectNamespace ?? [])],
    allowAllNodes: flags.allowAllNodes === true || own.some((e) => e.allow_all_nodes === true),
    ...(maxPodShare !== undefined ? { maxPodShare } : {}),
  };
}

/** The Python controls a run goes without: the experiment's `skip_controls` and `--skip-control`. */
export function skippedControls(extensions: unknown, flags: RailFlags = {}): string[] {
  return [...ownExtensions(extensions).flatMap((e) => e.skip_controls ?? []), ...(flags.skipControl ?? [])];
}
