#!/usr/bin/env python3
"""Time from a save to the first answer from the new code, split into the
build and the gateway's own part (detection, restart, hello).

1. Gateway only: the release engine, restarted on each save of a watched
   file (no build step), many rounds: the gateway's part alone.
2. Real development: `rigor-mcp --dev` on a copy of this repository; each
   round edits one rule's text in the engine source and calls rigor_explain,
   which waits for cargo's incremental build."""
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from mcp_driver import Gateway, copy_repository, replace_in, text_of  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SHOP = os.path.join(REPO, "examples", "shop")


def summary(values):
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(round(0.9 * (len(values) - 1))))]
    return "median %7.1f ms   p90 %7.1f ms" % (statistics.median(values), p90)


def gateway_only(rounds):
    trigger_dir = tempfile.mkdtemp(prefix="bench-reload-")
    trigger = os.path.join(trigger_dir, "engine_source.rb")
    open(trigger, "w").write("0\n")
    binary = os.path.join(REPO, "target", "release", "rigor-mcp")
    gateway = Gateway([binary, "--root", SHOP, "--watch", trigger, "--log-level", "error"], cwd=SHOP)
    gateway.initialize()
    first = gateway.call("rigor_explain", {"rule": "flow"})
    pid = first["_meta"]["rigor/worker"]["pid"]
    totals, restarts = [], []
    for round_number in range(1, rounds + 1):
        time.sleep(0.15)  # let the previous round's events settle
        saved = time.monotonic()
        with open(trigger, "w") as handle:
            handle.write("%d\n" % round_number)
        result = gateway.call("rigor_explain", {"rule": "flow"})
        totals.append((time.monotonic() - saved) * 1000)
        worker = result["_meta"]["rigor/worker"]
        assert worker["pid"] != pid, "the answer must come from a new worker"
        pid = worker["pid"]
        restarts.append(worker.get("reload", {}).get("restart_ms", float("nan")))
    gateway.close()
    print("1. gateway only (release engine, no build step), %d saves:" % rounds)
    print("   save -> first answer from the new worker  " + summary(totals))
    print("     of which restart (spawn + hello)        " + summary(restarts))
    return statistics.median(totals)


def with_cargo(rounds):
    work = os.path.join(REPO, "target", "dev-e2e")
    copy = os.path.join(work, "repo")
    copy_repository(REPO, copy)
    rule = os.path.join(copy, "engine", "src", "rules", "flow", "dead_assignment.rs")
    original = 'summary: "A local variable is assigned inside a method but its value is never read.",'
    env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(work, "target"))
    binary = os.path.join(REPO, "target", "debug", "rigor-mcp")
    gateway = Gateway([binary, "--dev", "--root", os.path.join(copy, "examples", "shop"), "--log-level", "error"], cwd=copy, env=env)
    gateway.initialize()
    gateway.call("rigor_explain", {"rule": "flow.dead-assignment"}, timeout=900)
    totals, builds, own = [], [], []
    previous = original
    try:
        for round_number in range(1, rounds + 1):
            marker = "bench-%d-%d" % (os.getpid(), round_number)
            current = original.replace("never read.", "never read (%s)." % marker)
            saved = time.monotonic()
            replace_in(rule, previous, current)
            previous = current
            result = gateway.call("rigor_explain", {"rule": "flow.dead-assignment"}, timeout=900)
            total = (time.monotonic() - saved) * 1000
            assert marker in text_of(result), text_of(result)
            build = result["_meta"]["rigor/worker"].get("reload", {}).get("build_ms", 0.0)
            totals.append(total)
            builds.append(build)
            own.append(total - build)
    finally:
        gateway.close()
        copy_repository(REPO, copy)
    print("2. rigor-mcp --dev (debug engine, cargo incremental build), %d edits of a rule's text:" % rounds)
    print("   save -> first answer from the new code   " + summary(totals))
    print("     build (cargo)                           " + summary(builds))
    print("     gateway's part (total - build)          " + summary(own))
    return statistics.median(own)


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    gateway_part = gateway_only(rounds)
    dev_part = with_cargo(max(3, rounds // 10))
    verdict = "met" if max(gateway_part, dev_part) <= 50 else "MISSED"
    print()
    print("gateway's part, median: %.1f ms without a build, %.1f ms with cargo (target <= 50 ms: %s)" % (gateway_part, dev_part, verdict))


if __name__ == "__main__":
    main()
