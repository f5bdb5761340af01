"""rigor check's CI formats, read by the tools their consumers use.

Each test runs the built engine on one project whose findings include rule
diagnostics of each severity, parse errors (rule null), non-ASCII columns,
and file names and messages with the characters each format must escape.
The JSON output is the reference every other format is compared with.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from junitparser import JUnitXml
from sarif import loader as sarif_loader

RIGOR = os.environ["RIGOR_BIN"]
MULTITOOL = os.environ["SARIF_MULTITOOL"]
SCHEMA = os.environ["SARIF_SCHEMA"]

FILES = {
    "lib/a.rb": 'x = "hi".shout\ndef f\n  t = 1\n  2\nend\n',
    "lib/broken.rb": "def (\n",
    "lib/ok.rb": "puts 1\n",
    "lib/uni.rb": 's = "é😀".shout\n',
    "lib/odd, name:100%.rb": "t = \"[x]|'%\".shout\n",
    "lib/new\nline.rb": "[1].frob\n",
}
# A path that does not exist: its diagnostic's message carries CR LF.
MISSING = "gone\r\nfile.rb"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("project")
    for name, text in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def check(project: Path, fmt: str) -> str:
    done = subprocess.run(
        [RIGOR, "check", f"--format={fmt}", "--no-stats", "--", "lib", MISSING],
        cwd=project,
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 1, (fmt, done.returncode, done.stderr.decode())
    return done.stdout.decode("utf-8")


@pytest.fixture(scope="module")
def diagnostics(project: Path) -> list[dict]:
    found = json.loads(check(project, "json"))["diagnostics"]
    rules = {d["rule"] for d in found}
    assert {None, "call.undefined-method", "flow.dead-assignment"} <= rules, rules
    assert any("\r\n" in d["message"] for d in found), "the fixture has a message with CR LF"
    return found


def rule_of(d: dict) -> str:
    return d["rule"] or "rigor.parse-error"


def utf16_column(project: Path, d: dict) -> int:
    """The diagnostic's byte column as a 1-based UTF-16 column."""
    try:
        line = (project / d["path"]).read_bytes().split(b"\n")[d["line"] - 1]
    except (OSError, IndexError):
        return d["column"]
    prefix = line[: d["column"] - 1].decode("utf-8")
    return len(prefix.encode("utf-16-le")) // 2 + 1


# SARIF ---------------------------------------------------------------------


def test_sarif_matches_the_official_schema(project: Path, diagnostics: list[dict]) -> None:
    log = json.loads(check(project, "sarif"))
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator_class(schema).iter_errors(log)]
    assert errors == []
    assert len(log["runs"][0]["results"]) == len(diagnostics)


def test_sarif_passes_the_multitool_validator(project: Path, tmp_path: Path) -> None:
    produced = tmp_path / "rigor.sarif"
    produced.write_text(check(project, "sarif"), encoding="utf-8")
    report = tmp_path / "validation.sarif"
    done = subprocess.run(
        [MULTITOOL, "validate", "--json-schema", SCHEMA, "--output", str(report), str(produced)],
        capture_output=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout.decode() + done.stderr.decode()
    findings = json.loads(report.read_text(encoding="utf-8"))["runs"][0].get("results", [])
    # Results without a level are warnings (SARIF's default).
    problems = [
        (r["ruleId"], r.get("level", "warning"), r["message"].get("text", r["message"]))
        for r in findings
        if r.get("level", "warning") in ("error", "warning")
    ]
    assert problems == [], done.stdout.decode()


def test_sarif_tools_reads_back_every_result(project: Path, diagnostics: list[dict], tmp_path: Path) -> None:
    produced = tmp_path / "rigor.sarif"
    produced.write_text(check(project, "sarif"), encoding="utf-8")
    records = sarif_loader.load_sarif_file(str(produced)).get_records()
    levels = {"error": "error", "warning": "warning", "info": "note"}
    got = sorted((r["Location"], r["Line"], r["Code"], r["Severity"], r["Description"]) for r in records)
    want = sorted((uri(d["path"]), d["line"], rule_of(d), levels[d["severity"]], d["message"]) for d in diagnostics)
    assert got == want


def uri(path: str) -> str:
    """A relative path as the percent-encoded URI reference SARIF carries."""
    from urllib.parse import quote

    return quote(path, safe="/-._~!$&'()*+,;=:@")


def test_sarif_locations_and_rules(project: Path, diagnostics: list[dict]) -> None:
    log = json.loads(check(project, "sarif"))
    run = log["runs"][0]
    assert run["columnKind"] == "utf16CodeUnits"
    rules = run["tool"]["driver"]["rules"]
    assert len({r["id"] for r in rules}) == len(rules)
    by_id = {r["id"]: r for r in rules}
    explained = json.loads(subprocess.run([RIGOR, "explain", "--format=json"], capture_output=True, check=True).stdout)
    for entry in explained:
        rule = by_id[entry["id"]]
        assert rule["shortDescription"]["text"] == entry["summary"]
        assert rule["helpUri"] == entry["documentation_url"]
        assert all(fragment in rule["fullDescription"]["text"] for fragment in entry["fires_when"])
    for result, d in zip(sorted_results(run["results"]), sorted(diagnostics, key=key_of)):
        region = result["locations"][0]["physicalLocation"]["region"]
        assert (result["ruleId"], region["startLine"]) == (rule_of(d), d["line"])
        assert region["startColumn"] == utf16_column(project, d), (result, d)
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert re.fullmatch(r"[0-9a-f]{64}", result["partialFingerprints"]["rigorLineHash/v1"])
    assert any(r["ruleId"] == "rigor.parse-error" for r in run["results"])


def key_of(d: dict) -> tuple:
    return (d["path"], d["line"], 0, rule_of(d), d["message"])


def sorted_results(results: list[dict]) -> list[dict]:
    from urllib.parse import unquote

    def key(r: dict) -> tuple:
        location = r["locations"][0]["physicalLocation"]
        path = unquote(location["artifactLocation"]["uri"])
        return (path, location["region"]["startLine"], 0, r["ruleId"], r["message"]["text"])

    # Columns differ between the two (bytes vs UTF-16), so sort without them;
    # ties then fall back to rule and message, which the fixture keeps apart.
    return sorted(results, key=key)


# JUnit, Checkstyle ---------------------------------------------------------


def test_junit_has_one_case_per_file_and_findings_as_failures(project: Path, diagnostics: list[dict], tmp_path: Path) -> None:
    report = tmp_path / "rigor.xml"
    report.write_text(check(project, "junit"), encoding="utf-8")
    xml = JUnitXml.fromfile(str(report))
    cases = {case.name: case for suite in xml for case in suite}
    checked = sorted({d["path"] for d in diagnostics} | {"lib/ok.rb"})
    assert sorted(cases) == checked
    for name, case in cases.items():
        expected = [d for d in diagnostics if d["path"] == name]
        failures = [r for r in case.result if r._tag == "failure"]
        assert len(failures) == len(expected), name
        assert sorted(f.type for f in failures) == sorted(rule_of(d) for d in expected)
        assert case.is_passed == (not expected)
    assert xml.failures == len({d["path"] for d in diagnostics})


def test_checkstyle_is_xml_with_every_finding(project: Path, diagnostics: list[dict]) -> None:
    root = ET.fromstring(check(project, "checkstyle").encode("utf-8"))
    assert root.tag == "checkstyle"
    got = sorted(
        (f.get("name"), int(e.get("line")), int(e.get("column")), e.get("severity"), e.get("source"), e.get("message"))
        for f in root.iter("file")
        for e in f.iter("error")
    )
    want = sorted((d["path"], d["line"], d["column"], d["severity"], rule_of(d), d["message"]) for d in diagnostics)
    assert got == want
    assert "lib/ok.rb" in [f.get("name") for f in root.iter("file")]


# GitLab --------------------------------------------------------------------


def test_gitlab_code_quality_issues(project: Path, diagnostics: list[dict]) -> None:
    issues = json.loads(check(project, "gitlab"))
    severities = {"error": "major", "warning": "minor", "info": "info"}
    for issue in issues:
        assert set(issue) >= {"description", "check_name", "fingerprint", "severity", "location"}
        assert issue["severity"] in {"info", "minor", "major", "critical", "blocker"}
        assert isinstance(issue["location"]["lines"]["begin"], int)
    assert len({i["fingerprint"] for i in issues}) == len(issues)
    got = sorted((i["location"]["path"], i["location"]["lines"]["begin"], i["check_name"], i["severity"]) for i in issues)
    want = sorted((d["path"], d["line"], rule_of(d), severities[d["severity"]]) for d in diagnostics)
    assert got == want


# GitHub workflow commands --------------------------------------------------

# https://docs.github.com/actions/reference/workflow-commands-for-github-actions:
# `::command prop=value,prop=value::data`, where data escapes % CR LF and
# property values also escape : and ,.
ESCAPED = r"(?:[^%:,\r\n]|%25|%0D|%0A|%3A|%2C)*"
DATA = r"(?:[^%\r\n]|%25|%0D|%0A)*"
COMMAND = re.compile(
    rf"::(error|warning|notice) file=({ESCAPED}),line=(\d+),col=(\d+),title=({ESCAPED})::({DATA})"
)


def unescape(value: str) -> str:
    for escaped, raw in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        value = value.replace(escaped, raw)
    return value


def test_github_commands_follow_the_documented_grammar(project: Path, diagnostics: list[dict]) -> None:
    out = check(project, "github")
    assert out.endswith("\n")
    lines = out[:-1].split("\n")
    levels = {"error": "error", "warning": "warning", "info": "notice"}
    got = []
    for line in lines:
        match = COMMAND.fullmatch(line)
        assert match, line
        level, path, line_no, col, title, data = match.groups()
        got.append((unescape(path), int(line_no), unescape(title), level, unescape(data)))
    want = [(d["path"], d["line"], rule_of(d), levels[d["severity"]], d["message"]) for d in diagnostics]
    assert sorted(got) == sorted(want)
    assert any("%0D%0A" in line for line in lines), "CR LF in a message is escaped"
    assert any("%2C" in line and "%3A" in line for line in lines), "a path with , and : is escaped"


# TeamCity service messages -------------------------------------------------

# https://www.jetbrains.com/help/teamcity/service-messages.html: values in
# single quotes with | escaping | ' [ ] and newlines.
VALUE = r"'((?:[^|'\[\]\n\r]|\|[|'\[\]nrxlp])*)'"
MESSAGE = re.compile(rf"##teamcity\[(\w+)((?: \w+={VALUE})+)\]")


def tc_unescape(value: str) -> str:
    table = {"|": "|", "'": "'", "[": "[", "]": "]", "n": "\n", "r": "\r", "x": "\u0085", "l": "\u2028", "p": "\u2029"}
    return re.sub(r"\|(.)", lambda m: table[m.group(1)], value)


def test_teamcity_messages_follow_the_service_message_grammar(project: Path, diagnostics: list[dict]) -> None:
    out = check(project, "teamcity")
    types, inspections = set(), []
    for line in out.splitlines():
        match = MESSAGE.fullmatch(line)
        assert match, line
        attributes = {k: tc_unescape(v) for k, v in re.findall(rf"(\w+)={VALUE}", match.group(2))}
        if match.group(1) == "inspectionType":
            types.add(attributes["id"])
        else:
            assert match.group(1) == "inspection"
            assert attributes["typeId"] in types, "declared before use"
            inspections.append((attributes["file"], int(attributes["line"]), attributes["typeId"], attributes["message"]))
    want = [(d["path"], d["line"], rule_of(d), d["message"]) for d in diagnostics]
    assert sorted(inspections) == sorted(want)
