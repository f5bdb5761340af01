"""Drive `rigor-mcp --transport http` with the official MCP Python SDK's
streamable HTTP client (`mcp.client.streamable_http.streamable_http_client`).

The gateway runs on a free port (`--port 0`; it prints its address on
stderr). Each test lists the tools, calls them, and checks what the SDK
accepted: a malformed HTTP answer or SSE event fails the SDK itself.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
FIXTURE_PROJECT = HERE.parent / "fixtures" / "project"
FAKE_ENGINE = HERE.parent / "fixtures" / "fake-engine" / "fake-engine"
RIGOR_MCP_BIN = Path(os.environ.get("RIGOR_MCP_BIN") or REPO / "target" / "debug" / "rigor-mcp")
REQUEST_TIMEOUT_SECONDS = 30.0

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def start_gateway(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen[bytes], str]:
    stderr = (tmp_path / "gateway.stderr").open("wb")
    process = subprocess.Popen(
        [str(RIGOR_MCP_BIN), "--transport", "http", "--port", "0", "--root", str(FIXTURE_PROJECT), *extra],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=stderr,
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        text = (tmp_path / "gateway.stderr").read_text(errors="replace")
        found = re.search(r"serving MCP at (http://\S+/mcp)", text)
        if found:
            return process, found.group(1)
        if process.poll() is not None:
            pytest.fail(f"rigor-mcp exited: {text}")
        time.sleep(0.05)
    process.kill()
    pytest.fail("rigor-mcp printed no address")


@pytest.fixture
def gateway(tmp_path: Path) -> Iterator[str]:
    process, url = start_gateway(tmp_path)
    yield url
    process.terminate()
    assert process.wait(timeout=10) == 0, "rigor-mcp did not exit cleanly on SIGTERM"


@pytest.fixture
def fake_gateway(tmp_path: Path) -> Iterator[str]:
    process, url = start_gateway(tmp_path, "--engine", str(FAKE_ENGINE))
    yield url
    process.terminate()
    assert process.wait(timeout=10) == 0


@asynccontextmanager
async def session_for(url: str) -> AsyncIterator[ClientSession]:
    async with streamable_http_client(url) as (read_stream, write_stream):
        async with ClientSession(read_stream, write_stream, read_timeout_seconds=REQUEST_TIMEOUT_SECONDS) as session:
            await session.initialize()
            yield session


async def test_lists_tools_and_gets_real_diagnostics_over_http(gateway: str) -> None:
    async with session_for(gateway) as session:
        tools = await session.list_tools()
        assert "rigor_check" in {tool.name for tool in tools.tools}
        result = await session.call_tool("rigor_check", {"paths": ["lib"]})
        assert result.is_error is False
        assert result.structured_content is not None
        assert result.structured_content["error_count"] == 1
        found = {(d["rule"], d["path"], d["line"]) for d in result.structured_content["diagnostics"]}
        assert ("flow.always-raises", "lib/bugs.rb", 11) in found
        await session.send_ping()


async def test_two_sessions_share_one_worker(gateway: str) -> None:
    async with session_for(gateway) as first, session_for(gateway) as second:
        a = await first.call_tool("rigor_explain", {"rule": "flow.always-raises"})
        b = await second.call_tool("rigor_explain", {"rule": "flow.always-raises"})
        assert a.meta and b.meta
        assert a.meta["rigor/worker"]["pid"] == b.meta["rigor/worker"]["pid"]


async def test_progress_notifications_arrive_over_sse(fake_gateway: str) -> None:
    # The fake engine's `sleep` outlasts the gateway's 5 s progress interval.
    updates: list[tuple[float, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        updates.append((progress, message))

    async with session_for(fake_gateway) as session:
        result = await session.call_tool("sleep", {"seconds": 5.6}, progress_callback=on_progress)
        assert [block.text for block in result.content if isinstance(block, types.TextContent)] == ["slept"]
    assert updates, "no progress notification arrived"
    assert updates[0][1] is not None and "still running (5 s)" in updates[0][1]
