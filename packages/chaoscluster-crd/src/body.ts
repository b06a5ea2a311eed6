// The custom object an activity sends, given as `resource` or read from
// `resource_as_yaml_file`: what makes a document one custom object, the rules that tie it to the
// other arguments (group, version, name, ns, force), and the body each request sends.

import { type ArgumentProblem, DocumentFileError, readDocumentFile } from '@chaoskit/core';

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

/** Reads the file (YAML, which JSON is too, whatever the extension) and checks its object. */
export function loadObjectFile(path: string): ObjectFile {
  const { document } = readDocumentFile(path, 'yaml');
  return { path, body: checkCustomObject(document) };
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
