#!/usr/bin/env python3
"""The runtime soundness harness: runs each workload under the recorder,
asks the engine (`rigor sig-gen --format json`) what it infers for every
method that ran, and prints how many answers were unsound, precise or
untyped (see compare.py). Exit 1 when any answer is unsound.

Two suites: the standard library (the scripts in workloads/, tracing Ruby's
own library) and rubocop (Debian's RuboCop run over real files, tracing its
lib/, which the engine analyses as one project: cross-file answers).

Usage: scripts/soundness [--quick] [--suite stdlib|rubocop|all] [--engine PATH]
  --quick    only the workloads CI runs (QUICK below; rubocop on fewer files)
  --suite    which suite (default: all)
  --engine   the rigor binary (default: target/debug/rigor)"""

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

import compare

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
QUICK = ["pathname_and_uri.rb", "collections.rb", "text.rb", "tricky_flow.rb"]


def ruby_libdir():
    return subprocess.run(["ruby", "-rrbconfig", "-e", "print RbConfig::CONFIG['rubylibdir']"],
                          check=True, capture_output=True, text=True).stdout


GEMS = REPO / "corpus/usr/share/rubygems-integration/all/gems"
RUBOCOP = GEMS / "rubocop-1.39.0"
# Real code for rubocop to inspect and correct (from the libruby corpus).
RUBOCOP_INPUTS = ["set.rb", "ostruct.rb", "tsort.rb", "observer.rb", "optparse.rb", "shellwords.rb",
                  "pp.rb", "benchmark.rb"]
RUBOCOP_QUICK_INPUTS = ["tsort.rb"]


def record(workload, scratch, roots, args=(), extra_env=None, timeout=300):
    out = scratch / (workload.stem + ".jsonl")
    env = dict(os.environ, SOUNDNESS_OUT=str(out), SOUNDNESS_ROOTS=":".join(roots), **(extra_env or {}))
    run = subprocess.run(["ruby", "-r", str(HERE / "recorder.rb"), str(workload), *args], env=env,
                         cwd=scratch, capture_output=True, text=True, timeout=timeout)
    if run.returncode != 0:
        sys.exit(f"scripts/soundness: workload {workload.name} failed:\n{run.stderr}")
    return [json.loads(line) for line in out.read_text().splitlines()]


def merge(records):
    merged = {}
    for r in records:
        key = (r["path"], r["class"], r["kind"], r["method"])
        into = merged.setdefault(key, {"returns": [], "params": {}})
        into["returns"].extend(v for v in r["returns"] if v not in into["returns"])
        for index, values in r["params"].items():
            target = into["params"].setdefault(index, [])
            target.extend(v for v in values if v not in target)
    return merged


def infer(engine, paths, cwd):
    run = subprocess.run([engine, "sig-gen", "--format", "json", "--include-private", "--params", "observed",
                          *paths], cwd=cwd, capture_output=True, text=True, timeout=600)
    if run.returncode not in (0, 1):
        sys.exit(f"scripts/soundness: sig-gen failed ({run.returncode}):\n{run.stderr}")
    candidates = {}
    for c in json.loads(run.stdout)["candidates"]:
        path = os.path.realpath(os.path.join(cwd, c["file"]))
        candidates[(path, c["class"], c["kind"], c["method"])] = c
    return candidates


def stdlib_suite(engine, quick, scratch):
    """The workloads against Ruby's library; the traced files are the project."""
    workloads = sorted((HERE / "workloads").glob("*.rb"))
    if quick:
        workloads = [w for w in workloads if w.name in QUICK]
    roots = [ruby_libdir(), str(HERE / "workloads")]
    records = merge(r for w in workloads for r in record(w, scratch, roots))
    paths = sorted({os.path.realpath(k[0]) for k in records})
    return f"{len(workloads)} workloads", records, infer(engine, paths, scratch)


def rubocop_suite(engine, quick, scratch):
    """Debian's RuboCop run over real files; its whole lib/ is the project."""
    subprocess.run([str(REPO / "scripts/fetch-corpora"), "--rubocop-runtime"], check=True)
    libraries = [RUBOCOP / "lib", *sorted(p / "lib" for p in GEMS.iterdir() if p != RUBOCOP),
                 REPO / "corpus/usr/lib/ruby/vendor_ruby"]
    inputs = RUBOCOP_QUICK_INPUTS if quick else RUBOCOP_INPUTS
    sources = [str(REPO / "corpus/usr/lib/ruby/3.1.0" / name) for name in inputs] + [str(HERE / "rubocop/messy.rb")]
    env = {"RUBYLIB": ":".join(str(p) for p in libraries)}
    records = record(HERE / "rubocop/drive.rb", scratch, [str(RUBOCOP / "lib")], sources, env, timeout=900)
    return f"rubocop over {len(sources)} files", merge(records), infer(engine, ["lib"], RUBOCOP)


SUITES = {"stdlib": stdlib_suite, "rubocop": rubocop_suite}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--suite", choices=[*SUITES, "all"], default="all")
    parser.add_argument("--engine", default=str(REPO / "target/debug/rigor"))
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    failed = 0
    for name, suite in SUITES.items():
        if args.suite in (name, "all"):
            with tempfile.TemporaryDirectory() as scratch:
                ran, records, candidates = suite(args.engine, args.quick, pathlib.Path(scratch))
            failed |= report(name, ran, records, candidates)
    return failed


def report(name, ran, records, candidates):
    counts = {kind: {"unsound": 0, "precise": 0, "untyped": 0} for kind in ("returns", "params")}
    unmatched = 0
    unsound = []
    for (path, klass, kind, method), seen in sorted(records.items()):
        path = os.path.realpath(path)
        candidate = candidates.get((path, klass, kind, method))
        if kind == "module":
            # A module's method: its own, or a module_function copy of an
            # instance method (which sig-gen describes on the instance side).
            candidate = candidates.get((path, klass, "singleton", method)) or candidates.get(
                (path, klass, "instance", method))
        if candidate is None:
            unmatched += 1
            continue
        where = f"{os.path.relpath(path, '/')}: {klass}{'#' if kind == 'instance' else '.'}{method}"
        # `void` (initialize) promises nothing about the value.
        if seen["returns"] and candidate.get("inferred_return") not in (None, "void"):
            verdict, missed = compare.judge(candidate["inferred_return"], seen["returns"])
            counts["returns"][verdict] += 1
            if missed:
                unsound.append((where, "returns", candidate["inferred_return"], missed))
        for index, param in enumerate(compare.positional_params(candidate.get("rbs"))):
            values = seen["params"].get(str(index))
            if not values:
                continue
            verdict, missed = compare.judge(param, values)
            counts["params"][verdict] += 1
            if missed:
                unsound.append((where, f"parameter {index + 1}", param, missed))
    print(f"soundness ({name}): {ran}, {len(records)} methods ran, "
          f"{len(records) - unmatched} described by sig-gen")
    print(f"  {'':10} {'unsound':>8} {'precise':>8} {'untyped':>8}")
    for kind, c in counts.items():
        print(f"  {kind:10} {c['unsound']:8} {c['precise']:8} {c['untyped']:8}")
    for where, what, inferred, missed in unsound:
        shown = ", ".join(v.get("inspect") or (v.get("module") and f"singleton({v['module']})")
                          or v["ancestors"][0] for v in missed[:5])
        print(f"  UNSOUND {where} {what}: inferred {inferred}, but Ruby gave {shown}")
    return 1 if unsound else 0


if __name__ == "__main__":
    sys.exit(main())
