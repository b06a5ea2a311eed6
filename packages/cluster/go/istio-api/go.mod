// Wrapper module: pins istio.io/api, whose kubernetes/customresourcedefinitions.gen.yaml holds
// Istio's CustomResourceDefinitions with Istio's own validation schemas. go.sum checks the download.
module chaoskit.local/istio-api

go 1.24.0

require istio.io/api v1.31.1
