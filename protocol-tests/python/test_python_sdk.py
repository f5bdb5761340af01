"""Drive rigor-mcp with the official MCP Python SDK (PyPI `mcp`, 2.x) over stdio.

These are black-box tests: the SDK spawns the built gateway as a subprocess
(with the SDK's default, minimal environment) and speaks MCP to it. Anything the
SDK rejects (a malformed message, structuredContent that violates the tool's
outputSchema, a bad handshake answer) fails the test.

Binary: $RIGOR_MCP_BIN, default <repo>/target/debug/rigor-mcp (the engine, `rigor`,
is found by the gateway beside itself). Project: protocol-tests/fixtures/project,
passed with --root. Run through run.sh, which prepares the virtualenv.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TextIO

import anyio
import pytest
from mcp import Client, ClientSession, MCPError, StdioServerParameters, stdio_client
from mcp import types
from mcp_types import INVALID_PARAMS
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION, LATEST_MODERN_VERSION

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
FIXTURE_PROJECT = HERE.parent / "fixtures" / "project"
RIGOR_MCP_BIN = Path(os.environ.get("RIGOR_MCP_BIN") or REPO / "target" / "debug" / "rigor-mcp")

TOOL_NAMES = {
    "rigor_check",
    "rigor_triage",
    "rigor_explain",
    "rigor_type_of",
    "rigor_annotate",
    "rigor_coverage",
    "rigor_sig_gen",
}
FLOW_RULES = {
    "flow.duplicate-hash-key",
    "flow.always-raises",
    "flow.return-in-ensure",
    "flow.unreachable-branch",
    "flow.dead-assignment",
}

# After closing the server's stdin the SDK waits this long before SIGTERM
# (mcp.client.stdio.PROCESS_TERMINATION_TIMEOUT); a server must exit on EOF well within it.
PROCESS_TERMINATION_TIMEOUT = 2.0
REQUEST_TIMEOUT_SECONDS = 30.0
TEST_DEADLINE_SECONDS = 60.0

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session", autouse=True)
def _binaries_present() -> None:
    if not (RIGOR_MCP_BIN.is_file() and os.access(RIGOR_MCP_BIN, os.X_OK)):
        pytest.fail(
            f"gateway binary not found or not executable: {RIGOR_MCP_BIN}; "
            "run `cargo build --workspace` (or set RIGOR_MCP_BIN)",
            pytrace=False,
        )
    if not FIXTURE_PROJECT.is_dir():
        pytest.fail(f"fixture project missing: {FIXTURE_PROJECT}", pytrace=False)


@pytest.fixture
def gateway_stderr(tmp_path: Path) -> TextIO:
    """The gateway's stderr (its logs), shown by pytest when a test fails."""
    path = tmp_path / "rigor-mcp.stderr"
    with path.open("w+", encoding="utf-8") as log:
        yield log
    text = path.read_text(encoding="utf-8", errors="replace")
    if text:
        print(f"--- rigor-mcp stderr ---\n{text}")


@pytest.fixture(autouse=True)
def _no_sdk_complaints(caplog: pytest.LogCaptureFixture) -> None:
    """Fail on any warning or error the SDK logs (e.g. a non-JSON stdout line, an unlisted tool)."""
    caplog.set_level(logging.WARNING)
    yield
    complaints = [
        f"{r.name}: {r.levelname}: {r.getMessage()}"
        for r in caplog.get_records("call")
        if r.levelno >= logging.WARNING
    ]
    assert not complaints, "the MCP SDK logged complaints:\n" + "\n".join(complaints)


def server_params() -> StdioServerParameters:
    # No `env`: the SDK passes only HOME, LOGNAME, PATH, SHELL, TERM and USER, like real hosts.
    return StdioServerParameters(
        command=str(RIGOR_MCP_BIN),
        args=["--root", str(FIXTURE_PROJECT)],
    )


@asynccontextmanager
async def raw_session(errlog: TextIO) -> AsyncIterator[ClientSession]:
    """A low-level ClientSession over stdio, not yet initialized."""
    async with stdio_client(server_params(), errlog=errlog) as (read_stream, write_stream):
        async with ClientSession(
            read_stream, write_stream, read_timeout_seconds=REQUEST_TIMEOUT_SECONDS
        ) as session:
            yield session


@asynccontextmanager
async def session_for(errlog: TextIO) -> AsyncIterator[ClientSession]:
    """An initialized ClientSession (legacy `initialize` handshake)."""
    async with raw_session(errlog) as session:
        await session.initialize()
        yield session


def text_of(result: types.CallToolResult) -> str:
    texts = [block.text for block in result.content if isinstance(block, types.TextContent)]
    assert len(texts) == 1, f"expected exactly one text block, got {result.content!r}"
    return texts[0]


def worker_pid(result: types.CallToolResult) -> int:
    assert result.meta is not None, "CallToolResult has no _meta"
    worker = result.meta.get("rigor/worker")
    assert isinstance(worker, dict), f"_meta lacks rigor/worker: {result.meta!r}"
    pid = worker.get("pid")
    assert isinstance(pid, int) and pid > 0, f"bad rigor/worker pid: {worker!r}"
    return pid


# (a) -------------------------------------------------------------------------------------


async def test_initialize(gateway_stderr: TextIO) -> None:
    with anyio.fail_after(TEST_DEADLINE_SECONDS):
        async with raw_session(gateway_stderr) as session:
            result = await session.initialize()
            assert result.server_info.name == "rigor-mcp"
            assert result.server_info.version, "serverInfo.version is empty"
            # The SDK asks for its newest handshake version; the gateway supports it, so it
            # MUST answer with the same one.
            assert result.protocol_version in HANDSHAKE_PROTOCOL_VERSIONS
            assert result.protocol_version == LATEST_HANDSHAKE_VERSION
            assert session.protocol_version == result.protocol_version
            assert result.capabilities.tools is not None, "no tools capability advertised"
            # A ping after the handshake round-trips.
            await session.send_ping()


async def test_high_level_client_adopts_the_stateless_protocol(gateway_stderr: TextIO) -> None:
    """`mcp.Client` (mode="auto") probes `server/discover` first; the gateway speaks
    2026-07-28, so the client adopts it and every request carries its own envelope."""
    with anyio.fail_after(TEST_DEADLINE_SECONDS):
        async with Client(server_params(), read_timeout_seconds=REQUEST_TIMEOUT_SECONDS) as client:
            assert client.session.discover_result is not None, "the discover probe was not adopted"
            assert client.session.initialize_result is None
            assert client.protocol_version == LATEST_MODERN_VERSION
            assert LATEST_MODERN_VERSION in client.session.discover_result.supported_versions
            tools = await client.list_tools()
            assert sorted(t.name for t in tools.tools) == sorted(TOOL_NAMES)
            result = await client.call_tool("rigor_check", {"paths": ["lib"]})
            assert result.is_error is False
            assert result.structured_content["error_count"] == 1
            unknown = await client.call_tool("rigor_explain", {"rule": "no.such-rule"})
            assert unknown.is_error is True


async def test_high_level_client_in_legacy_mode_uses_the_handshake(gateway_stderr: TextIO) -> None:
    """Handshake-era clients keep working unchanged beside stateless ones."""
    with anyio.fail_after(TEST_DEADLINE_SECONDS):
        async with Client(server_params(), mode="legacy", read_timeout_seconds=REQUEST_TIMEOUT_SECONDS) as client:
            assert client.session.initialize_result is not None
            assert client.protocol_version == LATEST_HANDSHAKE_VERSION
            assert client.server_info is not None and client.server_info.name == "rigor-mcp"
            result = await client.call_tool("rigor_check", {"paths": ["lib"]})
            assert result.structured_content["error_count"] == 1


# (b) -------------------------------------------------------------------------------------


async def test_list_tools(gateway_stderr: TextIO) -> None:
    with anyio.fail_after(TEST_DEADLINE_SECONDS):
        async with session_for(gateway_stderr) as session:
            listing = await session.list_tools()
    names = [tool.name for tool in listing.tools]
    assert sorted(names) == sorted(TOOL_NAMES), names
    assert listing.next_cursor is None
    tools = {tool.name: tool for tool in listing.tools}
    for tool in listing.tools:
        assert tool.input_schema.get("type") == "object", (tool.name, tool.input_schema)
        assert tool.annotations is not None, f"{tool.name} has no annotations"
        assert tool.annotations.read_only_hint is True, (tool.name, tool.annotations)
        assert tool.description, f"{tool.name} has no description"
    assert tools["rigor_check"].input_schema.get("required") == ["paths"]
    assert tools["rigor_check"].input_schema["properties"]["paths"]["type"] == "array"
    assert "rule" in tools["rigor_explain"].input_schema.get("properties", {})
    type_of = tools["rigor_type_of"].input_schema
    assert type_of["dependentRequired"]["file"] == ["line", "col"]
    assert type_of["properties"]["positions"]["items"]["required"] == ["file", "line", "col"]
    assert tools["rigor_coverage"].input_schema.get("required") == ["paths"]
    assert tools["rigor_annotate"].output_schema is None
    # These declare an output schema, so the SDK validates their structuredContent.
    for name in ("rigor_check", "rigor_triage", "rigor_type_of", "rigor_coverage", "rigor_sig_gen"):
        schema = tools[name].output_schema
        assert schema is not None and schema.get("type") == "object", (name, schema)


# (c) -------------------------------------------------------------------------------------


async def test_rigor_sig_gen(gateway_stderr: TextIO) -> None:
    with anyio.fail_after(TEST_DEADLINE_SECONDS):
        async with session_for(gateway_stderr) as session:
            result = await session.call_tool("rigor_sig_gen", {"paths": ["siggen"], "params": "observed"})
            await session.validate_tool_result("rigor_sig_gen", result)
    assert result.is_error is False, text_of(result)
    candidates = result.structured_content["candidates"]
    by_method = {c["method"]: c for c in candidates}
    assert by_method["label"]["rbs"] == "def label: (String, Float | Integer) -> String", by_method
    assert by_method["label"]["classification"] == "new_file"
    assert by_method["split"]["skip_reason"] == "sig.skipped.complex-shape"
    assert not (FIXTURE_PROJECT / "sig").exists(), "the tool never writes"


async def test_rigor_check(gateway_stderr: TextIO) -> None:
    with anyio.fail_after(TEST_DEADLINE_SECONDS):
        async with session_for(gateway_stderr) as session:
            # The SDK lists tools by itself before validating the first result of a tool, and
            # raises RuntimeError if structuredContent violates the declared outputSchema.
            result = await session.call_tool("rigor_check", {"paths": ["lib"]})
            # Explicit, too (public SDK API): must not raise.
            await session.validate_tool_result("rigor_check", result)
    assert result.is_error is False, text_of(result)
    data = result.structured_content
    assert isinstance(data, dict), data
    assert data["error_count"] == 1
    assert data["success"] is False
    diagnostics = data["diagnostics"]
    always_raises = [d for d in diagnostics if d["rule"] == "flow.always-raises"]
    assert len(always_raises) == 1, diagnostics
    diag = always_raises[0]
    assert (diag["path"], diag["line"], diag["column"]) == ("lib/bugs.rb", 11, 9), diag
    assert diag["severity"] == "error"
    assert {d["rule"] for d in diagnostics} >= FLOW_RULES
    assert {d["rule"] for d in diagnostics if d["path"] == "lib/bugs.rb"} == FLOW_RULES
    # The same data as a text block, for clients that ignore structuredContent.
    assert json.loads(text_of(result)) == data


# (d) -------------------------------------------------------------------------------------


async def test_explain_unknown_rule_is_tool_error(gateway_stderr: TextIO) -> None:
    with anyio.fail_after(TEST_DEADLINE_SECONDS):
        async with session_for(gateway_stderr) as session:
            result = await session.call_tool("rigor_explain", {"rule": "no.such-rule"})
            known = await session.call_tool("rigor_explain", {"rule": "flow.always-raises"})
    assert result.is_error is True
    assert "no.such-rule" in text_of(result)
    assert known.is_error is False
    assert "flow.always-raises" in text_of(known)


# (e) -------------------------------------------------------------------------------------


async def test_unknown_tool_is_protocol_error(gateway_stderr: TextIO) -> None:
    with anyio.fail_after(TEST_DEADLINE_SECONDS):
        async with session_for(gateway_stderr) as session:
            with pytest.raises(MCPError) as caught:
                await session.call_tool("rigor_no_such_tool", {})
            # The session survives the error.
            after = await session.call_tool("rigor_check", {"paths": ["lib"]})
    assert caught.value.code == INVALID_PARAMS, (caught.value.code, caught.value.message)
    assert "rigor_no_such_tool" in caught.value.message
    assert after.is_error is False


# (f) -------------------------------------------------------------------------------------


async def test_calls_share_one_worker(gateway_stderr: TextIO) -> None:
    calls: list[tuple[str, dict[str, Any]]] = [
        ("rigor_check", {"paths": ["lib"]}),
        ("rigor_triage", {"top": 1}),
        ("rigor_explain", {"rule": "flow.dead-assignment"}),
        ("rigor_check", {"paths": ["lib/clean.rb"]}),
        ("rigor_explain", {}),
    ]
    with anyio.fail_after(TEST_DEADLINE_SECONDS):
        async with session_for(gateway_stderr) as session:
            results = [await session.call_tool(name, args) for name, args in calls]
    for (name, _), result in zip(calls, results):
        assert result.is_error is False, (name, text_of(result))
    pids = [worker_pid(result) for result in results]
    assert len(set(pids)) == 1, f"calls were served by different workers: {pids}"
    assert pids[0] != os.getpid()
    clean = results[3].structured_content
    assert clean["error_count"] == 0 and clean["diagnostics"] == [], clean


# (g) -------------------------------------------------------------------------------------


async def test_rigor_triage(gateway_stderr: TextIO) -> None:
    with anyio.fail_after(TEST_DEADLINE_SECONDS):
        async with session_for(gateway_stderr) as session:
            result = await session.call_tool("rigor_triage", {"top": 1})
    assert result.is_error is False, text_of(result)
    data = result.structured_content
    assert isinstance(data, dict), data
    assert data["summary"]["total"] == 5, data["summary"]
    assert data["summary"]["error"] == 1 and data["summary"]["warning"] == 4, data["summary"]
    assert json.loads(text_of(result)) == data


# shutdown --------------------------------------------------------------------------------


async def test_server_exits_on_stdin_eof(gateway_stderr: TextIO) -> None:
    """The SDK closes stdin, then waits 2 s before SIGTERM: the gateway must exit on EOF first."""
    with anyio.fail_after(TEST_DEADLINE_SECONDS):
        async with session_for(gateway_stderr) as session:
            pid = worker_pid(await session.call_tool("rigor_check", {"paths": ["lib"]}))
            closing = time.monotonic()
        closed_after = time.monotonic() - closing
    assert closed_after < PROCESS_TERMINATION_TIMEOUT, (
        f"shutdown took {closed_after:.2f}s: the gateway did not exit on stdin EOF and had to be killed"
    )
    # Its worker is gone too (give the OS a moment to reap it).
    deadline = time.monotonic() + 5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid), f"worker {pid} outlived the gateway"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie still answers kill(0); treat it as gone.
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
