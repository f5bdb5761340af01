// Where the built gateway and the fixture project are, for every test here.
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const repository = path.resolve(here, "..", "..");
export const gateway = process.env.RIGOR_MCP_BIN ?? path.join(repository, "target", "debug", "rigor-mcp");
export const project = path.join(repository, "protocol-tests", "fixtures", "project");
// Sorted by name.
export const toolNames = ["rigor_annotate", "rigor_check", "rigor_coverage", "rigor_explain", "rigor_sig_gen", "rigor_triage", "rigor_type_of"];
export const fakeEngine = path.join(repository, "protocol-tests", "fixtures", "fake-engine", "fake-engine");
