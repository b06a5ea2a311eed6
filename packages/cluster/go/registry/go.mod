// Wrapper module: builds go-containerregistry's in-memory registry (cmd/registry), a real
// registry that tests push the runner image to (chaoskit image build --push).
module chaoskit.local/registry

go 1.25.0

tool github.com/google/go-containerregistry/cmd/registry

require github.com/google/go-containerregistry v0.22.1 // indirect
