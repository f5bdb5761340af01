//! Analysing files: read, parse, run the enabled rules, and turn findings
//! into diagnostics with severities resolved for the active settings.

use std::sync::{Arc, OnceLock};

use crate::diagnostic::{Diagnostic, Severity};
use crate::infer::WalkedTree;
use crate::infer::{self, FileTypes, Prior, ProgramIndex, ProjectLink};
use crate::model::index::{Dep, FileExports, FileInterface, ProjectIndex};
use crate::model::params::ParameterPolicy;
use crate::rbs::Environment;
use crate::rbs::{self, Signatures};
use crate::rules::project::ProjectFacts;
use crate::rules::{self, Finding, Profile, RuleContext, RuleInfo};
use crate::stack_guard::{self, Failure};
use crate::suppression::Suppressions;
use crate::syntax::{ParsedFile, RubyVersion};

/// What decides which rules run and how severe they are.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    pub profile: Profile,
    /// Tokens (id, alias, family, `all`) of rules switched off.
    pub disabled: Vec<String>,
    /// Token to severity (`None` = off); an exact id beats a family.
    pub overrides: Vec<(String, Option<Severity>)>,
    /// The Ruby grammar files are parsed with.
    pub target_ruby: RubyVersion,
    /// Rules still being proven, switched on by `bleeding_edge`.
    pub bleeding_edge: BleedingEdge,
    /// What code is typed against; `None`: the rbs gem's core signatures.
    pub signatures: Option<Arc<Signatures>>,
    /// Which methods' parameters are typed from the project's calls.
    pub parameter_inference: ParameterPolicy,
}

/// The `bleeding_edge` setting: which experimental rules run.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum BleedingEdge {
    #[default]
    Off,
    All,
    /// Tokens (id, alias, family) of the experimental rules switched on.
    Only(Vec<String>),
}

impl BleedingEdge {
    fn covers(&self, rule: &RuleInfo) -> bool {
        match self {
            BleedingEdge::Off => false,
            BleedingEdge::All => true,
            BleedingEdge::Only(tokens) => tokens.iter().any(|token| rule.matches_token(token)),
        }
    }
}

impl Settings {
    /// The severity a rule reports with, or `None` when it is off.
    pub fn severity_of(&self, rule: &RuleInfo) -> Option<Severity> {
        if self.disabled.iter().any(|token| rule.matches_token(token)) {
            return None;
        }
        let exact = self.overrides.iter().find(|(token, _)| token == rule.id || rule.aliases.contains(&token.as_str()));
        let family = self.overrides.iter().find(|(token, _)| token == rule.family());
        match exact.or(family) {
            Some((_, severity)) => *severity,
            None if rules::is_bleeding_edge(rule) && self.bleeding_edge.covers(rule) => Some(rule.authored),
            None => rule.severity(self.profile),
        }
    }
}

/// Everything `check` learned about one file.
#[derive(Debug, Clone)]
pub struct FileReport {
    pub path: String,
    pub diagnostics: Vec<Diagnostic>,
    pub parse_errors: usize,
}

pub fn unreadable(display: &str, reason: &str) -> FileReport {
    FileReport {
        path: display.to_string(),
        diagnostics: vec![Diagnostic::without_rule(display, 1, 1, format!("cannot read {display}: {reason}"))],
        parse_errors: 0,
    }
}

/// Runs `work` on an analysis thread, whose stack is deep enough for
/// real code (see `stack_guard`).
pub fn on_analysis_thread<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    analysis_pool().install(work)
}

/// Starts `work` on an analysis thread, not waiting for it: work a later
/// step wants, begun while the caller runs something serial. A panic in it
/// is dropped (a panic in a spawned job would abort the process): the step
/// that wants the work does it again, where its failure is reported.
pub fn spawn_on_analysis_thread(work: fn()) {
    analysis_pool().spawn(move || {
        let _ = std::panic::catch_unwind(work);
    });
}

static POOL: OnceLock<rayon::ThreadPool> = OnceLock::new();
/// How many analysis threads to start (`--workers`); 0: one per core.
static WORKERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Asks for `workers` analysis threads. The pool starts once per process,
/// so this takes effect only before the first analysis: on `Err` the pool
/// already runs with that many threads.
pub fn set_workers(workers: usize) -> Result<(), usize> {
    WORKERS.store(workers, std::sync::atomic::Ordering::SeqCst);
    let threads = analysis_pool().current_num_threads();
    if threads == workers {
        Ok(())
    } else {
        Err(threads)
    }
}

/// Threads with stacks deep enough for real code; see `stack_guard`.
fn analysis_pool() -> &'static rayon::ThreadPool {
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(WORKERS.load(std::sync::atomic::Ordering::SeqCst))
            .stack_size(stack_guard::ANALYSIS_STACK)
            .thread_name(|i| format!("rigor-analysis-{i}"))
            .build()
            .expect("cannot start analysis threads")
    })
}

/// The signatures the settings name, else the rbs gem's core (cached).
pub fn signatures_of(settings: &Settings) -> Arc<Signatures> {
    match &settings.signatures {
        Some(signatures) => signatures.clone(),
        None => rbs::load(&crate::signatures::request()),
    }
}

/// Parses and checks one file's text, as a project of its own: the same
/// steps a project of many files takes (facts, structure, exports, then
/// the analysis against them), with one file.
pub fn analyse_source(display: &str, source: &[u8], settings: &Settings) -> FileReport {
    let signatures = signatures_of(settings);
    let env = &signatures.env;
    let (interface, facts) = facts_of(display, source, settings.target_ruby, env);
    let structure = Arc::new(ProjectIndex::structure(&[(display, &interface)], env));
    let exports = exports_of(source, settings.target_ruby, env, ProjectLink::new(structure.clone(), 0)).exports;
    let structure =
        Arc::try_unwrap(structure).unwrap_or_else(|_| ProjectIndex::structure(&[(display, &interface)], env));
    let index = Arc::new(structure.with_exports(&[Some(&exports)]));
    let facts = facts.settle();
    analyse_with_link(display, source, None, settings, &facts, Some(ProjectLink::new(index, 0)), None).0
}

/// What a file defines, read off its syntax alone: its interface for the
/// project index and its facts for the rules. A file that does not parse
/// defines nothing (its recovered tree is Prism's guess, not the code).
pub fn facts_of(
    display: &str,
    source: &[u8],
    version: RubyVersion,
    env: &Environment,
) -> (FileInterface, ProjectFacts) {
    facts_of_parsed(display, &ParsedFile::parse_as(source, version), None, env)
}

/// [`facts_of`] a file already parsed, and maybe walked (`walk`).
pub fn facts_of_parsed<'t>(
    display: &str,
    parsed: &'t ParsedFile<'t>,
    walk: Option<ProgramIndex<'t>>,
    env: &Environment,
) -> (FileInterface, ProjectFacts) {
    stack_guard::guarded(|| {
        if parsed.result.errors().next().is_some() {
            return (FileInterface::default(), ProjectFacts::default());
        }
        let index = ProgramIndex::completing(walk, &parsed.root(), env, None);
        (index.interface(), ProjectFacts::of_file(parsed, display))
    })
    .unwrap_or_default()
}

/// What a file exports to the others, inferred against the structure
/// behind `link`.
pub struct Exported {
    pub exports: FileExports,
    /// The project facts that inference read.
    pub reads: Vec<Dep>,
    /// Its types: an analysis asking the same questions reuses them.
    pub types: Option<FileTypes>,
    /// What its pass one learned: an analysis whose pass one would ask the
    /// same questions starts after it.
    pub pass_one: Option<infer::PassOne>,
    /// Each `def`'s walk: an analysis takes those whose reads stand.
    pub recording: Option<infer::replay::Recording>,
}

pub fn exports_of(source: &[u8], version: RubyVersion, env: &Environment, link: ProjectLink) -> Exported {
    exports_of_parsed(&ParsedFile::parse_as(source, version), None, env, link)
}

/// [`exports_of`] a file already parsed, and maybe walked (`walk`).
pub fn exports_of_parsed<'t>(
    parsed: &'t ParsedFile<'t>,
    walk: Option<ProgramIndex<'t>>,
    env: &Environment,
    link: ProjectLink,
) -> Exported {
    stack_guard::guarded(|| {
        if parsed.result.errors().next().is_some() {
            return Exported {
                exports: FileExports::default(),
                reads: Vec::new(),
                types: None,
                pass_one: None,
                recording: None,
            };
        }
        let mut inference = infer::infer_for_exports(parsed, env, link, walk);
        let (mut exports, reads) = (inference.exports(), inference.project_reads());
        let policy = inference.index.project.as_ref().map_or(ParameterPolicy::Off, |p| p.index.policy);
        if policy != ParameterPolicy::Off {
            let (names, prefixes, suffixes, infixes) = infer::escaped_names(&parsed.root(), policy);
            exports.calls.escaped.extend(names);
            exports.calls.escaped.sort();
            exports.calls.escaped.dedup();
            exports.calls.escaped_prefixes = prefixes;
            exports.calls.escaped_suffixes = suffixes;
            exports.calls.escaped_infixes = infixes;
        }
        let pass_one = inference.pass_one.take();
        let recording = inference.recording.take();
        Exported { exports, reads, types: Some(inference.types), pass_one, recording }
    })
    .unwrap_or_else(|_| Exported {
        exports: FileExports::default(),
        reads: Vec::new(),
        types: None,
        pass_one: None,
        recording: None,
    })
}

/// Checks one file of a project whose definitions are `project`.
pub fn analyse_in_project(display: &str, source: &[u8], settings: &Settings, project: &ProjectFacts) -> FileReport {
    analyse_with_link(display, source, None, settings, project, None, None).0
}

/// Checks one file of a project, its inference reading the project index
/// behind `link`; also says which project facts the analysis read. `kept`
/// is `source` parsed (with the settings' grammar) and walked already, if
/// it was.
#[allow(clippy::too_many_arguments)]
pub fn analyse_with_link(
    display: &str,
    source: &[u8],
    kept: Option<&mut WalkedTree>,
    settings: &Settings,
    project: &ProjectFacts,
    link: Option<ProjectLink>,
    reused: Option<Prior>,
) -> (FileReport, Vec<Dep>) {
    let mut reads = Vec::new();
    let job = Job { display, settings, project, link, reused };
    let grammar = settings.target_ruby;
    let outcome =
        stack_guard::guarded(|| infer::on_parse(kept, source, grammar, |parsed, walk| rules_on(parsed, walk, job)))
            .and_then(|outcome| outcome);
    let (mut diagnostics, parse_errors) = match outcome {
        Ok((diagnostics, errors, read)) => {
            reads = read;
            (diagnostics, errors)
        }
        Err(failure) => (vec![analysis_failure(display, failure)], 0),
    };
    diagnostics.sort_by(|a, b| a.position_key().cmp(&b.position_key()));
    (FileReport { path: display.to_string(), diagnostics, parse_errors }, reads)
}

/// One file's analysis: the file as reported, and what it is checked
/// against.
struct Job<'a> {
    display: &'a str,
    settings: &'a Settings,
    project: &'a ProjectFacts,
    link: Option<ProjectLink>,
    reused: Option<Prior>,
}

/// The parse errors of one parsed file, else the rules' findings, with
/// what they read of the project.
fn rules_on<'t>(
    parsed: &'t ParsedFile<'t>,
    walk: Option<ProgramIndex<'t>>,
    job: Job<'_>,
) -> Result<(Vec<Diagnostic>, usize, Vec<Dep>), Failure> {
    let display = job.display;
    stack_guard::guarded(|| {
        let errors = parsed.errors();
        let mut diagnostics: Vec<Diagnostic> = errors
            .iter()
            .map(|(offset, message)| {
                let (line, column) = parsed.lines().position(*offset);
                Diagnostic::without_rule(display, line, column, message.clone())
            })
            .collect();
        let mut reads = Vec::new();
        if errors.is_empty() {
            diagnostics.extend(run_rules(parsed, walk, job, &mut reads));
        }
        (diagnostics, errors.len(), reads)
    })
}

/// Runs the enabled rules (`disable:` and the profile switch the others
/// off), then drops what the file's markers silence.
fn run_rules<'t>(
    parsed: &'t ParsedFile<'t>,
    walk: Option<ProgramIndex<'t>>,
    job: Job<'_>,
    reads: &mut Vec<Dep>,
) -> Vec<Diagnostic> {
    let Job { display, settings, project, link, reused } = job;
    let signatures = signatures_of(settings);
    let env = &signatures.env;
    let context = RuleContext::new(parsed, display, env, project).in_project(link, reused).walked(walk);
    let suppressions = Suppressions::of(context.markers());
    let mut diagnostics = Vec::new();
    for rule in rules::all() {
        let Some(severity) = settings.severity_of(rule) else { continue };
        let mut findings = Vec::new();
        (rule.check)(&context, &mut findings);
        for finding in findings {
            let (line, column) = parsed.lines().position(finding.offset);
            if !suppressions.covers(finding.rule, line) {
                diagnostics.push(into_diagnostic(finding, display, line, column, severity));
            }
        }
    }
    if let Some(inference) = context.inference_if_run() {
        *reads = inference.project_reads();
    }
    reads.extend(context.project.names_read().into_iter().map(Dep::FactName));
    diagnostics
}

fn into_diagnostic(finding: Finding, path: &str, line: usize, column: usize, severity: Severity) -> Diagnostic {
    Diagnostic {
        path: path.to_string(),
        line,
        column,
        severity,
        rule: Some(finding.rule.id),
        source_family: "builtin",
        message: finding.message,
        receiver_type: finding.receiver_type,
        method_name: finding.method_name,
        evidence_tier: Some(finding.rule.evidence),
        documentation_url: Some(finding.rule.documentation_url()),
    }
}

fn analysis_failure(display: &str, failure: Failure) -> Diagnostic {
    let mut diagnostic = match failure {
        Failure::TooDeep => Diagnostic::without_rule(
            display,
            1,
            1,
            "analysis skipped: the code is nested too deeply for the engine's stack; no rule ran on this file".into(),
        ),
        Failure::Panic(message) => Diagnostic::without_rule(
            display,
            1,
            1,
            format!("internal error while analysing this file ({message}); please report it with the file attached"),
        ),
    };
    diagnostic.severity = Severity::Warning;
    diagnostic
}
