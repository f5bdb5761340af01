//! Classes and modules as generated RBS declares them: class or module,
//! superclass, type parameters, and the wrappers a nested name needs when
//! its namespace is declared nowhere else.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::infer::ProgramIndex;
use crate::rbs::Environment;
use crate::types::Name;

use super::render::{Header, Wrapper};
use super::{Candidate, Classification, SkipReason};

/// A class's superclass as the source gives it.
#[derive(Debug, Clone, PartialEq)]
pub enum Superclass {
    /// No `<`: Object (or a module).
    None,
    /// Resolved within its file: this name.
    Resolved(Name),
    /// Written but unknown to its file; resolved across the run later.
    Written { text: String, nesting: Vec<Name> },
    /// An expression (`Struct.new(:a)`): nothing RBS can name.
    Computed,
}

impl Superclass {
    fn rank(&self) -> u8 {
        match self {
            Superclass::None => 0,
            Superclass::Computed => 1,
            Superclass::Written { .. } => 2,
            Superclass::Resolved(_) => 3,
        }
    }
}

#[derive(Debug, Clone)]
struct ClassFact {
    is_module: bool,
    superclass: Superclass,
}

/// What the analysed files say about their classes, and what was decided
/// once every file was in.
#[derive(Debug, Default, Clone)]
pub struct ClassFacts {
    facts: HashMap<Name, ClassFact>,
    /// The superclass to write for each class the signatures do not know.
    superclasses: HashMap<Name, String>,
    /// Type parameters as written in the signatures (`[unchecked out Elem]`).
    pub type_params: HashMap<Name, String>,
    /// Classes some candidate emits a declaration for.
    emitting: HashSet<Name>,
}

impl ClassFacts {
    pub fn of_file(
        index: &ProgramIndex<'_>,
        written: &HashMap<Name, (Option<String>, Vec<Name>)>,
        env: &Environment,
    ) -> ClassFacts {
        let mut facts = HashMap::default();
        for (name, user) in &index.classes {
            let superclass = match written.get(name) {
                _ if user.is_module => Superclass::None,
                None => Superclass::None,
                Some((None, _)) => Superclass::Computed,
                Some((Some(text), nesting)) => match index.resolve_constant(env, nesting, text) {
                    Some(resolved) if resolved != *name => Superclass::Resolved(resolved),
                    _ => Superclass::Written { text: text.clone(), nesting: nesting.clone() },
                },
            };
            facts.insert(name.clone(), ClassFact { is_module: user.is_module, superclass });
        }
        ClassFacts { facts, ..Default::default() }
    }

    /// Folds another file's facts in: a `class` beats a `module` reading
    /// of the same name, and a resolved superclass beats a written one.
    pub fn merge(&mut self, other: ClassFacts) {
        for (name, fact) in other.facts {
            match self.facts.get_mut(&name) {
                None => {
                    self.facts.insert(name, fact);
                }
                Some(existing) => {
                    existing.is_module &= fact.is_module;
                    if fact.superclass.rank() > existing.superclass.rank() {
                        existing.superclass = fact.superclass;
                    }
                }
            }
        }
    }

    /// Does the analysed code define this class or module?
    pub fn defines(&self, name: &str) -> bool {
        self.facts.contains_key(name)
    }

    fn is_module(&self, env: &Environment, name: &str) -> bool {
        match env.class(name) {
            Some(_) => env.is_module(name),
            None => self.facts.get(name).is_some_and(|f| f.is_module),
        }
    }

    /// How `name`'s block opens.
    pub fn header(&self, env: &Environment, name: &str) -> Header {
        let type_params = match env.class(name) {
            Some(decl) if !decl.type_params.is_empty() => self.type_params.get(name).cloned().unwrap_or_else(|| {
                format!("[{}]", decl.type_params.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", "))
            }),
            _ => String::new(),
        };
        let superclass = if env.has_class(name) { None } else { self.superclasses.get(name).cloned() };
        Header { is_module: self.is_module(env, name), type_params, superclass }
    }

    /// The wrappers `name`'s block needs and the name it is then written
    /// with: namespaces nothing declares are opened around it (`module
    /// Shop` then `class Cart`); a declared one prefixes it compactly.
    pub fn wrappers(&self, env: &Environment, name: &str) -> (Vec<Wrapper>, String) {
        let segments: Vec<&str> = name.split("::").collect();
        let declared_upto = (1..segments.len())
            .rev()
            .find(|&n| {
                let prefix = segments[..n].join("::");
                env.has_class(&prefix) || self.emitting.contains(prefix.as_str())
            })
            .unwrap_or(0);
        if declared_upto == segments.len() - 1 {
            return (Vec::new(), name.to_string());
        }
        let mut wrappers = Vec::new();
        for n in declared_upto + 1..segments.len() {
            let full = segments[..n].join("::");
            let shown = if wrappers.is_empty() { full.clone() } else { segments[n - 1].to_string() };
            wrappers.push(Wrapper { name: shown, header: self.header(env, &full) });
        }
        (wrappers, segments[segments.len() - 1].to_string())
    }

    /// Env classes with type parameters that some emitted block reopens.
    pub fn generic_classes(&self, env: &Environment) -> HashSet<Name> {
        self.emitting
            .iter()
            .filter(|name| env.class(name).is_some_and(|decl| !decl.type_params.is_empty()))
            .cloned()
            .collect()
    }

    /// The superclass to write for a class no signature declares, or
    /// `Err` when it names nothing this run or the signatures declare.
    fn superclass_of(&self, env: &Environment, name: &str) -> Result<Option<String>, ()> {
        let declared = |candidate: &str| env.has_class(candidate) || self.emitting.contains(candidate);
        match self.facts.get(name).map(|f| &f.superclass) {
            None | Some(Superclass::None) => Ok(None),
            Some(Superclass::Resolved(parent)) if &**parent == "Object" => Ok(None),
            Some(Superclass::Resolved(parent)) if declared(parent) => Ok(Some(parent.to_string())),
            Some(Superclass::Written { text, nesting }) => {
                if let Some(absolute) = text.strip_prefix("::") {
                    return if declared(absolute) { Ok(Some(absolute.to_string())) } else { Err(()) };
                }
                let found = nesting
                    .iter()
                    .rev()
                    .map(|scope| format!("{scope}::{text}"))
                    .chain(std::iter::once(text.clone()))
                    .find(|candidate| declared(candidate));
                found.map(Some).ok_or(())
            }
            Some(_) => Err(()),
        }
    }

    /// Would `name`'s block (or a class wrapper around it) have to name a
    /// superclass nothing declares?
    fn lacks_superclass(&self, env: &Environment, name: &str) -> bool {
        let own = !env.has_class(name) && self.superclass_of(env, name).is_err();
        own || prefixes(name).iter().any(|prefix| {
            !env.has_class(prefix)
                && !self.emitting.contains(prefix)
                && !self.is_module(env, prefix)
                && self.superclass_of(env, prefix).is_err()
        })
    }
}

/// Skips what cannot be written soundly, repeating since each skip may
/// leave a class undeclared: classes whose superclass names nothing
/// declared, and declarations naming a class of the analysed code that
/// nothing declares. Then records the superclass each class is written with.
pub fn demote_unresolvable(candidates: &mut [Candidate], classes: &mut ClassFacts, env: &Environment) {
    loop {
        classes.emitting =
            candidates.iter().filter(|c| c.classification.emits()).map(|c| Name::from(c.class.as_str())).collect();
        let failing: HashSet<Name> =
            classes.emitting.iter().filter(|name| classes.lacks_superclass(env, name)).cloned().collect();
        let undeclared =
            |class: &Name| classes.defines(class) && !env.has_class(class) && !classes.emitting.contains(class);
        let mut changed = false;
        for candidate in candidates.iter_mut().filter(|c| c.classification.emits()) {
            let reason = if failing.contains(candidate.class.as_str()) {
                SkipReason::UnresolvableSuperclass
            } else if candidate.references.iter().any(undeclared) {
                SkipReason::UndeclaredType
            } else {
                continue;
            };
            candidate.classification = Classification::Skipped;
            candidate.skip_reason = Some(reason);
            candidate.rbs = None;
            changed = true;
        }
        if !changed {
            break;
        }
    }
    let mut superclasses = HashMap::default();
    for name in classes.facts.keys() {
        if let Ok(Some(parent)) = classes.superclass_of(env, name) {
            // A generic superclass needs its arguments: `< Hash[untyped, untyped]`.
            let arity = env.class(&parent).map_or(0, |decl| decl.type_params.len());
            let parent = if arity == 0 { parent } else { format!("{parent}[{}]", vec!["untyped"; arity].join(", ")) };
            superclasses.insert(name.clone(), parent);
        }
    }
    classes.superclasses = superclasses;
}

/// Classes a class name's block lives in, for wrappers: `A::B::C` → `A`, `A::B`.
fn prefixes(name: &str) -> Vec<Name> {
    let segments: Vec<&str> = name.split("::").collect();
    (1..segments.len()).map(|n| Name::from(segments[..n].join("::"))).collect()
}

/// Can RBS name this class (`A::B`, each segment a constant)?
pub fn is_constant_path(name: &str) -> bool {
    name.split("::").all(|segment| {
        let mut chars = segment.chars();
        chars.next().is_some_and(|c| c.is_ascii_uppercase()) && chars.all(|c| c.is_alphanumeric() || c == '_')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_paths() {
        assert!(is_constant_path("A::B2_c"));
        assert!(!is_constant_path("<singleton>::A"));
        assert!(!is_constant_path("a"));
        assert!(!is_constant_path("A::"));
    }
}
