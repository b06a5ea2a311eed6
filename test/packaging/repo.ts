// The repository as the packaging tests see it: its packages and their manifests.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const packagesDir = join(repoRoot, 'packages');

export interface Manifest {
  name: string;
  version: string;
  license?: string;
  files?: string[];
  scripts?: Record<string, string>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [key: string]: unknown;
}

export interface WorkspacePackage {
  dir: string;
  /** The directory name, which is the package name after the scope. */
  short: string;
  manifest: Manifest;
}

export function workspacePackages(): WorkspacePackage[] {
  return readdirSync(packagesDir)
    .sort()
    .map((short) => {
      const dir = join(packagesDir, short);
      return {
        dir,
        short,
        manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest,
      };
    });
}

/** The packages made of activities (each exports `activities` and a camelCase function each). */
export const isActivityPackage = (p: WorkspacePackage): boolean => /^chaos(cluster|mesh)-/.test(p.short);

export const rootManifest = (): Manifest =>
  JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest;
