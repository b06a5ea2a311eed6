// Who may pull the halt lever and who may release it (D159): rights of their own, which RBAC
// alone cannot give, as the lever is a ConfigMap and whoever may write ConfigMaps in its
// namespace could move it. A ValidatingAdmissionPolicy holds it instead: setting chaoskit-halt
// (in any namespace) takes `create` on halts.chaoskit.io there, lifting it `delete` — resources
// no API serves, granted by RBAC and asked by the policy of the API server's authorizer — and the
// lever's `by` must be the identity the API server knows the request as. `chaoskit rbac --halt`
// prints it with the ClusterRoles to bind, and lets every identity read the cluster's lever.

import { CLUSTER_HALT_NAMESPACE, HALT_NAME, HALT_RULES } from './halt.js';

export const HALT_GROUP = 'chaoskit.io';
export const HALT_RESOURCE = 'halts';

const check = (verb: string) =>
  `authorizer.group('${HALT_GROUP}').resource('${HALT_RESOURCE}').namespace(request.namespace).check('${verb}').allowed()`;

/** The policy, its binding, the halter's and resumer's ClusterRoles, and the cluster lever's readers. */
export function leverManifests(): Array<Record<string, unknown>> {
  const rbac = 'rbac.authorization.k8s.io/v1';
  const labels = { 'app.kubernetes.io/managed-by': 'chaoskit' };
  const deleting = "request.operation == 'DELETE'";
  // Whether the policy is in force, which halt says (bound cluster-wide: RBAC grants a
  // cluster-scoped resource through a ClusterRoleBinding only).
  const policyRead = {
    apiGroups: ['admissionregistration.k8s.io'],
    resources: ['validatingadmissionpolicies', 'validatingadmissionpolicybindings'],
    resourceNames: [HALT_NAME],
    verbs: ['get'],
  };
  return [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: HALT_NAME, labels },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          resourceRules: [
            {
              apiGroups: [''],
              apiVersions: ['v1'],
              operations: ['CREATE', 'UPDATE', 'DELETE'],
              resources: ['configmaps'],
            },
          ],
        },
        matchConditions: [{ name: 'the-halt-lever', expression: `request.name == '${HALT_NAME}'` }],
        validations: [
          {
            expression: `${deleting} || ${check('create')}`,
            messageExpression: `'only who may halt chaoskit (create ${HALT_RESOURCE}.${HALT_GROUP} in namespace ' + request.namespace + ') may set the halt lever'`,
            reason: 'Forbidden',
          },
          {
            // A namespace being deleted takes its ConfigMaps with it, the lever too.
            expression: `!(${deleting}) || ${check('delete')} || (namespaceObject != null && has(namespaceObject.metadata.deletionTimestamp))`,
            messageExpression: `'only who may resume chaoskit (delete ${HALT_RESOURCE}.${HALT_GROUP} in namespace ' + request.namespace + ') may lift the halt lever'`,
            reason: 'Forbidden',
          },
          {
            expression: `${deleting} || (has(object.data) && 'by' in object.data && object.data.by == request.userInfo.username)`,
            messageExpression:
              "'the halt lever says who set it: its data.by must be ' + request.userInfo.username",
            reason: 'Invalid',
          },
        ],
      },
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: HALT_NAME, labels },
      spec: { policyName: HALT_NAME, validationActions: ['Deny'] },
    },
    {
      apiVersion: rbac,
      kind: 'ClusterRole',
      metadata: { name: 'chaoskit-halter', labels },
      rules: [
        { apiGroups: [HALT_GROUP], resources: [HALT_RESOURCE], verbs: ['create'] },
        { apiGroups: [''], resources: ['configmaps'], verbs: ['create'] },
        { apiGroups: [''], resources: ['configmaps'], resourceNames: [HALT_NAME], verbs: ['get', 'update'] },
        policyRead,
      ],
    },
    {
      apiVersion: rbac,
      kind: 'ClusterRole',
      metadata: { name: 'chaoskit-resumer', labels },
      rules: [
        { apiGroups: [HALT_GROUP], resources: [HALT_RESOURCE], verbs: ['delete'] },
        { apiGroups: [''], resources: ['configmaps'], resourceNames: [HALT_NAME], verbs: ['delete'] },
        policyRead,
      ],
    },
    {
      apiVersion: rbac,
      kind: 'Role',
      metadata: { name: `${HALT_NAME}-reader`, namespace: CLUSTER_HALT_NAMESPACE, labels },
      rules: HALT_RULES.map((rule) => ({ ...rule })),
    },
    {
      apiVersion: rbac,
      kind: 'RoleBinding',
      metadata: { name: `${HALT_NAME}-reader`, namespace: CLUSTER_HALT_NAMESPACE, labels },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: `${HALT_NAME}-reader` },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:authenticated' }],
    },
  ];
}

/** What `chaoskit rbac --halt` prints above the manifests. */
export const LEVER_NOTE = [
  '# The halt lever (chaoskit halt, chaoskit resume): who may pull it and who may release it.',
  `# The ValidatingAdmissionPolicy ${HALT_NAME} lets only identities with create ${HALT_RESOURCE}.${HALT_GROUP} set`,
  `# a ConfigMap ${HALT_NAME} (in ${CLUSTER_HALT_NAMESPACE}: the cluster's lever; elsewhere: one ledger namespace's),`,
  `# only those with delete ${HALT_RESOURCE}.${HALT_GROUP} lift it, and makes its data.by the identity that set it.`,
  '# Bind chaoskit-halter and chaoskit-resumer with a RoleBinding in kube-system (the cluster lever), in a',
  '# ledger namespace (its lever), or with a ClusterRoleBinding (every lever). chaoskit-halter may also',
  '# create other ConfigMaps where it is bound: RBAC cannot name an object to be created.',
  `# Every identity may read the cluster's lever (Role ${HALT_NAME}-reader in ${CLUSTER_HALT_NAMESPACE}): runs watch it.`,
];
