// What the chaoscluster.crd activities share, declared once: the argument schemas (group,
// version, plural, name, force, and the body given as `resource` or `resource_as_yaml_file`),
// the checks of a custom object, the API client over the namespaced and cluster-wide paths, and
// the translation of API failures into ActivityFailed messages that say what went wrong — in
// particular a missing custom resource definition, told apart from a missing object.

import {
  type ActivityContext,
  ActivityFailed,
  type ApiError,
  type ArgumentProblem,
  createClusterClient,
  DocumentFileError,
  dryRunParam,
  isApiError,
  readDocumentFile,
  toApiError,
  withReadRetry,
  z,
} from '@chaoskit/core';
import {
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type V1APIResource,
} from '@kubernetes/client-node';

export const ACTIONS = 'chaoscluster.crd.actions';
export const PROBES = 'chaoscluster.crd.probes';

/** The field manager of chaoskit's server-side applies (patch_*custom_object, D7). */
export const FIELD_MANAGER = 'chaoskit';

/** How many times a forced replace re-reads the current version when the object keeps changing. */
export const FORCED_REPLACE_ATTEMPTS = 5;

// ---------------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------------

// RFC 1123 label and subdomain, as Kubernetes requires of versions, plurals, groups and names.
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function patterned(pattern: RegExp, max: number, accepted: string) {
  return z.string().superRefine((value, ctx) => {
    if (value.length > max || !pattern.test(value)) ctx.addIssue({ code: 'custom', message: accepted });
  });
}

/** `group`, `version`, `plural`: which resource, as every crd activity takes them (in 0.25.1 order). */
export function resourceTypeArgs() {
  return {
    group: patterned(
      DNS_SUBDOMAIN,
      253,
      'an API group such as "stable.example.com": lower-case letters, digits, "-" and ".", at most 253 characters',
    ).describe('API group of the custom resource definition (its spec.group), e.g. "chaos-mesh.org".'),
    version: patterned(
      DNS_LABEL,
      63,
      'an API version such as "v1" or "v1alpha1": lower-case letters, digits and "-", at most 63 characters',
    ).describe('Version of the API group, one the definition serves, e.g. "v1alpha1".'),
    plural: patterned(
      DNS_LABEL,
      63,
      'the plural name of a resource such as "podchaos": lower-case letters, digits and "-", at most 63 characters',
    ).describe('Plural name of the resource (the definition\'s spec.names.plural), e.g. "podchaos".'),
  };
}

/** `name`: the object's own name. */
export function objectNameArg(doc = 'Name of the custom object.') {
  return patterned(
    DNS_SUBDOMAIN,
    253,
    'an object name: lower-case letters, digits, "-" and ".", at most 253 characters, starting and ending alphanumeric',
  ).describe(doc);
}

/** `force` of patch and replace; the meaning differs, so each gives its own words. */
export function forceArg(doc: string) {
  return z.boolean().default(false).describe(doc);
}

/** A custom object as given by the user: apiVersion and kind at least. */
export interface CustomObject {
  apiVersion: string;
  kind: string;
  metadata?: {
    name?: string;
    generateName?: string;
    namespace?: string;
    resourceVersion?: string;
    managedFields?: unknown;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** What a good `resource_as_yaml_file` gives `run`: where the file was, and its object. */
export interface ObjectFile {
  path: string;
  body: CustomObject;
}

const OBJECT_WORDS = 'a custom object mapping with apiVersion (<group>/<version>) and kind';

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function what(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}

/** Checks that a document is one custom object (not yet against group and version). */
export function checkCustomObject(doc: unknown): CustomObject {
  if (!isMapping(doc)) throw new DocumentFileError(`it is ${what(doc)}, not a mapping`);
  const { apiVersion, kind, metadata } = doc;
  if (typeof apiVersion !== 'string' || apiVersion === '')
    throw new DocumentFileError('it has no apiVersion; a custom object has apiVersion <group>/<version>');
  if (!apiVersion.includes('/'))
    throw new DocumentFileError(
      `its apiVersion '${apiVersion}' names no API group; a custom object has apiVersion <group>/<version>`,
    );
  if (typeof kind !== 'string' || kind === '') throw new DocumentFileError('it has no kind');
  if (metadata !== undefined && metadata !== null) {
    if (!isMapping(metadata)) throw new DocumentFileError(`its metadata is ${what(metadata)}, not a mapping`);
    for (const key of ['name', 'generateName', 'namespace', 'resourceVersion']) {
      const value = metadata[key];
      if (value !== undefined && value !== null && typeof value !== 'string')
        throw new DocumentFileError(`its metadata.${key} is ${what(value)}, not a string`);
    }
  }
  return doc as CustomObject;
}

function reasonOf(err: unknown): string {
  return err instanceof DocumentFileError ? err.message : String((err as Error)?.message ?? err);
}

/** Reads the file (YAML, which JSON is too, whatever the extension) and checks its object. */
export function loadObjectFile(path: string): ObjectFile {
  const { document } = readDocumentFile(path, 'yaml');
  return { path, body: checkCustomObject(document) };
}

/**
 * `resource` and `resource_as_yaml_file`: exactly one of them gives the body. The file is read
 * and checked while the arguments are validated, so a bad file is refused before any request.
 */
export function bodyArgs(purpose: string) {
  return {
    resource: z
      .record(z.string(), z.unknown())
      .transform((doc, ctx): CustomObject => {
        try {
          return checkCustomObject(doc);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: `${OBJECT_WORDS}; ${reasonOf(err)}`, input: doc });
          return z.NEVER;
        }
      })
      .nullable()
      .default(null)
      .describe(
        `The custom object ${purpose}, as a mapping with apiVersion <group>/<version> and kind. Exactly one of resource and resource_as_yaml_file.`,
      ),
    resource_as_yaml_file: z
      .string()
      .transform((path, ctx): ObjectFile => {
        try {
          return loadObjectFile(path);
        } catch (err) {
          ctx.addIssue({
            code: 'custom',
            message: `the path of a YAML or JSON file holding one ${OBJECT_WORDS.slice(2)}; ${reasonOf(err)}`,
            input: path,
          });
          return z.NEVER;
        }
      })
      .nullable()
      .default(null)
      .describe(
        `Path of a YAML or JSON file (read as YAML, whatever its extension) holding the custom object ${purpose}. Exactly one of resource and resource_as_yaml_file.`,
      ),
  };
}

type BodyArg = 'resource' | 'resource_as_yaml_file';

/** The validated arguments the body checks look at. */
export interface BodyArgsOutput {
  group: string;
  version: string;
  resource: CustomObject | null;
  resource_as_yaml_file: ObjectFile | null;
  name?: string;
  ns?: string;
  force?: boolean;
}

/** The custom object the arguments give, and which argument gave it. */
export function givenBody(args: BodyArgsOutput): { argument: BodyArg; body: CustomObject; where: string } {
  if (args.resource) return { argument: 'resource', body: args.resource, where: 'resource' };
  const file = args.resource_as_yaml_file;
  if (!file) throw new TypeError('neither resource nor resource_as_yaml_file: the check hook was skipped');
  return { argument: 'resource_as_yaml_file', body: file.body, where: `the file '${file.path}'` };
}

/**
 * The cross-argument rules of the activities with a body (a `check` hook): exactly one of
 * resource and resource_as_yaml_file; its apiVersion is `group/version`; its metadata.name
 * and metadata.namespace, when present, agree with `name` and `ns`; a replace without force
 * names the resourceVersion it replaces (the server refuses an update without one).
 */
export function checkBodyArgs<K extends string>(
  args: BodyArgsOutput,
  rules: { create?: boolean; replace?: boolean } = {},
): ArgumentProblem<K> | undefined {
  const problem = bodyProblem(args, rules);
  return problem as ArgumentProblem<K> | undefined;
}

function bodyProblem(
  args: BodyArgsOutput,
  rules: { create?: boolean; replace?: boolean },
): ArgumentProblem | undefined {
  if (args.resource && args.resource_as_yaml_file) {
    return {
      argument: 'resource',
      accepted: 'either resource or resource_as_yaml_file, not both',
      value: args.resource,
    };
  }
  if (!args.resource && !args.resource_as_yaml_file) {
    return {
      argument: 'resource',
      accepted:
        'the custom object, as resource (a mapping) or as resource_as_yaml_file (the path of a YAML or JSON file): exactly one of them',
      value: undefined,
    };
  }
  const { argument, body, where } = givenBody(args);
  const shown = argument === 'resource' ? body : args.resource_as_yaml_file?.path;
  const apiVersion = `${args.group}/${args.version}`;
  if (body.apiVersion !== apiVersion) {
    return {
      argument,
      accepted: `a custom object of apiVersion '${apiVersion}' (the group and version arguments), not '${body.apiVersion}'`,
      value: shown,
    };
  }
  const declaredName = body.metadata?.name;
  if (args.name !== undefined && declaredName && declaredName !== args.name) {
    return {
      argument,
      accepted: `a custom object named '${args.name}' (the name argument) or without metadata.name, not '${declaredName}'`,
      value: shown,
    };
  }
  if (rules.create && !declaredName && !body.metadata?.generateName) {
    return {
      argument,
      accepted: 'a custom object with metadata.name (or metadata.generateName)',
      value: shown,
    };
  }
  const declaredNs = body.metadata?.namespace;
  if (args.ns !== undefined && declaredNs && declaredNs !== args.ns) {
    return {
      argument: 'ns',
      accepted: `'${declaredNs}', the namespace that ${where} gives in metadata.namespace (or a custom object without metadata.namespace)`,
    };
  }
  if (rules.replace && !args.force && !body.metadata?.resourceVersion) {
    return {
      argument: 'force',
      accepted: `true, or a custom object in ${where} with metadata.resourceVersion: without force, a replace applies only to the version it names`,
    };
  }
  return undefined;
}

/** A copy of the body with the object's name and namespace set from the arguments. */
export function addressed(body: CustomObject, where: { name?: string; namespace?: string }): CustomObject {
  return {
    ...body,
    metadata: {
      ...body.metadata,
      ...(where.name ? { name: where.name } : {}),
      ...(where.namespace ? { namespace: where.namespace } : {}),
    },
  };
}

/** The body of an apply: named and placed by the arguments, without managedFields (refused by the server). */
export function applyBody(given: CustomObject, name: string, namespace: string | undefined): CustomObject {
  const body = addressed(given, { name, namespace });
  if (body.metadata) {
    const { managedFields: _managed, ...metadata } = body.metadata;
    body.metadata = metadata;
  }
  return body;
}

// ---------------------------------------------------------------------------------------------
// The resource addressed, and its API
// ---------------------------------------------------------------------------------------------

export interface Target {
  group: string;
  version: string;
  plural: string;
  /** Absent for the cluster-wide variants. */
  namespace?: string;
}

export function targetOf(args: { group: string; version: string; plural: string; ns?: string }): Target {
  const { group, version, plural, ns } = args;
  return ns === undefined ? { group, version, plural } : { group, version, plural, namespace: ns };
}

/** `widgets.example.com/v1`: the resource, as a person reads it. */
export function resourceName(t: Target): string {
  return `${t.plural}.${t.group}/${t.version}`;
}

/** "custom object 'w1' of widgets.example.com/v1 in namespace 'ns'" (or "cluster-wide"). */
export function describeObject(t: Target, name: string | undefined): string {
  const where = t.namespace === undefined ? 'cluster-wide' : `in namespace '${t.namespace}'`;
  return `${name === undefined ? 'custom objects' : `custom object '${name}'`} of ${resourceName(t)} ${where}`;
}

/** A page of a list, as the server sends it (the JSON, not a typed model). */
export interface ObjectList {
  apiVersion?: string;
  kind?: string;
  metadata?: { continue?: string; resourceVersion?: string; remainingItemCount?: number };
  items?: unknown[];
  [key: string]: unknown;
}

/** Pages of one list merged into the list object a single request would have returned. */
export function mergeListPages(pages: readonly ObjectList[]): ObjectList {
  const [first] = pages;
  if (!first) return { items: [] };
  const { continue: _continue, remainingItemCount: _remaining, ...metadata } = first.metadata ?? {};
  return { ...first, metadata, items: pages.flatMap((page) => page.items ?? []) };
}

const LIST_PAGE = 500;

/**
 * The custom objects API over one resource: the namespaced paths when the target has a
 * namespace, the cluster-wide ones otherwise. Mutations carry `dryRun: All` in plan mode.
 */
export class CustomObjects {
  readonly api: CustomObjectsApi;

  constructor(
    secrets: Record<string, unknown>,
    readonly target: Target,
  ) {
    this.api = createClusterClient(secrets).kubeConfig.makeApiClient(CustomObjectsApi);
  }

  private get where() {
    const { group, version, plural } = this.target;
    return { group, version, plural };
  }

  create(body: CustomObject, ctx: Pick<ActivityContext, 'dryRun'>): Promise<CustomObject> {
    const params = { ...this.where, body, fieldValidation: 'Strict', ...dryRunParam(ctx) };
    const ns = this.target.namespace;
    return ns === undefined
      ? this.api.createClusterCustomObject(params)
      : this.api.createNamespacedCustomObject({ ...params, namespace: ns });
  }

  get(name: string): Promise<CustomObject> {
    const ns = this.target.namespace;
    return withReadRetry(() =>
      ns === undefined
        ? this.api.getClusterCustomObject({ ...this.where, name })
        : this.api.getNamespacedCustomObject({ ...this.where, namespace: ns, name }),
    );
  }

  /** Every object, page by page (each page with retries), as one list object. */
  async list(): Promise<ObjectList> {
    const ns = this.target.namespace;
    const pages: ObjectList[] = [];
    let token: string | undefined;
    do {
      const page = { limit: LIST_PAGE, ...(token ? { _continue: token } : {}) };
      const result: ObjectList = await withReadRetry(() =>
        ns === undefined
          ? this.api.listClusterCustomObject({ ...this.where, ...page })
          : this.api.listNamespacedCustomObject({ ...this.where, namespace: ns, ...page }),
      );
      pages.push(result);
      token = result.metadata?.continue || undefined;
    } while (token);
    return mergeListPages(pages);
  }

  delete(name: string, ctx: Pick<ActivityContext, 'dryRun'>): Promise<unknown> {
    const params = { ...this.where, name, ...dryRunParam(ctx) };
    const ns = this.target.namespace;
    return ns === undefined
      ? this.api.deleteClusterCustomObject(params)
      : this.api.deleteNamespacedCustomObject({ ...params, namespace: ns });
  }

  /** A server-side apply by the field manager `chaoskit`; `force` takes over others' fields. */
  apply(
    name: string,
    body: CustomObject,
    force: boolean,
    ctx: Pick<ActivityContext, 'dryRun'>,
  ): Promise<CustomObject> {
    const params = {
      ...this.where,
      name,
      body,
      fieldManager: FIELD_MANAGER,
      fieldValidation: 'Strict',
      ...(force ? { force: true } : {}),
      ...dryRunParam(ctx),
    };
    const options = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);
    const ns = this.target.namespace;
    return ns === undefined
      ? this.api.patchClusterCustomObject(params, options)
      : this.api.patchNamespacedCustomObject({ ...params, namespace: ns }, options);
  }

  /** A PUT of the whole object. */
  replace(name: string, body: CustomObject, ctx: Pick<ActivityContext, 'dryRun'>): Promise<CustomObject> {
    const params = { ...this.where, name, body, fieldValidation: 'Strict', ...dryRunParam(ctx) };
    const ns = this.target.namespace;
    return ns === undefined
      ? this.api.replaceClusterCustomObject(params)
      : this.api.replaceNamespacedCustomObject({ ...params, namespace: ns });
  }

  /** Discovery of the group version (readable by every authenticated user). */
  async discover(): Promise<Discovery> {
    try {
      const list = await withReadRetry(() =>
        this.api.getAPIResources({ group: this.target.group, version: this.target.version }),
      );
      return { served: true, resources: list.resources ?? [] };
    } catch (err) {
      const apiError = toApiError(err);
      if (isApiError(apiError, 'NotFound')) return { served: false };
      return { error: apiError instanceof Error ? apiError.message : String(apiError) };
    }
  }
}

/** What discovery said of the target's group version. */
export type Discovery =
  | { served: true; resources: readonly Pick<V1APIResource, 'name' | 'namespaced'>[] }
  | { served: false }
  | { error: string };

// ---------------------------------------------------------------------------------------------
// Failures
// ---------------------------------------------------------------------------------------------

export type Verb = 'create' | 'delete' | 'get' | 'list' | 'patch' | 'replace';

/** One request of an activity, for its failure message. */
export interface Operation {
  verb: Verb;
  target: Target;
  name?: string;
  /** The two variants of the activity, for a hint when the wrong one was used. */
  variants: { namespaced: string; cluster: string };
}

function failedTo(op: Operation): string {
  return `failed to ${op.verb} ${describeObject(op.target, op.name)}`;
}

interface StatusBody {
  reason?: string;
  message?: string;
  details?: {
    name?: string;
    kind?: string;
    causes?: Array<{ reason?: string; message?: string; field?: string }>;
  };
}

function statusOf(apiError: ApiError): StatusBody {
  return isMapping(apiError.body) ? (apiError.body as StatusBody) : {};
}

function serverSaid(apiError: ApiError): string {
  return `${apiError.code} (${apiError.status}): ${apiError.serverMessage || `HTTP ${apiError.status}`}`.trim();
}

/**
 * Why a 404 came back when the path itself was not found (the server's plain "404 page not
 * found", not a Status about the object), from what discovery says of the group version.
 * Undefined when discovery does not explain it.
 */
export function explainMissingResource(op: Operation, discovery: Discovery): string | undefined {
  const { group, version, plural, namespace } = op.target;
  if ('error' in discovery) return undefined;
  if (!discovery.served) {
    return `the custom resource definition is missing: the cluster serves no API ${group}/${version} (install the definition of ${plural}.${group}, and check that it is established and serves version ${version})`;
  }
  const resources = discovery.resources.filter((r) => !r.name.includes('/'));
  const found = resources.find((r) => r.name === plural);
  if (!found) {
    const served = resources.map((r) => r.name).sort();
    return `the custom resource definition is missing: ${group}/${version} serves no resource '${plural}' (it serves ${served.length ? served.join(', ') : 'none'}; install the definition of ${plural}.${group}, or check the plural)`;
  }
  if (found.namespaced && namespace === undefined) {
    return `${plural}.${group} is namespaced: use ${op.variants.namespaced} with ns, not ${op.variants.cluster}`;
  }
  if (!found.namespaced && namespace !== undefined) {
    return `${plural}.${group} is cluster-scoped: use ${op.variants.cluster}, which takes no ns, not ${op.variants.namespaced}`;
  }
  return undefined;
}

async function notFound(apiError: ApiError, op: Operation, objects: CustomObjects): Promise<ActivityFailed> {
  const status = statusOf(apiError);
  const prefix = failedTo(op);
  if (status.reason === 'NotFound' && status.details?.kind === 'namespaces') {
    return new ActivityFailed(
      `${prefix}: the namespace '${status.details.name ?? op.target.namespace}' does not exist`,
      {
        cause: apiError,
      },
    );
  }
  if (status.reason === 'NotFound' && status.details?.name) {
    return new ActivityFailed(`${prefix}: it does not exist (${apiError.serverMessage})`, {
      cause: apiError,
    });
  }
  const discovery = await objects.discover();
  const explained = explainMissingResource(op, discovery);
  if (explained) return new ActivityFailed(`${prefix}: ${explained}`, { cause: apiError });
  const more =
    'error' in discovery
      ? ` (discovery of ${op.target.group}/${op.target.version} failed too: ${discovery.error})`
      : '';
  return new ActivityFailed(`${prefix}: ${serverSaid(apiError)}${more}`, { cause: apiError });
}

/**
 * Turns what a request threw into the error the activity raises: ActivityFailed saying what
 * went wrong for API errors (a missing definition, namespace or object is told apart),
 * anything else (no credentials, a dropped connection) unchanged.
 */
export async function failure(err: unknown, op: Operation, objects: CustomObjects): Promise<Error> {
  const apiError = toApiError(err);
  if (!isApiError(apiError)) return apiError instanceof Error ? apiError : new Error(String(apiError));
  if (apiError.status === 404) return notFound(apiError, op, objects);
  return new ActivityFailed(`${failedTo(op)}: ${serverSaid(apiError)}`, { cause: apiError });
}

/** Whether the error is a 409 (an existing object, a stale version, an apply conflict). */
export function isConflict(err: unknown): boolean {
  const apiError = toApiError(err);
  return isApiError(apiError) && apiError.status === 409;
}

/**
 * Whether the error is the 409 of an update whose resourceVersion is not the current one
 * (and not another conflict, such as a uid precondition).
 */
export function isStaleVersion(err: unknown): boolean {
  const apiError = toApiError(err);
  return isApiError(apiError) && apiError.status === 409 && /has been modified/.test(apiError.serverMessage);
}

/** The field manager conflicts of a refused server-side apply: manager → fields. */
export function applyConflicts(err: unknown): Map<string, string[]> {
  const apiError = toApiError(err);
  const conflicts = new Map<string, string[]>();
  if (!isApiError(apiError)) return conflicts;
  for (const cause of statusOf(apiError).details?.causes ?? []) {
    if (cause.reason !== 'FieldManagerConflict') continue;
    const manager = /conflict with "([^"]*)"/.exec(cause.message ?? '')?.[1] ?? 'another field manager';
    const fields = conflicts.get(manager) ?? [];
    if (cause.field) fields.push(cause.field);
    conflicts.set(manager, fields);
  }
  return conflicts;
}

/** The ActivityFailed of a server-side apply refused for fields owned by other managers. */
export function applyConflictFailure(err: unknown, op: Operation): ActivityFailed {
  const apiError = toApiError(err) as ApiError;
  const conflicts = applyConflicts(apiError);
  const owned = [...conflicts]
    .map(([manager, fields]) => `${fields.join(', ') || 'some fields'} owned by field manager "${manager}"`)
    .join('; ');
  const detail = owned || apiError.serverMessage;
  return new ActivityFailed(
    `${failedTo(op)}: conflict with other field managers: ${detail}; nothing was changed (set force: true to take these fields over as field manager "${FIELD_MANAGER}")`,
    { cause: apiError },
  );
}

/** The ActivityFailed of a create refused because the object exists (409 AlreadyExists). */
export function alreadyExistsFailure(err: unknown, op: Operation, alternatives: string): ActivityFailed {
  const apiError = toApiError(err) as ApiError;
  return new ActivityFailed(
    `${failedTo(op)}: it already exists (${apiError.serverMessage}); nothing was created (delete it first, or change it with ${alternatives})`,
    { cause: apiError },
  );
}
