// The MCP Inspector CLI (0.15, which runs on Node 20) against rigor-mcp.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";

import { gateway, project, repository, toolNames } from "./common.mjs";

const run = promisify(execFile);
const inspector = path.join(repository, "protocol-tests", "node", "node_modules", ".bin", "mcp-inspector");

async function inspect(...args) {
  const { stdout } = await run(inspector, ["--cli", gateway, "--root", project, ...args], { cwd: project, timeout: 60_000 });
  return JSON.parse(stdout);
}

test("the Inspector CLI lists the tools", async () => {
  const { tools } = await inspect("--method", "tools/list");
  assert.deepEqual(tools.map((t) => t.name).sort(), toolNames);
});

test("the Inspector CLI calls rigor_check and rigor_explain", async () => {
  const check = await inspect("--method", "tools/call", "--tool-name", "rigor_check", "--tool-arg", 'paths=["lib"]');
  assert.equal(check.isError, false);
  assert.equal(check.structuredContent.error_count, 1);
  assert.equal(check.structuredContent.diagnostics.length, 5);
  const explain = await inspect("--method", "tools/call", "--tool-name", "rigor_explain", "--tool-arg", "rule=flow.always-raises");
  assert.match(explain.content[0].text, /ZeroDivisionError/);
});
