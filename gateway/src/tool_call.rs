//! `tools/call`: from MCP arguments to an engine run and back to an MCP
//! result. Only exit 64 and failed calls are `isError` (ADR-33 WD6):
//! exit 1 means "diagnostics found", a normal result.

use std::sync::Arc;

use serde_json::{json, Map, Value};
use tokio_util::sync::CancellationToken;

use crate::catalogue::{Catalogue, Tool};
use crate::confine;
use crate::gateway::Gateway;
use crate::mcp::jsonrpc::{kind_of, object, ErrorCode, Params, RpcError};
use crate::supervisor::{CallFailure, CallOutcome, CatalogueState, PendingCall};

const EXIT_USAGE: i32 = 64;

/// A `tools/call` after validation: either answered already (a JSON-RPC
/// error or an error result) or queued on the worker.
pub enum Prepared {
    Answered(Result<Value, RpcError>),
    Queued { catalogue: Arc<Catalogue>, name: String, argv: Vec<String>, pending: PendingCall },
}

impl Prepared {
    /// The final answer: waits for the worker when the call was queued.
    pub async fn answer(self) -> Result<Value, RpcError> {
        match self {
            Prepared::Answered(answer) => answer,
            Prepared::Queued { catalogue, name, argv, pending } => {
                let outcome = pending.outcome().await;
                match catalogue.get(&name) {
                    Some(tool) => Ok(to_result(tool, &catalogue.server.meta_key, argv, outcome)),
                    None => Err(RpcError::new(ErrorCode::InternalError, format!("tool {name} vanished"))),
                }
            }
        }
    }
}

/// Validates one `tools/call` and queues it. `Err` answers are JSON-RPC
/// errors (malformed params, unknown tool); everything else is a tool result.
pub async fn prepare(gateway: &Gateway, params: &Params, cancel: CancellationToken) -> Prepared {
    match validate(gateway, params).await {
        Ok((catalogue, name, argv, timeout)) => {
            tracing::debug!(tool = %name, argv = ?argv, "calling the engine");
            let pending = gateway.supervisor.submit(argv.clone(), gateway.root.clone(), timeout, cancel).await;
            Prepared::Queued { catalogue, name, argv, pending }
        }
        Err(answer) => Prepared::Answered(answer),
    }
}

type Validated = (Arc<Catalogue>, String, Vec<String>, Option<std::time::Duration>);

async fn validate(gateway: &Gateway, params: &Params) -> Result<Validated, Result<Value, RpcError>> {
    let params = params.object().map_err(Err)?;
    let name = match params.get("name") {
        Some(Value::String(name)) => name.clone(),
        Some(other) => return Err(Err(invalid_params(format!("`name` must be a string, not {}", kind_of(other))))),
        None => return Err(Err(invalid_params("tools/call needs `name`, the tool to call".into()))),
    };
    let no_arguments = Value::Object(Map::new());
    let arguments = match params.get("arguments") {
        None | Some(Value::Null) => &no_arguments,
        Some(arguments @ Value::Object(_)) => arguments,
        Some(other) => {
            return Err(Err(invalid_params(format!("`arguments` must be an object, not {}", kind_of(other)))))
        }
    };
    let catalogue = match gateway.supervisor.catalogue().await {
        CatalogueState::Ready(catalogue) => catalogue,
        CatalogueState::Unavailable(reason) => {
            return Err(Ok(error_result(format!("The engine is not available: {reason}"))))
        }
        CatalogueState::Starting => return Err(Ok(error_result("The engine is still starting; try again.".into()))),
    };
    let Some(tool) = catalogue.get(&name) else {
        return Err(Err(invalid_params(format!(
            "unknown tool `{name}`; available tools: {}",
            catalogue.names().join(", ")
        ))));
    };
    if let Err(problems) = tool.check_input(arguments) {
        return Err(Ok(error_result(format!(
            "Invalid arguments for {name}: {problems}. The input schema is in tools/list."
        ))));
    }
    let synthesized = tool
        .template
        .synthesize(arguments.as_object().expect("checked to be an object"), &gateway.session_defaults)
        .map_err(|problem| Ok(error_result(format!("Invalid arguments for {name}: {problem}"))))?;
    for path in &synthesized.paths {
        if let Err(problem) = confine::check(&gateway.root, path) {
            return Err(Ok(error_result(format!(
                "Refused {name}: {problem}. Paths must stay inside the project root."
            ))));
        }
    }
    let timeout = tool.timeout;
    Ok((catalogue.clone(), name, synthesized.argv, timeout))
}

fn invalid_params(message: String) -> RpcError {
    RpcError::new(ErrorCode::InvalidParams, message)
}

pub fn error_result(text: String) -> Value {
    text_result(text, true)
}

/// `{"content": [{"type": "text", "text": …}], "isError": …}`, the text
/// moved in, not copied: it can be a whole project's diagnostics.
fn text_result(text: String, is_error: bool) -> Value {
    object([("content", Value::Array(vec![text_content(text)])), ("isError", is_error.into())])
}

fn text_content(text: String) -> Value {
    object([("type", "text".into()), ("text", text.into())])
}

/// The tool result; the worker's details go under `_meta[meta_key]`.
fn to_result(tool: &Tool, meta_key: &str, argv: Vec<String>, outcome: Result<CallOutcome, CallFailure>) -> Value {
    let mut outcome = match outcome {
        Ok(outcome) => outcome,
        Err(failure) => return error_result(format!("{} call failed: {failure}", tool.name)),
    };
    let reply = &mut outcome.reply;
    let mut worker = object([
        ("pid", outcome.worker_pid.into()),
        ("engine", outcome.engine.to_string().into()),
        ("argv", argv.into()),
        ("exit_code", reply.exit_code.into()),
        ("elapsed_ms", reply.elapsed_ms.into()),
    ]);
    if let Some(Value::Object(details)) = reply.meta.take() {
        for (key, value) in details {
            // The gateway's own fields win over an engine's.
            worker.as_object_mut().expect("an object").entry(key).or_insert(value);
        }
    }
    if let Some(notice) = &outcome.notice {
        worker["notice"] = json!(notice);
    }
    if let Some(reload) = &outcome.reload {
        worker["reload"] =
            json!({"build_ms": reload.build.as_secs_f64() * 1e3, "restart_ms": reload.restart.as_secs_f64() * 1e3});
    }
    let mut result = match reply.exit_code {
        0 | 1 => normal_result(tool, std::mem::take(&mut reply.stdout), &reply.stderr),
        EXIT_USAGE => error_result(format!(
            // Exit 64 is a usage error: the call's arguments, or the
            // project's own files (a broken `.rigor.yml` or baseline, a
            // configured path that is missing). The engine's message says which.
            "{} was refused by the engine (exit 64, a usage error in the call's arguments or the project's configuration): {}",
            tool.name,
            first_nonempty(&reply.stderr, &reply.stdout)
        )),
        code => error_result(format!(
            "{} failed: the engine exited with code {code}: {}",
            tool.name,
            first_nonempty(&reply.stderr, &reply.stdout)
        )),
    };
    // The notice comes first, so neither a model nor a person misses it.
    if let Some(notice) = &outcome.notice {
        if let Some(content) = result["content"].as_array_mut() {
            content.insert(0, text_content(format!("NOTICE: {notice}")));
        }
    }
    let mut meta = Map::with_capacity(1);
    meta.insert(meta_key.to_string(), worker);
    result["_meta"] = Value::Object(meta);
    result
}

/// A result for exit 0 or 1: the output as text, plus structured content
/// when the tool declares an output schema (which it must then satisfy:
/// official clients reject a mismatch).
fn normal_result(tool: &Tool, stdout: String, stderr: &str) -> Value {
    // A command that failed with exit 1 (a missing file, a parse error) may
    // say why only on stderr; an empty answer would hide it.
    if stdout.trim().is_empty() && !stderr.trim().is_empty() {
        let text = stderr.trim();
        if tool.has_output_schema() {
            return error_result(format!("{} produced no result: {text}", tool.name));
        }
        return text_result(text.to_string(), false);
    }
    let mut structured = None;
    if tool.has_output_schema() {
        let value = match serde_json::from_str::<Value>(&stdout) {
            Ok(value @ Value::Object(_)) => value,
            Ok(other) => {
                return error_result(format!(
                    "{}: the engine's output is {}, not the JSON object its outputSchema promises",
                    tool.name,
                    kind_of(&other)
                ))
            }
            Err(error) => return error_result(format!("{}: the engine's output is not JSON ({error})", tool.name)),
        };
        if let Err(problems) = tool.check_output(&value) {
            return error_result(format!(
                "{}: the engine's output does not match its outputSchema: {problems}",
                tool.name
            ));
        }
        structured = Some(value);
    }
    // The output moves into the result, not copied: it can be large.
    let mut result = text_result(stdout, false);
    if let Some(structured) = structured {
        result["structuredContent"] = structured;
    }
    result
}

fn first_nonempty<'a>(first: &'a str, second: &'a str) -> &'a str {
    let first = first.trim();
    if first.is_empty() {
        second.trim()
    } else {
        first
    }
}
