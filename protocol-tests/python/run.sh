#!/usr/bin/env bash
# Run the MCP Python SDK client tests against the built rigor-mcp gateway.
#
#   protocol-tests/python/run.sh [PYTEST ARGS...]
#
# Works from any directory. Environment:
#   RIGOR_VENV     virtualenv to create/use (default: <repo>/target/python-venv)
#   RIGOR_MCP_BIN  gateway binary (default: <repo>/target/debug/rigor-mcp)
#   PYTHON         interpreter that creates the venv (default: python3.11, else python3)
set -euo pipefail

here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd -- "$here/../.." && pwd)"
venv="${RIGOR_VENV:-$repo/target/python-venv}"
requirements="$here/requirements.txt"
stamp="$venv/.requirements.sha256"

die() {
    echo "run.sh: $*" >&2
    exit 1
}

gateway="${RIGOR_MCP_BIN:-$repo/target/debug/rigor-mcp}"
if [[ ! -x "$gateway" ]]; then
    die "gateway binary not found: $gateway
run \`cargo build --workspace\` in $repo first (or set RIGOR_MCP_BIN)"
fi
engine="$(dirname -- "$gateway")/rigor"
if [[ ! -x "$engine" ]] && ! command -v rigor >/dev/null 2>&1; then
    die "engine binary not found: $engine (and no \`rigor\` on PATH)
run \`cargo build --workspace\` in $repo first"
fi
export RIGOR_MCP_BIN="$gateway"

if [[ -z "${PYTHON:-}" ]]; then
    if command -v python3.11 >/dev/null 2>&1; then
        PYTHON=python3.11
    else
        PYTHON=python3
    fi
fi

if [[ ! -x "$venv/bin/python" ]]; then
    echo "run.sh: creating virtualenv $venv" >&2
    "$PYTHON" -m venv "$venv" || die "could not create a virtualenv with $PYTHON"
    rm -f "$stamp"
fi

want="$(sha256sum "$requirements" | cut -d' ' -f1)"
have="$(cat "$stamp" 2>/dev/null || true)"
if [[ "$want" != "$have" ]]; then
    echo "run.sh: installing $requirements into $venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements" \
        || die "pip install failed"
    printf '%s\n' "$want" >"$stamp"
fi

# Keep the source tree clean: no __pycache__, no .pytest_cache.
export PYTHONDONTWRITEBYTECODE=1
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider --rootdir "$here" "$here" "$@"
