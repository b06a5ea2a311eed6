import type { CustomObject, CustomObjectList } from '@chaoskit/chaoscluster-crd';
import { customResourceDefinition } from '@chaoskit/cluster';
import {
  ApiextensionsV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import type { CaseContext } from '../../case-context.js';

import { activityFailure, fileWriter } from '../shared-fixtures.js';

export { activityFailure, fileWriter as fileMaker };

// Every crd case installs two small definitions of its own, in a group named after the case
// (`<t.id>.chaoskit.test`): `widgets` (namespaced, kind Widget) and `gadgets` (cluster-scoped,
// kind Gadget), both with version v1 and a spec of size, color and mode. They are removed,
// with every object of theirs, when the case ends.

export const VERSION = 'v1';

export type ScopeKind = 'namespaced' | 'cluster';

interface TypeNames {
  plural: string;
  kind: string;
}

const TYPES: Record<ScopeKind, TypeNames> = {
  namespaced: { plural: 'widgets', kind: 'Widget' },
  cluster: { plural: 'gadgets', kind: 'Gadget' },
};

export interface Spec {
  size?: number;
  color?: string;
  mode?: string;
}

function definition(group: string, scope: ScopeKind): V1CustomResourceDefinition {
  return customResourceDefinition({
    group,
    version: VERSION,
    scope: scope === 'namespaced' ? 'Namespaced' : 'Cluster',
    ...TYPES[scope],
    spec: { size: { type: 'integer' }, color: { type: 'string' }, mode: { type: 'string' } },
    labels: { 'chaoskit.io/conformance': 'crd' },
  });
}

const installed = new WeakMap<CaseContext, Promise<string>>();

/** Installs the case's two definitions (once per case) and waits until both are served. */
export function installCrds(t: CaseContext): Promise<string> {
  let group = installed.get(t);
  if (!group) {
    group = install(t);
    installed.set(t, group);
  }
  return group;
}

async function install(t: CaseContext): Promise<string> {
  const group = `${t.id}.chaoskit.test`;
  const ext = t.kc.makeApiClient(ApiextensionsV1Api);
  const objects = t.kc.makeApiClient(CustomObjectsApi);
  for (const scope of ['namespaced', 'cluster'] as const) {
    const body = definition(group, scope);
    await ext.createCustomResourceDefinition({ body });
    t.onCleanup(() => ext.deleteCustomResourceDefinition({ name: body.metadata!.name! }));
  }
  await t.until(`the definitions of ${group} established and served`, async () => {
    for (const { plural } of Object.values(TYPES)) {
      const crd = await ext.readCustomResourceDefinition({ name: `${plural}.${group}` });
      const established = crd.status?.conditions?.some(
        (c) => c.type === 'Established' && c.status === 'True',
      );
      if (!established) return false;
    }
    const served = await objects.getAPIResources({ group, version: VERSION });
    return Object.values(TYPES).every(({ plural }) => served.resources.some((r) => r.name === plural));
  });
  return group;
}

/** One of the two resources of the case, seen from the scenario: names, arguments, admin access. */
export interface Scope {
  kind: ScopeKind;
  group: string;
  plural: string;
  objectKind: string;
  /** The resource type of the other scope (for wrong-variant scenarios). */
  other: TypeNames;
  /** The resource-addressing arguments of the activity: group, version, plural (and ns). */
  args: Record<string, unknown>;
  /** A name unique to the scenario (cluster-scoped objects outlive the scenario's namespace). */
  name(base: string): string;
  /** A custom object as a user would write it. */
  doc(name: string, spec?: Spec, metadata?: Record<string, unknown>): CustomObject;
  /** Admin read; undefined when the object does not exist. */
  read(name: string): Promise<CustomObject | undefined>;
  /** Admin create (field manager "fixture"). */
  create(doc: CustomObject): Promise<CustomObject>;
  /** Admin server-side apply as `manager`. */
  apply(manager: string, doc: CustomObject, force?: boolean): Promise<CustomObject>;
  /** The names of the scenario's objects of this resource, sorted. */
  names(): Promise<string[]>;
  /** Admin merge patch removing every finalizer of the object. */
  unfinalize(name: string): Promise<unknown>;
}

export async function scopeOf(t: CaseContext, kind: ScopeKind): Promise<Scope> {
  const group = await installCrds(t);
  const { plural, kind: objectKind } = TYPES[kind];
  const api = t.kc.makeApiClient(CustomObjectsApi);
  const namespaced = kind === 'namespaced';
  const ns = t.ns;
  const where = { group, version: VERSION, plural };
  const suffix = `-${ns}`;
  const name = (base: string) => (namespaced ? base : `${base}${suffix}`);
  return {
    kind,
    group,
    plural,
    objectKind,
    other: TYPES[namespaced ? 'cluster' : 'namespaced'],
    args: namespaced ? { ...where, ns } : { ...where },
    name,
    doc: (objectName, spec = {}, metadata = {}) => ({
      apiVersion: `${group}/${VERSION}`,
      kind: objectKind,
      metadata: { name: objectName, ...metadata },
      spec,
    }),
    read: async (objectName) => {
      try {
        return (await (namespaced
          ? api.getNamespacedCustomObject({ ...where, namespace: ns, name: objectName })
          : api.getClusterCustomObject({ ...where, name: objectName }))) as CustomObject;
      } catch (err) {
        if ((err as { code?: number }).code === 404) return undefined;
        throw err;
      }
    },
    create: async (doc) =>
      (namespaced
        ? api.createNamespacedCustomObject({ ...where, namespace: ns, body: doc, fieldManager: 'fixture' })
        : api.createClusterCustomObject({
            ...where,
            body: doc,
            fieldManager: 'fixture',
          })) as Promise<CustomObject>,
    apply: async (manager, doc, force = false) => {
      const params = { ...where, name: doc.metadata!.name!, body: doc, fieldManager: manager, force };
      const options = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);
      return (await (namespaced
        ? api.patchNamespacedCustomObject({ ...params, namespace: ns }, options)
        : api.patchClusterCustomObject(params, options))) as CustomObject;
    },
    names: async () => {
      const list = (await (namespaced
        ? api.listNamespacedCustomObject({ ...where, namespace: ns })
        : api.listClusterCustomObject({ ...where }))) as CustomObjectList;
      return list.items
        .map((o) => o.metadata!.name!)
        .filter((n) => namespaced || n.endsWith(suffix))
        .sort();
    },
    unfinalize: (objectName) => {
      const params = { ...where, name: objectName, body: { metadata: { finalizers: null } } };
      const options = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
      return namespaced
        ? api.patchNamespacedCustomObject({ ...params, namespace: ns }, options)
        : api.patchClusterCustomObject(params, options);
    },
  };
}

/** A group no definition serves, and a plural the case's group does not serve. */
export function missingTypes(scope: Scope): Array<{ args: Record<string, unknown>; what: string }> {
  return [
    { args: { ...scope.args, group: `absent.${scope.group}` }, what: 'group' },
    { args: { ...scope.args, plural: 'nopes' }, what: 'plural' },
  ];
}

/** The arguments of the same resource type in the other scope (the wrong variant). */
export function otherScopeArgs(scope: Scope): Record<string, unknown> {
  return { ...scope.args, plural: scope.other.plural };
}

/** Who owns which fields of spec: field manager → the spec fields of its entries. */
export function specOwners(obj: CustomObject): Record<string, string[]> {
  const owners: Record<string, string[]> = {};
  const entries = (obj.metadata?.managedFields ?? []) as Array<{
    manager?: string;
    fieldsV1?: { 'f:spec'?: Record<string, unknown> };
  }>;
  for (const entry of entries) {
    const fields = Object.keys(entry.fieldsV1?.['f:spec'] ?? {})
      .filter((f) => f.startsWith('f:'))
      .map((f) => f.slice(2));
    if (fields.length === 0) continue;
    const manager = entry.manager ?? '';
    owners[manager] = [...(owners[manager] ?? []), ...fields].sort();
  }
  return owners;
}

/**
 * The refusals every activity with a body shares: both or neither of resource and
 * resource_as_yaml_file, bad files, wrong types, a foreign apiVersion, unknown arguments.
 * `base` is a good call without the body.
 */
export async function refuseBadBodies(
  t: CaseContext,
  scope: Scope,
  base: Record<string, unknown>,
  good: CustomObject,
): Promise<void> {
  const file = await fileWriter(t);
  const goodFile = await file('good.yaml', JSON.stringify(good));
  const refused: Array<[Record<string, unknown>, string]> = [
    [{ ...base, resource: good, resource_as_yaml_file: goodFile }, 'resource'],
    [{ ...base }, 'resource'],
    [{ ...base, resource: null, resource_as_yaml_file: null }, 'resource'],
    [{ ...base, resource_as_yaml_file: `${goodFile}.missing` }, 'resource_as_yaml_file'],
    [{ ...base, resource_as_yaml_file: await file('bad.yaml', 'spec: [oops\n') }, 'resource_as_yaml_file'],
    [{ ...base, resource_as_yaml_file: await file('list.yaml', '- a\n- b\n') }, 'resource_as_yaml_file'],
    [
      {
        ...base,
        resource_as_yaml_file: await file(
          'two.yaml',
          `${JSON.stringify(good)}\n---\n${JSON.stringify(good)}\n`,
        ),
      },
      'resource_as_yaml_file',
    ],
    [
      { ...base, resource_as_yaml_file: await file('nokind.yaml', `apiVersion: ${scope.group}/v1\n`) },
      'resource_as_yaml_file',
    ],
    [{ ...base, resource_as_yaml_file: 42 }, 'resource_as_yaml_file'],
    [{ ...base, resource: 'kind: Widget' }, 'resource'],
    [{ ...base, resource: { ...good, apiVersion: `${scope.group}/v2` } }, 'resource'],
    [{ ...base, resource: { ...good, apiVersion: 'v1' } }, 'resource'],
    [{ ...base, resource: good, group: 'Not A Group' }, 'group'],
    [{ ...base, resource: good, plural: undefined }, 'plural'],
    [{ ...base, resource: good, resources: good }, 'resources'],
  ];
  if (scope.kind === 'namespaced') {
    refused.push([{ ...base, resource: good, ns: 'Not_A_Namespace' }, 'ns']);
    refused.push([
      { ...base, resource: { ...good, metadata: { ...good.metadata, namespace: 'elsewhere' } } },
      'ns',
    ]);
  } else {
    refused.push([{ ...base, resource: good, ns: t.ns }, 'ns']);
  }
  for (const [args, argument] of refused) await t.expectRefused(args, argument);
}
