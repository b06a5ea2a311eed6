import type { ProviderName } from './provider-names.js';

export type { ProviderName };

/** The references of the images every real node holds. */
export interface NodeImages {
  /** The pod sandbox: chaoskit's pause program. */
  pause: string;
  /** A static busybox (Debian's busybox-static): sh, httpd, nc, wget, sleep and the rest. */
  toolbox: string;
  /** The demo's web app: HTTP on 8080 and gRPC health on 9090 (`webapp serve`), and its client (`webapp load`). */
  webapp: string;
}

export interface NodeSpec {
  name?: string;
  labels?: Record<string, string>;
}

export interface MeshOptions {
  /** Apply the mesh CRDs (Istio's VirtualService and friends). Default true (local, k3s). */
  enabled?: boolean;
  /**
   * A YAML file of CustomResourceDefinitions; default $CHAOSKIT_MESH_CRDS, else Istio's CRDs of
   * `ISTIO_API_VERSION`, fetched once through the Go module proxy.
   */
  crdsPath?: string;
  /**
   * Also run a real istiod, with its validating webhook registered, serving xDS to proxyless
   * gRPC clients. local: pilot-discovery built from Go, on 127.0.0.1; k3s: Istio's pilot image
   * as a Deployment, its xDS port published on the host. Default false (CRDs only).
   */
  istiod?: boolean;
  /** k3s: the istiod image (default `docker.io/istio/pilot` of the CRDs' Istio release). */
  istiodImage?: string;
}

export interface StartOptions {
  provider?: ProviderName;
  /** local: how many kwok nodes (default 2), or their names and labels. */
  nodes?: number | NodeSpec[];
  /**
   * local: how many real nodes (default 0): a kubelet, containerd, runc, CNI bridge, kube-proxy
   * and kube-router each, in network namespaces of their own, running pods from `images`. Where
   * the machine cannot run them (see README), the cluster starts kwok-only and says why.
   */
  realNodes?: number;
  /** Labels put on every kwok node (local). */
  nodeLabels?: Record<string, string>;
  /** `'istiod'` is short for `{ istiod: true }`. */
  mesh?: MeshOptions | boolean | 'istiod';
  /** local: RBAC authorization (default true); false means AlwaysAllow. */
  rbac?: boolean;
  /** local: extra kube-apiserver flags, e.g. `--max-requests-inflight=1` to test throttling. */
  apiserverArgs?: string[];
  /** kubeconfig: the file (default: KUBECONFIG, then ~/.kube/config). */
  kubeconfigPath?: string;
  /** kubeconfig: the context; required, so a test run never lands on a cluster by accident. */
  context?: string;
  /** k3s: the image (default rancher/k3s matching the local provider's Kubernetes minor). */
  image?: string;
  /** Where progress lines go (binary builds, waiting). Default: stderr. */
  progress?: (line: string) => void;
}

export interface Cluster extends AsyncDisposable {
  readonly provider: ProviderName;
  /** A kubeconfig (YAML text) for an admin of this cluster. */
  readonly kubeconfig: string;
  /** The same kubeconfig, written to a file that lives as long as the cluster. */
  readonly kubeconfigPath: string;
  readonly context: string;
  readonly server: string;
  /** The mesh CRDs applied, when a mesh was asked for. */
  readonly mesh?: { source: string; crds: string[] };
  /** The running istiod, when started with `mesh: 'istiod'` (local, k3s). */
  readonly istiod?: IstiodEndpoint;
  stop(): Promise<void>;
}

export interface LocalCredentials {
  server: string;
  /** The apiserver's serving certificate (self-signed; it is its own CA). */
  caFile: string;
  /** Static bearer token of a user in system:masters. */
  token: string;
  /** Client certificate and key of a user in system:masters. */
  clientCertFile: string;
  clientKeyFile: string;
  /** Static bearer token of a user with no RBAC bindings at all. */
  unprivilegedToken: string;
}

export interface LocalCluster extends Cluster {
  readonly provider: 'local';
  /** The temporary directory holding data, logs and credentials; removed by stop(). */
  readonly dir: string;
  readonly credentials: LocalCredentials;
  /** JSON-lines audit log of every request the apiserver served (level Metadata). */
  readonly auditLogPath: string;
  /** etcd's client URL (plain http on loopback, no authentication): for tests that compact it. */
  readonly etcdUrl: string;
  readonly nodes: string[];
  readonly kubernetesVersion: string;
  /** The file every kwok pod's logs are served from (CRI format); see writePodLog. */
  readonly podLogFile: string;
  readonly previousPodLogFile: string;
  readonly kubectl: string;
  /** The real nodes' names (labelled and tainted `chaoskit.io/real-node=true`); empty without them. */
  readonly realNodes: string[];
  /** The images every real node holds (imagePullPolicy IfNotPresent), when there are real nodes. */
  readonly images?: NodeImages;
  /** Why real nodes were asked for and could not run on this machine. */
  readonly realNodesUnavailable?: string;
  /**
   * Imports an image archive (OCI or docker format: `chaoskit image build` writes the runner's)
   * into every real node's containerd, for pods that name it with imagePullPolicy IfNotPresent;
   * resolves once every real node reports it among its images. Refused on a cluster without
   * real nodes.
   */
  importImage(archive: string): Promise<void>;
  readonly pids: number[];
  readonly componentLogs: Record<string, string>;
  /**
   * Stops kube-apiserver and starts it again (same data, ports and flags) after `downMs`;
   * resolves when it is ready again.
   */
  restartApiserver(downMs?: number): Promise<void>;
  /** The audit user names of this cluster's identities. */
  readonly users: { token: string; clientCert: string; unprivileged: string; components: string };
  /** The running istiod, when started with `mesh: 'istiod'`. */
  readonly istiod?: IstiodInfo;
}

export interface XdsBootstrapOptions {
  /** The client's namespace: the one whose ServiceEntries, DestinationRules and routes it sees. */
  namespace: string;
  /** The workload name in the node id (default `chaoskit-client`). */
  name?: string;
  /** The IP in the node id; only an identity, never dialled (default 127.0.0.2). */
  ip?: string;
  /** Extra node metadata. */
  metadata?: Record<string, string>;
}

/** gRPC's xDS bootstrap (GRPC_XDS_BOOTSTRAP_CONFIG), as Istio's agent writes it for proxyless clients. */
export interface XdsBootstrap {
  xds_servers: Array<{
    server_uri: string;
    channel_creds: Array<{ type: string }>;
    server_features: string[];
  }>;
  node: { id: string; metadata: Record<string, string>; locality: Record<string, never> };
}

/** A running istiod as its clients reach it: what every provider that runs one gives. */
export interface IstiodEndpoint {
  /** local: the istio.io/istio module version pilot-discovery was built from; k3s: the image. */
  readonly version: string;
  /** istio.io/api version (its CRDs were applied unless mesh.crdsPath was given). */
  readonly apiVersion: string;
  readonly namespace: string;
  /** Plaintext xDS (ADS) gRPC address, host:port reachable from this machine; no authentication. */
  readonly xdsAddress: string;
  /** From the start of istiod's set-up to ready (xDS answered, webhook refusing). */
  readonly readyMs: number;
  /** A bootstrap for a proxyless gRPC client of this istiod. */
  xdsBootstrap(options: XdsBootstrapOptions): XdsBootstrap;
}

/** The local provider's istiod: a process on this machine, with its files. */
export interface IstiodInfo extends IstiodEndpoint {
  /** istiod's HTTP debug address (GET /ready, /debug/...). */
  readonly httpAddress: string;
  /** Where the apiserver sends admission reviews (the ValidatingWebhookConfiguration's url). */
  readonly webhookUrl: string;
  /** The CA of the webhook's serving certificate (its caBundle). */
  readonly webhookCaFile: string;
  readonly webhookConfigurationName: string;
  readonly meshConfigPath: string;
  readonly crdsPath: string;
  readonly logFile: string;
}
