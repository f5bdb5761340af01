#!/usr/bin/env python3
"""End to end on a copy of this repository: `rigor-mcp --dev` serves the
copy's engine; changing one rule's explanation in the engine source makes
the very next rigor_explain call return the new text; a compile error keeps
the last good build serving with a notice naming file:line; fixing it
returns to normal."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from mcp_driver import Gateway, copy_repository, replace_in, text_of  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
WORK = os.path.join(REPO, "target", "dev-e2e")
COPY = os.path.join(WORK, "repo")
RULE_FILE = os.path.join(COPY, "engine", "src", "rules", "flow", "dead_assignment.rs")
ORIGINAL = 'summary: "A local variable is assigned inside a method but its value is never read.",'


def explain(gateway):
    result = gateway.call("rigor_explain", {"rule": "flow.dead-assignment"}, timeout=900)
    return result, text_of(result)


def main():
    gateway_binary = os.path.join(REPO, "target", "debug", "rigor-mcp")
    if not os.path.exists(gateway_binary):
        sys.exit("build first: cargo build --workspace")
    copy_repository(REPO, COPY)
    env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(WORK, "target"))
    gateway = Gateway([gateway_binary, "--dev", "--root", os.path.join(COPY, "examples", "shop")], cwd=COPY, env=env)
    try:
        gateway.initialize()
        started = time.monotonic()
        result, text = explain(gateway)  # the first call waits for the initial build
        assert "is never read" in text, text
        print("dev-e2e: initial build and first answer in %.1f s" % (time.monotonic() - started))

        marker = "E2E-%d" % int(time.time())
        replace_in(RULE_FILE, ORIGINAL, ORIGINAL.replace("never read.", "never read (%s)." % marker))
        started = time.monotonic()
        result, text = explain(gateway)
        assert marker in text, "the next call must answer from the edited engine: " + text
        assert "NOTICE" not in text, text
        print("dev-e2e: edit answered by the new code after %.1f s (build %.0f ms)" % (
            time.monotonic() - started, result["_meta"]["rigor/worker"].get("reload", {}).get("build_ms", 0)))

        replace_in(RULE_FILE, "pub static RULE", "pub static RULE broken")
        result, text = explain(gateway)
        assert "NOTICE: The engine's rebuild failed" in text, text
        assert "dead_assignment.rs:" in text, "the notice names file:line: " + text
        assert marker in text, "the last good build still answers: " + text
        notice = result["content"][0]["text"]
        print("dev-e2e: compile error reported: " + notice[:160])

        replace_in(RULE_FILE, "pub static RULE broken", "pub static RULE")
        result, text = explain(gateway)
        assert "NOTICE" not in text and marker in text, text
        print("dev-e2e: fixed; answers are normal again")
    finally:
        gateway.close()
        copy_repository(REPO, COPY)  # restore the edited file for the next run


if __name__ == "__main__":
    main()
    print("dev-e2e: ok")
