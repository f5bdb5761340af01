//! The MCP tools this engine offers, announced in the worker's hello.
//! Each tool carries its MCP fields and an argv template (see
//! docs/worker-protocol.md) that the gateway turns into `rigor <argv>`.

use serde_json::{json, Value};

const READ_ONLY: fn() -> Value = || {
    json!({
        "readOnlyHint": true,
        "destructiveHint": false,
        "idempotentHint": true,
        "openWorldHint": false
    })
};

fn config_property() -> Value {
    json!({
        "type": "string",
        "description": "Path of a Rigor configuration file, relative to the project root. Default: the gateway's --config, else .rigor.yml or .rigor.dist.yml in the root."
    })
}

fn config_flag() -> Value {
    json!({"flag": "--config", "arg": "config", "path": true, "session_default": "config"})
}

fn diagnostic_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "line": {"type": "integer"},
            "column": {"type": "integer"},
            "severity": {"enum": ["error", "warning", "info"]},
            "rule": {"type": ["string", "null"]},
            "source_family": {"type": "string"},
            "message": {"type": "string"},
            "receiver_type": {"type": "string"},
            "method_name": {"type": "string"},
            "evidence_tier": {"enum": ["high", "medium", "low"]},
            "documentation_url": {"type": "string"}
        },
        "required": ["path", "line", "column", "severity", "rule", "message"]
    })
}

fn check() -> Value {
    json!({
        "name": "rigor_check",
        "title": "Check Ruby files",
        "description": "Analyse Ruby files with Rigor and return its diagnostics as JSON: {success, error_count, diagnostics: [{path, line, column, severity, rule, message, ...}]}. Lines and columns are 1-based (columns count bytes). Finding diagnostics is a normal result, not a tool error. Directories expand to their .rb files. Use rigor_explain to learn what a rule means.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "paths": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "Files or directories to check, relative to the project root. An empty list checks the configured paths (default: lib)."
                },
                "config": config_property()
            },
            "required": ["paths"],
            "additionalProperties": false
        },
        "outputSchema": {
            "type": "object",
            "properties": {
                "success": {"type": "boolean"},
                "error_count": {"type": "integer"},
                "diagnostics": {"type": "array", "items": diagnostic_schema()},
                "fail_on": {"type": "string"},
                "config_warnings": {"type": "array"}
            },
            "required": ["success", "error_count", "diagnostics"]
        },
        "annotations": READ_ONLY(),
        "argv": ["check", "--format=json", "--no-stats", config_flag(), "--", {"spread": "paths", "path": true}]
    })
}

fn explain() -> Value {
    json!({
        "name": "rigor_explain",
        "title": "Explain Rigor rules",
        "description": "Describe the rules Rigor's check implements: for each, its id, aliases, summary, when it fires and when it does not, an example, its severity under the lenient/balanced/strict profiles and a documentation URL. Give a rule id (e.g. flow.dead-assignment), a legacy alias or a family (e.g. flow); omit it to list every rule.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "rule": {"type": "string", "description": "Rule id, alias or family; omit for all rules."}
            },
            "additionalProperties": false
        },
        "annotations": READ_ONLY(),
        "argv": ["explain", "--format=json", "--", {"arg": "rule"}]
    })
}

fn triage() -> Value {
    json!({
        "name": "rigor_triage",
        "title": "Triage diagnostics",
        "description": "Summarise Rigor's diagnostics for a project to plan a clean-up: totals by severity, distribution by rule, hotspot files, receiver#method selectors, and hints with a suggested action each. Built from the same diagnostics as rigor_check.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "paths": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "Files or directories, relative to the project root (default: the configured paths, else lib)."
                },
                "top": {"type": "integer", "minimum": 1, "description": "How many hotspots and selectors to list (default 10)."},
                "config": config_property()
            },
            "additionalProperties": false
        },
        "outputSchema": {
            "type": "object",
            "properties": {
                "summary": {
                    "type": "object",
                    "properties": {
                        "total": {"type": "integer"},
                        "error": {"type": "integer"},
                        "warning": {"type": "integer"},
                        "info": {"type": "integer"}
                    },
                    "required": ["total", "error", "warning", "info"]
                },
                "distribution": {"type": "array"},
                "selectors": {"type": "array"},
                "hotspots": {"type": "array"},
                "hints": {"type": "array"}
            }
        },
        "annotations": READ_ONLY(),
        "argv": ["triage", "--format=json", {"flag": "--top", "arg": "top"}, config_flag(), "--", {"spread": "paths", "path": true}]
    })
}

/// The tools, in the order `tools/list` shows them.
pub fn tools() -> Vec<Value> {
    vec![check(), triage(), explain()]
}
