// The one list of cluster providers: the type, the CLIs' choices and the conformance kit's
// are all derived from it.
export const PROVIDER_NAMES = ['local', 'k3s', 'kubeconfig'] as const;

export type ProviderName = (typeof PROVIDER_NAMES)[number];
