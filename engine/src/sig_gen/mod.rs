//! Signature generation: RBS for the methods of the analysed Ruby files,
//! from their inferred return types, classified against the signatures
//! already known (reference section 1, `sig-gen`).

mod classify;
mod compare;
pub mod diff;
pub mod layout_scan;
pub mod namespace;
mod observe;
pub mod rbs_layout;
pub mod render;
mod rtype_text;
mod walk;
pub mod write;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use serde::Serialize;

use crate::infer::{self, ProgramIndex, Side};
use crate::rbs::Environment;
use crate::stack_guard;
use crate::syntax::RubyVersion;
use crate::types::{erase, widen_literals, Name, Type};
use namespace::ClassFacts;
use walk::{DefSite, Observations, Visibility};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Classification {
    NewFile,
    NewMethod,
    TighterReturn,
    Equivalent,
    Skipped,
}

impl Classification {
    /// Does this classification produce a declaration to print or write?
    pub fn emits(self) -> bool {
        matches!(self, Classification::NewFile | Classification::NewMethod | Classification::TighterReturn)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum SkipReason {
    #[serde(rename = "sig.skipped.untyped-return")]
    UntypedReturn,
    #[serde(rename = "sig.skipped.complex-shape")]
    ComplexShape,
    #[serde(rename = "sig.skipped.user-authored")]
    UserAuthored,
    /// The RBS parser rejected every spelling of the method.
    #[serde(rename = "sig.skipped.unrenderable-rbs")]
    UnrenderableRbs,
    /// The class's superclass names nothing the signatures (or this run)
    /// declare: written without it, the class would lose its ancestry.
    #[serde(rename = "sig.skipped.unresolvable-superclass")]
    UnresolvableSuperclass,
    /// The return type names a class of the analysed code that no
    /// signature declares (and this run does not either).
    #[serde(rename = "sig.skipped.undeclared-type")]
    UndeclaredType,
}

impl SkipReason {
    pub fn id(self) -> &'static str {
        match self {
            SkipReason::UntypedReturn => "sig.skipped.untyped-return",
            SkipReason::ComplexShape => "sig.skipped.complex-shape",
            SkipReason::UserAuthored => "sig.skipped.user-authored",
            SkipReason::UnrenderableRbs => "sig.skipped.unrenderable-rbs",
            SkipReason::UnresolvableSuperclass => "sig.skipped.unresolvable-superclass",
            SkipReason::UndeclaredType => "sig.skipped.undeclared-type",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Instance,
    Singleton,
}

/// One method and what sig-gen makes of it. Field order is the JSON's.
#[derive(Debug, Clone, Serialize)]
pub struct Candidate {
    pub file: String,
    pub class: String,
    pub method: String,
    pub kind: Kind,
    pub classification: Classification,
    /// The declaration line, for classifications that emit one.
    pub rbs: Option<String>,
    pub inferred_return: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declared_return_rbs: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skip_reason: Option<SkipReason>,
    #[serde(skip)]
    pub line: usize,
    /// Classes the declaration line names.
    #[serde(skip)]
    pub references: Vec<Name>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ParamsMode {
    #[default]
    Untyped,
    /// Parameter types from the calls the analysed files make.
    Observed,
}

#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    pub params: ParamsMode,
    pub include_private: bool,
    pub grammar: RubyVersion,
}

/// Everything sig-gen learned from a set of files.
pub struct Generation {
    /// Every candidate but the `equivalent` ones, in file and line order.
    pub candidates: Vec<Candidate>,
    /// How to open each class's block.
    pub classes: ClassFacts,
    /// Files that could not be used, with why.
    pub problems: Vec<String>,
}

/// What one file contributes (a kept model keeps it per file: see
/// [`analyse_in_project`]).
#[derive(Default, Clone)]
pub struct FileResult {
    drafts: Vec<(Candidate, DefSite, Option<Type>)>,
    observations: Observations,
    classes: ClassFacts,
    problem: Option<String>,
}

/// What one file of `project` contributes: its returns inferred knowing
/// the rest of the project. It reads nothing else, so a kept model may
/// keep it while the file's bytes and the project index stand.
pub fn analyse_in_project(
    project: &crate::workspace::Project,
    display: &str,
    source: &[u8],
    env: &Environment,
    options: &Options,
) -> FileResult {
    let (link, prior) = project.inference_inputs(display, source);
    let mut kept = project.take_parse(display, source);
    analyse_file(display, source, kept.as_mut(), env, options, link, prior)
}

/// Candidates from what each file contributed (in file order): the
/// parameters each call observed, the classes' headers, the lines.
pub fn generate_from(
    results: impl IntoIterator<Item = FileResult>,
    env: &Environment,
    options: &Options,
) -> Generation {
    let mut observations: Observations = HashMap::default();
    let mut classes = ClassFacts::default();
    let mut drafts = Vec::new();
    let mut problems = Vec::new();
    for result in results {
        for (key, calls) in result.observations {
            observations.entry(key).or_default().extend(calls);
        }
        classes.merge(result.classes);
        drafts.extend(result.drafts);
        problems.extend(result.problem);
    }
    keep_last_definitions(&mut drafts);
    // Parameter types may name only classes some signature will declare.
    let may_declare: HashSet<Name> = drafts
        .iter()
        .filter(|(c, _, _)| c.classification.emits())
        .map(|(c, _, _)| Name::from(c.class.as_str()))
        .collect();
    let nameable = |class: &str| env.has_class(class) || may_declare.contains(class) || !classes.defines(class);
    let mut candidates: Vec<Candidate> = drafts
        .into_iter()
        .map(|(mut candidate, site, inferred)| {
            if candidate.classification.emits() {
                render_line(&mut candidate, &site, inferred.as_ref(), &observations, options, &nameable);
            }
            candidate
        })
        .filter(|c| c.classification != Classification::Equivalent)
        .collect();
    namespace::demote_unresolvable(&mut candidates, &mut classes, env);
    Generation { candidates, classes, problems }
}

fn analyse_file(
    display: &str,
    source: &[u8],
    kept: Option<&mut infer::WalkedTree>,
    env: &Environment,
    options: &Options,
    link: Option<crate::infer::ProjectLink>,
    prior: Option<crate::infer::Prior>,
) -> FileResult {
    let outcome = stack_guard::guarded(|| {
        infer::on_parse(kept, source, options.grammar, |parsed, walk| {
            let errors = parsed.errors();
            if !errors.is_empty() {
                let first = errors.into_iter().next().map(|(_, message)| message).unwrap_or_default();
                return FileResult {
                    problem: Some(format!("{display} does not parse ({first}); skipped")),
                    ..Default::default()
                };
            }
            let root = parsed.root();
            let types = infer::types_in_project(parsed, env, link, prior, walk);
            let index = ProgramIndex::build(&root, env);
            let observing = options.params == ParamsMode::Observed;
            let mut found = walk::walk(&root, &index, observing.then_some(&types), parsed.lines());
            if observing {
                for site in &mut found.defs {
                    site.bound = bound_positionals(&index, &types, site.offset);
                }
            }
            let classes = ClassFacts::of_file(&index, &found.superclasses, env);
            let mut drafts = Vec::new();
            for site in found.defs {
                // `initialize` is private in every class; RBS lists it all the same.
                let hidden = matches!(site.visibility, Visibility::Private | Visibility::Protected)
                    && !classify::is_initialize(&site);
                if (hidden && !options.include_private) || !namespace::is_constant_path(&site.class) {
                    continue;
                }
                let inferred = types.def_return(site.offset).cloned();
                let verdict = classify::classify(&site, inferred.as_ref(), env);
                let candidate = Candidate {
                    file: display.to_string(),
                    class: site.class.to_string(),
                    method: site.name.clone(),
                    kind: if site.side == Side::Singleton { Kind::Singleton } else { Kind::Instance },
                    classification: verdict.classification,
                    rbs: None,
                    inferred_return: verdict.inferred_return,
                    declared_return_rbs: verdict.declared_return_rbs,
                    skip_reason: verdict.skip_reason,
                    line: site.line,
                    references: Vec::new(),
                };
                drafts.push((candidate, site, inferred));
            }
            FileResult { drafts, observations: found.observations, classes, problem: None }
        })
    });
    outcome.unwrap_or_else(|failure| FileResult {
        problem: Some(format!("{display} could not be analysed ({failure:?}); skipped")),
        ..Default::default()
    })
}

/// The types inference bound a def's positional parameters to (from the
/// project's calls), `None` where it bound `untyped`.
fn bound_positionals(index: &ProgramIndex<'_>, types: &infer::FileTypes, offset: usize) -> Vec<Option<Type>> {
    let Some(id) = index.def_at.get(&offset) else { return Vec::new() };
    let Some(list) = index.def(*id).node.as_def_node().and_then(|d| d.parameters()) else { return Vec::new() };
    list.requireds()
        .iter()
        .chain(list.optionals().iter())
        .map(|node| types.of(&node).filter(|ty| !ty.has_unknown() && **ty != Type::Bot).cloned())
        .collect()
}

/// (class, side, name) of a method.
type MethodKey = (String, Side, String);

/// A method defined twice (reopened class, conditional definitions) is
/// described once, by its last definition: RBS rejects duplicates. Which
/// of two files' definitions Ruby keeps is the load order's to say: when
/// they return different things, neither is described.
fn keep_last_definitions(drafts: &mut Vec<(Candidate, DefSite, Option<Type>)>) {
    let mut seen = HashSet::default();
    let mut keep = vec![false; drafts.len()];
    for (index, (candidate, site, _)) in drafts.iter().enumerate().rev() {
        keep[index] = seen.insert((candidate.class.clone(), site.side, candidate.method.clone()));
    }
    let mut returns: HashMap<MethodKey, Vec<(String, Option<String>)>> = HashMap::default();
    for (candidate, site, _) in drafts.iter() {
        let key = (candidate.class.clone(), site.side, candidate.method.clone());
        returns.entry(key).or_default().push((candidate.file.clone(), candidate.inferred_return.clone()));
    }
    for (index, (candidate, site, _)) in drafts.iter_mut().enumerate() {
        let key = (candidate.class.clone(), site.side, candidate.method.clone());
        let all = &returns[&key];
        let files_differ = all.iter().any(|(file, _)| *file != all[0].0);
        let returns_differ = all.iter().any(|(_, ty)| *ty != all[0].1);
        if keep[index] && files_differ && returns_differ {
            candidate.classification = Classification::Skipped;
            candidate.skip_reason = Some(SkipReason::UntypedReturn);
            candidate.rbs = None;
            candidate.inferred_return = Some("untyped".into());
        }
    }
    let mut index = 0;
    drafts.retain(|_| {
        index += 1;
        keep[index - 1]
    });
}

fn render_line(
    candidate: &mut Candidate,
    site: &DefSite,
    inferred: Option<&Type>,
    observations: &Observations,
    options: &Options,
    nameable: &dyn Fn(&str) -> bool,
) {
    let initialize = classify::is_initialize(site);
    let returns: Vec<String> = match inferred {
        _ if initialize => vec!["void".into()],
        Some(ty) => {
            let precise = erase(ty);
            let widened = erase(&widen_literals(ty.clone()));
            if precise == widened {
                vec![precise]
            } else {
                vec![precise, widened]
            }
        }
        None => vec!["untyped".into()],
    };
    let positional = site.params.iter().filter(|p| matches!(p, walk::Param::Required | walk::Param::Optional)).count();
    let positional_types: Vec<Type> = match options.params {
        ParamsMode::Observed => observe::parameter_types(observations, site, positional)
            .into_iter()
            .enumerate()
            .map(|(at, ty)| ty.or_else(|| site.bound.get(at).cloned().flatten()))
            .map(|ty| match ty {
                Some(ty) if references(&ty).iter().all(|class| nameable(class)) => ty,
                _ => Type::untyped(),
            })
            .collect(),
        ParamsMode::Untyped => Vec::new(),
    };
    if !initialize {
        candidate.references = inferred.map(references).unwrap_or_default();
    }
    for ty in &positional_types {
        candidate.references.extend(references(ty));
    }
    let positional_types: Vec<String> = positional_types.iter().map(erase).collect();
    let prefix = match (site.side, site.module_function) {
        (Side::Singleton, _) => "self.",
        (Side::Instance, true) => "self?.",
        (Side::Instance, false) => "",
    };
    let parts = render::MethodParts {
        name: &site.name,
        prefix,
        params: &site.params,
        positional_types: &positional_types,
        returns: &returns,
        private: site.visibility == Visibility::Private && !initialize,
    };
    match render::method_line(&parts) {
        Ok(line) => candidate.rbs = Some(line),
        Err(_) => {
            candidate.classification = Classification::Skipped;
            candidate.skip_reason = Some(SkipReason::UnrenderableRbs);
        }
    }
}

/// The classes a type names (`Array[Shop::Item]` → Array, Shop::Item).
fn references(ty: &Type) -> Vec<Name> {
    fn collect(ty: &Type, out: &mut Vec<Name>) {
        match ty {
            Type::Nominal { class, args } => {
                out.push(class.clone());
                args.iter().for_each(|a| collect(a, out));
            }
            Type::Singleton(class) => out.push(class.clone()),
            Type::Dynamic(facet) => facet.iter().for_each(|f| collect(f, out)),
            Type::Tuple(members) => members.iter().for_each(|m| collect(m, out)),
            Type::Union(members) => members.iter().for_each(|m| collect(m, out)),
            Type::Shape(shape) => shape.fields.iter().for_each(|f| collect(&f.ty, out)),
            Type::Top | Type::Bot | Type::Constant(_) | Type::IntRange { .. } => {}
        }
    }
    let mut out = Vec::new();
    collect(ty, &mut out);
    out
}
