// Custom resources a test works with: a definition of its own, and Istio VirtualServices (whose
// definition the local cluster installs).
import {
  ApiextensionsV1Api,
  CustomObjectsApi,
  type KubeConfig,
  type V1JSONSchemaProps,
} from '@kubernetes/client-node';
import { customResourceDefinition } from '../custom-resource.js';
import { until } from './until.js';

export interface CrdNames {
  group: string;
  plural: string;
  kind: string;
  version?: string;
}

/**
 * The namespaced definition of `plural`.`group` (one version, `v1` unless told, its `spec` an
 * object of `specProperties`), made unless there already, once it is established.
 */
export async function installCrd(
  kc: KubeConfig,
  { group, plural, kind, version = 'v1' }: CrdNames,
  specProperties: Record<string, V1JSONSchemaProps>,
): Promise<void> {
  const ext = kc.makeApiClient(ApiextensionsV1Api);
  const name = `${plural}.${group}`;
  await ext
    .createCustomResourceDefinition({
      body: customResourceDefinition({
        group,
        version,
        scope: 'Namespaced',
        plural,
        kind,
        spec: specProperties,
      }),
    })
    .catch((err: { code?: number }) => {
      if (err.code !== 409) throw err;
    });
  await until(`the ${name} definition`, async () =>
    (await ext.readCustomResourceDefinition({ name })).status?.conditions?.some(
      (c) => c.type === 'Established' && c.status === 'True',
    ),
  );
}

/** Creates VirtualService `name` (networking.istio.io/v1) of `namespace` with `spec`. */
export async function createVirtualService(
  kc: KubeConfig,
  namespace: string,
  name: string,
  spec: Record<string, unknown>,
): Promise<unknown> {
  return kc.makeApiClient(CustomObjectsApi).createNamespacedCustomObject({
    group: 'networking.istio.io',
    version: 'v1',
    namespace,
    plural: 'virtualservices',
    body: { apiVersion: 'networking.istio.io/v1', kind: 'VirtualService', metadata: { name }, spec },
  });
}
