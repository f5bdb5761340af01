#!/usr/bin/env python3
"""The runtime soundness harness: runs each workload under the recorder,
asks the engine (`rigor sig-gen --format json`) what it infers for every
method that ran, and prints how many answers were unsound, precise or
untyped (see compare.py). Exit 1 when any answer is unsound.

Suites: the standard library (the scripts in workloads/, tracing Ruby's own
library), and gems from Debian (GEM_SUITES: rubocop, kramdown, rouge,
liquid, rack, thor, diff-lcs, builder, hashie, erubi), each run by its driver in gems/ over real files and
traced over its lib/, which the engine analyses as one project.

Usage: scripts/soundness [--quick] [--suite NAME|all] [--engine PATH]
  --quick    only the workloads CI runs (QUICK below; gems on fewer files)
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
QUICK = ["pathname_and_uri.rb", "collections.rb", "text.rb", "tricky_flow.rb", "aliasing.rb", "elements.rb", "numbers_and_dispatch.rb", "objects_and_text.rb", "core_edges.rb", "shared_containers.rb", "literal_folds.rb", "semantics_probes.rb"]


def ruby_libdir():
    return subprocess.run(["ruby", "-rrbconfig", "-e", "print RbConfig::CONFIG['rubylibdir']"],
                          check=True, capture_output=True, text=True).stdout


GEMS = REPO / "corpus/usr/share/rubygems-integration/all/gems"
LIBRUBY = REPO / "corpus/usr/lib/ruby/3.1.0"
# Real code for rubocop to inspect and correct, and for rouge to highlight.
RUBY_INPUTS = [LIBRUBY / name for name in
               ("set.rb", "ostruct.rb", "tsort.rb", "observer.rb", "optparse.rb", "shellwords.rb", "pp.rb", "benchmark.rb")]
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def gem_inputs(name, quick):
    """What each gem's driver works on (fewer files for --quick)."""
    messy = HERE / "gems/messy.rb"
    return {
        "rubocop": [LIBRUBY / "tsort.rb", messy] if quick else [*RUBY_INPUTS, messy],
        "kramdown": DOCUMENTS[:1] if quick else DOCUMENTS,
        "rouge": [LIBRUBY / "tsort.rb", REPO / "README.md"] if quick else [*RUBY_INPUTS, *DOCUMENTS, messy],
        "diff-lcs": [LIBRUBY / "tsort.rb"] if quick else [*RUBY_INPUTS, *DOCUMENTS],
    }.get(name, [])


# Each gem suite: the gem's directory under GEMS; its driver is gems/NAME.rb.
GEM_SUITES = {"rubocop": "rubocop-1.39.0", "kramdown": "kramdown-2.4.0", "rouge": "rouge-3.30.0",
              "liquid": "liquid-5.4.0", "rack": "rack-2.2.22", "thor": "thor-1.2.1",
              "diff-lcs": "diff-lcs-1.5.0", "builder": "builder-3.2.4", "hashie": "hashie-5.0.0",
              "erubi": "erubi-1.9.0"}


def record(workload, scratch, roots, args=(), extra_env=None, timeout=300):
    out = scratch / (workload.stem + ".jsonl")
    env = dict(os.environ, SOUNDNESS_OUT=str(out), SOUNDNESS_ROOTS=":".join(roots), **(extra_env or {}))
    try:
        run = subprocess.run(["ruby", "-r", str(HERE / "recorder.rb"), str(workload), *args], env=env,
                             cwd=scratch, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        sys.exit(f"scripts/soundness: workload {workload.name} ran past its bound of {timeout} s under the "
                 "recorder (a hang, or a machine busy with other work: run it alone)")
    if run.returncode != 0:
        sys.exit(f"scripts/soundness: workload {workload.name} failed:\n{run.stderr[-3000:]}")
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


def gem_suite(name):
    """A gem from Debian run by gems/NAME.rb; its whole lib/ is the project
    sig-gen analyses, so cross-file answers are checked too."""
    def suite(engine, quick, scratch):
        subprocess.run([str(REPO / "scripts/fetch-corpora"), "--soundness-gems"], check=True)
        gem = GEMS / GEM_SUITES[name]
        libraries = sorted(p / "lib" for p in GEMS.iterdir()) + [REPO / "corpus/usr/lib/ruby/vendor_ruby"]
        inputs = [str(path) for path in gem_inputs(name, quick)]
        env = {"RUBYLIB": ":".join(str(p) for p in libraries)}
        # rubocop's full run takes minutes under the recorder, and twice
        # that on a machine busy with a build: the bound catches a hang.
        records = record(HERE / f"gems/{name}.rb", scratch, [str(gem / "lib")], inputs, env, timeout=1800)
        ran = f"{name} over {len(inputs)} files" if inputs else f"{name} on its driver's own input"
        return ran, merge(records), infer(engine, ["lib"], gem)
    return suite


SUITES = {"stdlib": stdlib_suite, **{name: gem_suite(name) for name in GEM_SUITES}}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--suite", choices=[*SUITES, "all"], default="all")
    parser.add_argument("--engine", default=str(REPO / "target/debug/rigor"))
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    # The engine runs from scratch directories: a path relative to where
    # the harness was started must not be read from there.
    engine = pathlib.Path(args.engine)
    if not engine.is_file():
        parser.error(f"--engine {args.engine}: no such file (build it, or name the rigor binary)")
    args.engine = str(engine.resolve())
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
