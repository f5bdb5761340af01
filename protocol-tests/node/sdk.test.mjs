// The official TypeScript SDK (Client + StdioClientTransport) against rigor-mcp.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";

import { fakeEngine, gateway, project, toolNames } from "./common.mjs";

async function connect() {
  const transport = new StdioClientTransport({ command: gateway, args: ["--root", project], cwd: project, stderr: "pipe" });
  const client = new Client({ name: "rigor-interop", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

test("the TypeScript SDK lists the tools and gets real diagnostics", async () => {
  const client = await connect();
  try {
    assert.equal(client.getServerVersion().name, "rigor-mcp");
    assert.match(client.getInstructions(), /Ruby type checker/);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), toolNames);
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, "object");
      assert.equal(tool.annotations.readOnlyHint, true);
    }
    // The SDK validates structuredContent against the declared outputSchema.
    const check = await client.callTool({ name: "rigor_check", arguments: { paths: ["lib"] } });
    assert.equal(check.isError, false);
    assert.equal(check.structuredContent.error_count, 1);
    const raising = check.structuredContent.diagnostics.find((d) => d.rule === "flow.always-raises");
    assert.deepEqual([raising.path, raising.line, raising.column], ["lib/bugs.rb", 11, 9]);
    assert.deepEqual(JSON.parse(check.content[0].text), check.structuredContent);

    const triage = await client.callTool({ name: "rigor_triage", arguments: { top: 2 } });
    assert.equal(triage.structuredContent.summary.total, 5);

    const unknownRule = await client.callTool({ name: "rigor_explain", arguments: { rule: "no.such-rule" } });
    assert.equal(unknownRule.isError, true);
    assert.match(unknownRule.content[0].text, /no\.such-rule/);

    await assert.rejects(client.callTool({ name: "rigor_nope", arguments: {} }), (error) => {
      assert.ok(error instanceof McpError);
      assert.equal(error.code, -32602);
      return true;
    });
    await client.ping();
  } finally {
    await client.close();
  }
});

test("progress notifications reach the TypeScript SDK's onprogress", async () => {
  // The fake engine's `sleep` tool outlasts the gateway's 5 s progress interval.
  const transport = new StdioClientTransport({ command: gateway, args: ["--engine", fakeEngine, "--root", project], cwd: project, stderr: "pipe" });
  const client = new Client({ name: "rigor-interop", version: "1.0.0" });
  await client.connect(transport);
  try {
    const updates = [];
    const result = await client.callTool(
      { name: "sleep", arguments: { seconds: 5.6 } },
      undefined,
      { onprogress: (progress) => updates.push(progress), resetTimeoutOnProgress: true },
    );
    assert.equal(result.content[0].text, "slept");
    assert.ok(updates.length >= 1, "no progress notification arrived");
    assert.match(updates[0].message, /still running \(5 s\)/);
  } finally {
    await client.close();
  }
});
