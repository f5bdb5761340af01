// The official TypeScript SDK (Client + StreamableHTTPClientTransport)
// against `rigor-mcp --transport http`.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { test } from "node:test";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

import { fakeEngine, gateway, project, toolNames } from "./common.mjs";

/** Starts the gateway on a free port; resolves with its URL and process. */
async function startGateway(...extra) {
  const child = spawn(gateway, ["--transport", "http", "--port", "0", "--root", project, ...extra], {
    cwd: project,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const url = await new Promise((resolve, reject) => {
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      const found = stderr.match(/serving MCP at (http:\/\/\S+\/mcp)/);
      if (found) resolve(found[1]);
    });
    child.on("exit", (code) => reject(new Error(`rigor-mcp exited (${code}): ${stderr}`)));
  });
  return {
    url,
    async stop() {
      child.kill("SIGTERM");
      const [code] = await once(child, "exit");
      assert.equal(code, 0, `rigor-mcp did not exit cleanly: ${stderr}`);
    },
  };
}

async function connect(url) {
  const client = new Client({ name: "rigor-interop-http", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

test("the TypeScript SDK lists the tools and gets real diagnostics over HTTP", async () => {
  const server = await startGateway();
  try {
    const { client, transport } = await connect(server.url);
    assert.match(transport.sessionId, /^[0-9a-f]{32}$/);
    assert.equal(client.getServerVersion().name, "rigor-mcp");
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), toolNames);
    const check = await client.callTool({ name: "rigor_check", arguments: { paths: ["lib"] } });
    assert.equal(check.isError, false);
    assert.equal(check.structuredContent.error_count, 1);
    const raising = check.structuredContent.diagnostics.find((d) => d.rule === "flow.always-raises");
    assert.deepEqual([raising.path, raising.line, raising.column], ["lib/bugs.rb", 11, 9]);

    // A second client is another session on the same worker.
    const other = await connect(server.url);
    assert.notEqual(other.transport.sessionId, transport.sessionId);
    const [a, b] = await Promise.all([
      client.callTool({ name: "rigor_explain", arguments: { rule: "flow.always-raises" } }),
      other.client.callTool({ name: "rigor_explain", arguments: { rule: "flow.always-raises" } }),
    ]);
    assert.equal(a._meta["rigor/worker"].pid, b._meta["rigor/worker"].pid);
    await other.transport.terminateSession();
    await other.client.close();
    await client.ping();
    await transport.terminateSession();
    await client.close();
  } finally {
    await server.stop();
  }
});

test("progress notifications reach the TypeScript SDK over SSE", async () => {
  const server = await startGateway("--engine", fakeEngine);
  try {
    const { client } = await connect(server.url);
    const updates = [];
    const result = await client.callTool(
      { name: "sleep", arguments: { seconds: 5.6 } },
      undefined,
      { onprogress: (progress) => updates.push(progress), resetTimeoutOnProgress: true },
    );
    assert.equal(result.content[0].text, "slept");
    assert.ok(updates.length >= 1, "no progress notification arrived");
    assert.match(updates[0].message, /still running \(5 s\)/);
    await client.close();
  } finally {
    await server.stop();
  }
});
