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
        "description": "Analyse Ruby files with Rigor and return its diagnostics as JSON: {success, error_count, diagnostics: [{path, line, column, severity, rule, message, ...}]}. Lines and columns are 1-based (columns count bytes). Finding diagnostics is a normal result, not a tool error. Directories expand to their .rb files. Use rigor_explain to learn what a rule means. Findings the project's baseline (.rigor-baseline.yml) records are hidden and counted in `baseline.hidden`; no_baseline shows them. Read-only: it never writes a baseline.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "paths": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "Files or directories to check, relative to the project root. An empty list checks the configured paths (default: lib)."
                },
                "no_baseline": {
                    "type": "boolean",
                    "description": "Report every finding, including those the project's baseline (.rigor-baseline.yml) hides. Default false: the baseline is honoured."
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
                "config_warnings": {"type": "array"},
                "baseline": {
                    "type": "object",
                    "properties": {
                        "path": {"type": "string"},
                        "hidden": {"type": "integer"},
                        "strict": {"type": "boolean"},
                        "stale": {"type": "array"}
                    },
                    "required": ["path", "hidden"]
                }
            },
            "required": ["success", "error_count", "diagnostics"]
        },
        "annotations": READ_ONLY(),
        "argv": ["check", "--format=json", "--no-stats", {"flag": "--no-baseline", "arg": "no_baseline"}, config_flag(), "--", {"spread": "paths", "path": true}]
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

fn type_of() -> Value {
    let answer = json!({
        "type": "object",
        "properties": {
            "file": {"type": "string"},
            "line": {"type": "integer"},
            "column": {"type": "integer"},
            "node": {"type": "string"},
            "type": {"type": "string"},
            "erased": {"type": "string"},
            "error": {"type": "string"}
        },
        "required": ["file", "line", "column"]
    });
    let mut single = answer.clone();
    single["properties"]["results"] = json!({"type": "array", "items": answer});
    single["required"] = json!([]);
    json!({
        "name": "rigor_type_of",
        "title": "Type of an expression",
        "description": "Infer the type of the innermost Ruby expression at a position (1-based line and byte column) and return JSON: {file, line, column, node (its Prism class, e.g. Prism::CallNode), type (Rigor's display, e.g. Array[String], \"hi\", Integer?), erased (the nearest RBS type)}. `untyped` means Rigor cannot tell. When the file is missing, does not parse or has no expression there, the JSON carries `error` instead of a type. Give either file, line and col, or `positions` to ask for several at once (each file is parsed once): then the answer is {results: [...]}, one entry per position in the order given, each with a type or an `error`. A single position answers in the single form.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "file": {"type": "string", "description": "Ruby file, relative to the project root."},
                "line": {"type": "integer", "minimum": 1, "description": "1-based line."},
                "col": {"type": "integer", "minimum": 1, "description": "1-based column, counted in bytes."},
                "positions": {
                    "type": "array",
                    "minItems": 1,
                    "description": "Several positions instead of file/line/col.",
                    "items": {
                        "type": "object",
                        "properties": {
                            "file": {"type": "string", "description": "Ruby file, relative to the project root."},
                            "line": {"type": "integer", "minimum": 1},
                            "col": {"type": "integer", "minimum": 1, "description": "Counted in bytes."}
                        },
                        "required": ["file", "line", "col"],
                        "additionalProperties": false
                    }
                },
                "config": config_property()
            },
            "dependentRequired": {"file": ["line", "col"], "line": ["file", "col"], "col": ["file", "line"]},
            "additionalProperties": false
        },
        "outputSchema": single,
        "annotations": READ_ONLY(),
        "argv": [
            "type-of", "--format=json", config_flag(), "--",
            {"join": "{file}:{line}:{col}", "path": true},
            {"spread": "positions", "join": "{file}:{line}:{col}", "path": true}
        ]
    })
}

fn annotate() -> Value {
    json!({
        "name": "rigor_annotate",
        "title": "Annotate a Ruby file with types",
        "description": "Return a Ruby file reprinted with the inferred type of each line appended as an aligned `#=> type` comment: the value of the statement ending on the line, a method's return type on its `def` line. Plain text. Useful to see at a glance what Rigor knows about a file; `untyped` means it cannot tell.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "file": {"type": "string", "description": "Ruby file, relative to the project root."},
                "config": config_property()
            },
            "required": ["file"],
            "additionalProperties": false
        },
        "annotations": READ_ONLY(),
        "argv": ["annotate", "--no-color", config_flag(), "--", {"arg": "file", "path": true}]
    })
}

fn coverage() -> Value {
    let tiers: serde_json::Map<String, Value> = crate::types::Tier::ALL
        .iter()
        .map(|tier| {
            let counted = json!({
                "type": "object",
                "properties": {"count": {"type": "integer"}, "ratio": {"type": "number"}},
                "required": ["count", "ratio"]
            });
            (tier.key().to_string(), counted)
        })
        .collect();
    json!({
        "name": "rigor_coverage",
        "title": "Type coverage",
        "description": "Measure how precisely Rigor types the expressions of Ruby files: JSON with summary {files_processed, parse_errors, expressions_typed, precise_count, precise_ratio, dynamic_opaque_count, ...}, by_tier (constant, nominal, shaped, refined, bot, dynamic_specific, dynamic_top, top), by_file and parse_errors. Precise = constant + nominal + shaped + refined + bot. Directories expand to their .rb files.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "paths": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "Files or directories, relative to the project root. An empty list measures the configured paths (default: lib)."
                },
                "config": config_property()
            },
            "required": ["paths"],
            "additionalProperties": false
        },
        "outputSchema": {
            "type": "object",
            "properties": {
                "summary": {
                    "type": "object",
                    "properties": {
                        "files_processed": {"type": "integer"},
                        "parse_errors": {"type": "integer"},
                        "expressions_typed": {"type": "integer"},
                        "precise_count": {"type": "integer"},
                        "precise_ratio": {"type": "number"},
                        "dynamic_opaque_count": {"type": "integer"},
                        "dynamic_opaque_ratio": {"type": "number"},
                        "dynamic_specific_count": {"type": "integer"},
                        "dynamic_specific_ratio": {"type": "number"}
                    },
                    "required": ["files_processed", "parse_errors", "expressions_typed", "precise_count", "precise_ratio"]
                },
                "by_tier": {"type": "object", "properties": tiers},
                "by_file": {"type": "array"},
                "parse_errors": {"type": "array"},
                "config_warnings": {"type": "array"}
            },
            "required": ["summary", "by_tier", "by_file", "parse_errors"]
        },
        "annotations": READ_ONLY(),
        "argv": ["coverage", "--format=json", config_flag(), "--", {"spread": "paths", "path": true}]
    })
}

fn sig_gen() -> Value {
    json!({
        "name": "rigor_sig_gen",
        "title": "Generate RBS signatures",
        "description": "Propose RBS signatures for the methods of Ruby files from their inferred return types, compared with the signatures the project already has. Returns JSON {candidates: [{file, class, method, kind (instance|singleton), classification, rbs, inferred_return, declared_return_rbs?, skip_reason?}]}: classification is new_file (the class has no signature), new_method, tighter_return (the declared return is strictly wider; declared_return_rbs says what it was) or skipped (skip_reason such as sig.skipped.untyped-return or sig.skipped.complex-shape). `rbs` is a declaration line that parses as RBS. Read-only: it never writes sig/ files (the CLI's `rigor sig-gen --write` does).",
        "inputSchema": {
            "type": "object",
            "properties": {
                "paths": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "Files or directories, relative to the project root (default: the configured paths, else lib)."
                },
                "params": {
                    "type": "string",
                    "enum": ["untyped", "observed"],
                    "description": "Parameter types: untyped (the default), or observed from the argument types of calls in the analysed files."
                },
                "config": config_property()
            },
            "additionalProperties": false
        },
        "outputSchema": {
            "type": "object",
            "properties": {
                "candidates": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "file": {"type": "string"},
                            "class": {"type": "string"},
                            "method": {"type": "string"},
                            "kind": {"enum": ["instance", "singleton"]},
                            "classification": {"enum": ["new_file", "new_method", "tighter_return", "equivalent", "skipped"]},
                            "rbs": {"type": ["string", "null"]},
                            "inferred_return": {"type": ["string", "null"]},
                            "declared_return_rbs": {"type": "string"},
                            "skip_reason": {"type": "string"}
                        },
                        "required": ["file", "class", "method", "kind", "classification", "rbs", "inferred_return"]
                    }
                }
            },
            "required": ["candidates"]
        },
        "annotations": READ_ONLY(),
        "argv": ["sig-gen", "--print", "--format=json", {"flag": "--params", "arg": "params"}, config_flag(), "--", {"spread": "paths", "path": true}]
    })
}

/// The tools, in the order `tools/list` shows them.
pub fn tools() -> Vec<Value> {
    vec![check(), triage(), explain(), type_of(), annotate(), coverage(), sig_gen()]
}

/// Who the server is (the hello's `server`): what MCP clients see, which
/// variables the gateway passes to the worker, the `_meta` key of results.
pub fn server() -> Value {
    json!({
        "name": "rigor-mcp",
        "title": "Rigor",
        "instructions": "Rigor is a Ruby type checker. Its tools analyse the Ruby files of the project root (paths are relative to it). Call rigor_check before proposing a refactor: it returns JSON diagnostics, and finding diagnostics is a normal result, not an error. rigor_type_of gives the inferred type of the expression at a file position, rigor_annotate shows a file with the type of each line, and rigor_coverage measures how precisely code is typed. rigor_triage summarises a whole project; rigor_explain describes a rule.",
        "env_prefix": "RIGOR_",
        "meta_key": "rigor/worker",
    })
}
