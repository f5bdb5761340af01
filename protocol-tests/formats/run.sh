#!/usr/bin/env bash
# Validates `rigor check`'s CI formats with real third-party readers:
# Microsoft's SARIF Multitool and the official SARIF 2.1.0 JSON Schema it
# ships (npm), sarif-tools, jsonschema and junitparser (PyPI). Installs the
# pinned packages on the first run and when their pins change.
#
#   protocol-tests/formats/run.sh [PYTEST ARGS...]
#
# Environment:
#   RIGOR_BIN     engine binary (default: <repo>/target/debug/rigor)
#   RIGOR_FORMATS_VENV  virtualenv (default: <repo>/target/formats-venv)
#   PYTHON        interpreter that creates the venv (default: python3.11, else python3)
set -euo pipefail

here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd -- "$here/../.." && pwd)"
venv="${RIGOR_FORMATS_VENV:-$repo/target/formats-venv}"
requirements="$here/requirements.txt"

die() {
    echo "run.sh: $*" >&2
    exit 1
}

export RIGOR_BIN="${RIGOR_BIN:-$repo/target/debug/rigor}"
[[ -x "$RIGOR_BIN" ]] || die "engine binary not found: $RIGOR_BIN
run \`cargo build --workspace\` in $repo first (or set RIGOR_BIN)"

if [[ -z "${PYTHON:-}" ]]; then
    if command -v python3.11 >/dev/null 2>&1; then PYTHON=python3.11; else PYTHON=python3; fi
fi
stamp="$venv/.requirements.sha256"
if [[ ! -x "$venv/bin/python" ]]; then
    echo "run.sh: creating virtualenv $venv" >&2
    "$PYTHON" -m venv "$venv" || die "could not create a virtualenv with $PYTHON"
    rm -f "$stamp"
fi
want="$(sha256sum "$requirements" | cut -d' ' -f1)"
if [[ "$want" != "$(cat "$stamp" 2>/dev/null || true)" ]]; then
    echo "run.sh: installing $requirements into $venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements" || die "pip install failed"
    printf '%s\n' "$want" >"$stamp"
fi

cd "$here"
lock_stamp=node_modules/.package-lock.sha256
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [[ ! -d node_modules || "$(cat "$lock_stamp" 2>/dev/null || true)" != "$want" ]]; then
    echo "run.sh: installing the pinned npm packages" >&2
    npm ci --no-audit --no-fund --loglevel=error >&2
    echo "$want" >"$lock_stamp"
fi
multitool="$here/node_modules/@microsoft/sarif-multitool-linux"
[[ -f "$multitool/Sarif.Multitool" ]] || die "the SARIF Multitool is missing from $multitool"
# Its postinstall step only marks the binary executable; npm may skip it.
chmod u+x "$multitool/Sarif.Multitool"
export SARIF_MULTITOOL="$multitool/Sarif.Multitool"
export SARIF_SCHEMA="$multitool/sarif-2.1.0.json"

export PYTHONDONTWRITEBYTECODE=1
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider --rootdir "$here" "$here" "$@"
