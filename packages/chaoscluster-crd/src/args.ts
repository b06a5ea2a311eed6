// The arguments every crd activity shares, declared once: which resource (group, version,
// plural, in 0.25.1 order), the object's name, force, and the body given as `resource` or
// `resource_as_yaml_file` — read and checked while the arguments are validated, so a bad file
// is refused before any request.

import { DocumentFileError, kubernetesName, namespaceArg, z } from '@chaoskit/core';
import { type CustomObject, checkCustomObject, loadObjectFile, type ObjectFile } from './body.js';

/** `group`, `version`, `plural`: which resource, as every crd activity takes them (in 0.25.1 order). */
export function resourceTypeArgs() {
  return {
    group: kubernetesName('an API group such as "stable.example.com"').describe(
      'API group of the custom resource definition (its spec.group), e.g. "chaos-mesh.org".',
    ),
    version: kubernetesName('an API version such as "v1" or "v1alpha1"', 'label').describe(
      'Version of the API group, one the definition serves, e.g. "v1alpha1".',
    ),
    plural: kubernetesName('the plural name of a resource such as "podchaos"', 'label').describe(
      'Plural name of the resource (the definition\'s spec.names.plural), e.g. "podchaos".',
    ),
  };
}

/** `name`: the object's own name. */
export function objectNameArg(doc = 'Name of the custom object.') {
  return kubernetesName('an object name').describe(doc);
}

/** `force` of patch and replace; the meaning differs, so each gives its own words. */
export function forceArg(doc: string) {
  return z.boolean().default(false).describe(doc);
}

const OBJECT_WORDS = 'a custom object mapping with apiVersion (<group>/<version>) and kind';

function reasonOf(err: unknown): string {
  return err instanceof DocumentFileError ? err.message : String((err as Error)?.message ?? err);
}

/** `resource` and `resource_as_yaml_file`: exactly one of them gives the body (see checkBodyArgs). */
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

/**
 * The arguments of patch and replace, whose words are each one's own: which resource, the name
 * of the existing object, its namespace (not in the cluster-scoped variant), force and the body.
 */
export function changeArgs(words: { verb: string; force: string; body: string }) {
  const common = () => ({
    ...resourceTypeArgs(),
    name: objectNameArg(`Name of the custom object to ${words.verb}.`),
  });
  return {
    namespaced: {
      ...common(),
      ns: namespaceArg('Namespace of the object; a namespace in resource must be this one.'),
      force: forceArg(words.force),
      ...bodyArgs(words.body),
    },
    cluster: { ...common(), force: forceArg(words.force), ...bodyArgs(words.body) },
  };
}
