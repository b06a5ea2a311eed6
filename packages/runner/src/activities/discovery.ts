// Chaos Toolkit's discovery (`chaos discover <package>`, D162): the activities of one extension
// in the format `chaos init` reads — a package named as Chaos Toolkit names it
// (chaostoolkit-kubernetes, chaostoolkit-istio: their activities under chaosk8s.* and
// chaosistio.*) or as npm does. chaoskit installs nothing (its activity packages are in the
// command; others are npm's) and does not read the cluster for it: `system` is null.
import { randomUUID } from 'node:crypto';
import { hostname, machine, release, type, version } from 'node:os';
import type { AnyActivity } from '@chaoskit/core';
import { InvalidArgumentError } from 'commander';
import { originalModule } from '../experiment/format.js';
import { CHAOSLIB_VERSION, RUNNER_VERSION } from '../package/version.js';
import type { Installed } from './resolve-activity.js';

/** Chaos Toolkit's extensions chaoskit implements: the module prefix of their activities here, and their target. */
const CHAOS_TOOLKIT_PACKAGES: Record<string, { prefix: string; target: string }> = {
  'chaostoolkit-kubernetes': { prefix: 'chaoscluster.', target: 'kubernetes' },
  'chaostoolkit-istio': { prefix: 'chaosmesh.', target: 'istio' },
};

// JSON Schema's types as Chaos Toolkit's discovery names Python's.
const PORTABLE: Record<string, string> = {
  string: 'string',
  integer: 'integer',
  number: 'number',
  boolean: 'boolean',
  array: 'list',
  object: 'mapping',
  null: 'null',
};

function discovered(activity: AnyActivity, mod: string, name: string) {
  const properties = (activity.jsonSchema().properties ?? {}) as Record<string, { type?: unknown }>;
  return {
    type: activity.kind,
    name,
    mod,
    doc: activity.doc,
    arguments: activity.arguments.map((a) => {
      const jsonType = properties[a.name]?.type;
      return {
        name: a.name,
        ...('default' in a ? { default: a.default } : {}),
        type: (typeof jsonType === 'string' && PORTABLE[jsonType]) || 'object',
      };
    }),
  };
}

/** The discovery of `pkg` among what is installed; an error naming what is accepted when it is none of it. */
export function discovery(installed: Installed, pkg: string) {
  const known = CHAOS_TOOLKIT_PACKAGES[pkg];
  let activities: ReturnType<typeof discovered>[];
  let extension: { name: string; version: string };
  if (known) {
    activities = [
      ...installed.activities.map((a) => ({ a, mod: a.module, name: a.name })),
      ...installed.aliases.map((a) => ({ a: a.activity, mod: a.module, name: a.name })),
    ]
      .filter(({ mod }) => mod.startsWith(known.prefix))
      .map(({ a, mod, name }) => discovered(a, originalModule(mod), name));
    extension = { name: pkg, version: RUNNER_VERSION };
  } else {
    const found = installed.packages.find((p) => p.name === pkg);
    if (!found)
      throw new InvalidArgumentError(
        `discover: no package '${pkg}' is installed: give ${Object.keys(CHAOS_TOOLKIT_PACKAGES).join(', ')} or one of ${installed.packages.map((p) => p.name).join(', ')}`,
      );
    activities = [
      ...found.activities.map((a) => discovered(a, a.module, a.name)),
      ...found.aliases.map((a) => discovered(a.activity, a.module, a.name)),
    ];
    extension = { name: found.name, version: found.version };
  }
  return {
    chaoslib_version: CHAOSLIB_VERSION,
    id: randomUUID(),
    target: known?.target ?? pkg,
    date: new Date().toISOString(),
    platform: {
      system: type(),
      node: hostname(),
      release: release(),
      version: version(),
      machine: machine(),
    },
    extension,
    activities,
    system: null,
  };
}
