#!/usr/bin/env bash
# Runs the Node interop tests (TypeScript SDK, MCP Inspector CLI) against the
# built rigor-mcp. Installs the pinned npm packages on the first run (and
# when package-lock.json changes). Works from any directory.
set -euo pipefail
here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd -- "$here/../.." && pwd)"
gateway="${RIGOR_MCP_BIN:-$repo/target/debug/rigor-mcp}"
if [[ ! -x "$gateway" ]]; then
    echo "run.sh: $gateway not found; run \`cargo build --workspace\` in $repo first" >&2
    exit 1
fi
cd "$here"
stamp=node_modules/.package-lock.sha256
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [[ ! -d node_modules || "$(cat "$stamp" 2>/dev/null || true)" != "$want" ]]; then
    echo "run.sh: installing the pinned npm packages" >&2
    npm ci --no-audit --no-fund --loglevel=error >&2
    echo "$want" > "$stamp"
fi
exec node --test "$@"
