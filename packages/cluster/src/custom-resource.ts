import type { V1CustomResourceDefinition, V1JSONSchemaProps } from '@kubernetes/client-node';

/** A custom resource of a test's own: one version, served and stored, with a spec of `spec`. */
export interface CustomResourceType {
  group: string;
  version: string;
  scope: 'Namespaced' | 'Cluster';
  plural: string;
  /** The object kind; the singular name is its lower case, the list kind `<kind>List`. */
  kind: string;
  /** The properties of the objects' spec (a structural schema: the server prunes the rest). */
  spec: Record<string, V1JSONSchemaProps>;
  labels?: Record<string, string>;
}

/** The definition of `type`, named `<plural>.<group>` as the server requires. */
export function customResourceDefinition(type: CustomResourceType): V1CustomResourceDefinition {
  const { group, version, scope, plural, kind, spec, labels } = type;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}`, ...(labels ? { labels } : {}) },
    spec: {
      group,
      scope,
      names: { plural, kind, singular: kind.toLowerCase(), listKind: `${kind}List` },
      versions: [
        {
          name: version,
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: { spec: { type: 'object', properties: spec } },
            },
          },
        },
      ],
    },
  };
}
