//! Parameter types from the project's call sites (the
//! `parameter_inference` setting): what each file's calls pass to the
//! project's methods, folded into what each method's parameters receive.
//!
//! Soundness rests on seeing every call. Under the default policy only
//! private instance methods qualify (Ruby lets nothing but an implicit or
//! `self.` receiver call them), and a name anything may reach unseen
//! (`send`, `method(:x)`, a symbol or string literal of the name, a call
//! on an unknown `self`, `super`) keeps `untyped` parameters.

use std::borrow::Borrow;
use std::hash::Hash;

use rustc_hash::FxHashMap as HashMap;

use super::classes::Side;
use crate::types::{union, widen_literals, Name, Type};

/// Which methods' parameters are typed from their call sites.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum ParameterPolicy {
    /// Private instance methods: only the project's own code calls them.
    #[default]
    Private,
    /// Every method: the analysed paths hold every caller (an application).
    All,
    Off,
}

/// What one call passes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct CallShape {
    pub positional: Vec<Type>,
    /// Keyword arguments by name, sorted; `None` when their shape is
    /// unknown (`**opts`, a hash of unknown keys).
    pub keywords: Option<Vec<(String, Type)>>,
    /// A splat or `...`: nothing can be said of any parameter.
    pub opaque: bool,
    /// Positional arguments that are a parameter of the calling method,
    /// passed on as it came (`def greet(name) = label(name)`): by index,
    /// what the caller's own calls bind it to (see [`resolve_forwarded`]).
    #[serde(default)]
    pub forwarded: Vec<(usize, ForwardedParam)>,
    /// The call surely gives a block: a literal one, or `&x` where `x`
    /// cannot be nil (a value that is no Proc is converted, or raises).
    #[serde(default)]
    pub block: bool,
    /// The call hands on the calling method's own `&blk` (never assigned):
    /// a block is given when every call of that method gives one (see
    /// [`resolve_forwarded_blocks`]).
    #[serde(default)]
    pub block_from: Option<(Name, Side, String)>,
}

impl CallShape {
    pub fn opaque() -> CallShape {
        CallShape {
            positional: Vec::new(),
            keywords: None,
            opaque: true,
            forwarded: Vec::new(),
            block: false,
            block_from: None,
        }
    }
}

/// A required positional parameter of a method typed from its own calls.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ForwardedParam {
    pub method: (Name, Side, String),
    pub arity: Arity,
    pub index: usize,
}

/// One file's calls to project methods and the names it may call unseen.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CallLog {
    /// By the receiver's class, side and method name.
    pub calls: Vec<((Name, Side, String), Vec<CallShape>)>,
    /// Method names something may call without a visible call site.
    pub escaped: Vec<String>,
    /// Prefixes of names built at run time (`"visit_#{x}"`).
    pub escaped_prefixes: Vec<String>,
    /// Suffixes of names built at run time (`"#{x}="`).
    pub escaped_suffixes: Vec<String>,
    /// What names built at run time hold between interpolations.
    pub escaped_infixes: Vec<String>,
    /// Where each call on `self` was made (see [`EntrySite`]), by the same
    /// keys as `calls`.
    #[serde(default)]
    pub entries: Vec<((Name, Side, String), Vec<EntrySite>)>,
}

/// What a call says of the object's instance variables when the method it
/// calls starts: those surely assigned at the call (a variable once set
/// stays set), and the calling method, whose own start adds what its
/// callers had set (`within`, when all of its calls are in view too).
/// A call on another object knows nothing of its variables: empty.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct EntrySite {
    /// Sorted.
    pub set: Vec<String>,
    pub within: Option<(Name, Side, String)>,
}

/// Calls a log keeps per method before it gives up on the method.
const MAX_SHAPES: usize = 48;

impl CallLog {
    /// Adds a call (deduplicated; past the cap, the method is unknown).
    pub fn add(calls: &mut HashMap<(Name, Side, String), Vec<CallShape>>, key: (Name, Side, String), shape: CallShape) {
        add_shape(calls, key, shape, CallShape::opaque);
    }

    /// Adds where a call was made (deduplicated; past the cap, nothing is
    /// known of the method's start).
    pub fn add_entry(
        sites: &mut HashMap<(Name, Side, String), Vec<EntrySite>>,
        key: (Name, Side, String),
        site: EntrySite,
    ) {
        add_site(sites, key, site, EntrySite::default);
    }
}

/// [`CallLog::add`] over any key and owned or borrowed shapes: the project
/// folds every file's log by borrowing, copying only what it keeps.
pub fn add_shape<K: Eq + Hash, S: Borrow<CallShape>>(
    calls: &mut HashMap<K, Vec<S>>,
    key: K,
    shape: S,
    opaque: impl FnOnce() -> S,
) {
    let shapes = calls.entry(key).or_default();
    if shapes.iter().any(|s| s.borrow().opaque || s.borrow() == shape.borrow()) {
        return;
    }
    if shapes.len() >= MAX_SHAPES {
        *shapes = vec![opaque()];
        return;
    }
    shapes.push(shape);
}

/// [`CallLog::add_entry`] over any key and owned or borrowed sites.
pub fn add_site<K: Eq + Hash, S: Borrow<EntrySite>>(
    sites: &mut HashMap<K, Vec<S>>,
    key: K,
    site: S,
    nothing_known: impl FnOnce() -> S,
) {
    let known = sites.entry(key).or_default();
    let nothing = |s: &EntrySite| s.set.is_empty() && s.within.is_none();
    if known.iter().any(|s| nothing(s.borrow()) || s.borrow() == site.borrow()) {
        return;
    }
    if known.len() >= MAX_SHAPES || nothing(site.borrow()) {
        *known = vec![nothing_known()];
        return;
    }
    known.push(site);
}

/// How many rounds the instance variables set at methods' starts may take
/// to settle before none is taken as set anywhere.
const ENTRY_ROUNDS: usize = 64;

/// The instance variables surely set when each method starts: over every
/// call of it, what was set there, with what was set at the start of the
/// calling method (when that one's calls are all in view too). Taken as
/// the greatest answer that holds (a cycle of helpers reached from a
/// method that set `@s` all have `@s`), which is sound because a
/// variable, once set, stays set: starting from "all", each round drops
/// what some call cannot show, until none drops more. Methods with nothing
/// set are left out.
pub fn resolve_entries(
    sites: &HashMap<(Name, Side, String), Vec<EntrySite>>,
) -> HashMap<(Name, Side, String), Vec<String>> {
    use std::collections::BTreeSet;
    // `None`: every variable (not yet narrowed).
    let mut entry: HashMap<&(Name, Side, String), Option<BTreeSet<&str>>> =
        sites.keys().map(|key| (key, None)).collect();
    let mut keys: Vec<&(Name, Side, String)> = sites.keys().collect();
    keys.sort();
    let mut settled = false;
    for _ in 0..ENTRY_ROUNDS {
        let mut changed = false;
        for key in &keys {
            let mut meet: Option<BTreeSet<&str>> = None;
            for site in &sites[*key] {
                let own = site.set.iter().map(String::as_str);
                let at_site: Option<BTreeSet<&str>> = match site.within.as_ref().and_then(|w| entry.get(w)) {
                    Some(None) => None,
                    Some(Some(caller)) => Some(caller.iter().copied().chain(own).collect()),
                    None => Some(own.collect()),
                };
                meet = match (meet, at_site) {
                    (None, other) | (other, None) => other,
                    (Some(a), Some(b)) => Some(a.intersection(&b).copied().collect()),
                };
            }
            if entry[*key] != meet {
                entry.insert(*key, meet);
                changed = true;
            }
        }
        if !changed {
            settled = true;
            break;
        }
    }
    if !settled {
        return HashMap::default();
    }
    entry
        .into_iter()
        .filter_map(|(key, set)| {
            // Still "all": reached only from methods nobody calls.
            let set = set?;
            (!set.is_empty()).then(|| (key.clone(), set.into_iter().map(str::to_string).collect()))
        })
        .collect()
}

/// A parameter list as the binding needs it: counts and keyword names.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Arity {
    pub required: usize,
    pub optional: usize,
    pub rest: bool,
    pub posts: usize,
    /// Keyword parameters: name and whether it is required.
    pub keywords: Vec<(String, bool)>,
    pub keyword_rest: bool,
}

/// What the parameters receive over every call a method's arity accepts;
/// `None` for a parameter nothing sure is known of. Optional parameters
/// say whether some call leaves them to their default.
pub struct Bound {
    pub requireds: Vec<Option<Type>>,
    pub optionals: Vec<Option<(Type, bool)>>,
    /// The element type of the rest parameter's array.
    pub rest: Option<Type>,
    pub posts: Vec<Option<Type>>,
    pub keywords: Vec<Option<(Type, bool)>>,
    /// Every call gives a block: the `&block` parameter is never nil.
    pub block: bool,
}

/// How long a chain of methods handing a parameter on may be typed.
const FORWARD_ROUNDS: usize = 4;

/// Replaces each forwarded argument that the export pass saw as `untyped`
/// (its caller's parameter, not yet typed then) by what the caller's own
/// calls bind that parameter to. Each round reads the last one's answer,
/// so every round is sound on its own and a chain `a → b → c` is typed in
/// two; a method passing its parameter on to itself in the same place
/// adds nothing to it (`Bot`); a cycle through other methods stays
/// `untyped`.
pub fn resolve_forwarded(params: &mut HashMap<(Name, Side, String), Vec<CallShape>>) {
    let mut pending: Vec<((Name, Side, String), Vec<CallShape>)> = params
        .iter()
        .filter(|(_, shapes)| shapes.iter().any(|s| !s.forwarded.is_empty()))
        .map(|(key, shapes)| (key.clone(), shapes.clone()))
        .collect();
    if pending.is_empty() {
        return;
    }
    pending.sort_by(|a, b| a.0.cmp(&b.0));
    for round in 0..FORWARD_ROUNDS {
        let resolved: Vec<Vec<CallShape>> = pending
            .iter()
            .map(|(key, shapes)| {
                let mut out: Vec<CallShape> = Vec::new();
                for shape in shapes {
                    let shape = substitute(key, shape, params, round > 0);
                    if !out.contains(&shape) {
                        out.push(shape);
                    }
                }
                out
            })
            .collect();
        let mut changed = false;
        for ((key, _), shapes) in pending.iter().zip(resolved) {
            let slot = params.get_mut(key).expect("pending keys come from params");
            if *slot != shapes {
                *slot = shapes;
                changed = true;
            }
        }
        if !changed && round > 0 {
            break;
        }
    }
}

/// Marks a call that hands on its caller's own `&blk` as giving a block
/// when every call of that caller gives one. Taken as the greatest answer
/// that holds, as [`resolve_entries`] is (a helper handing its block on to
/// itself gives one when its other calls do); a caller with no calls in
/// view (escaped, or never called) gives none.
pub fn resolve_forwarded_blocks(params: &mut HashMap<(Name, Side, String), Vec<CallShape>>) {
    if !params.values().flatten().any(|s| s.block_from.is_some()) {
        return;
    }
    let mut gives: HashMap<(Name, Side, String), bool> = params.keys().map(|k| (k.clone(), true)).collect();
    loop {
        let mut changed = false;
        let mut keys: Vec<&(Name, Side, String)> = params.keys().collect();
        keys.sort();
        for key in keys {
            if !gives[key] {
                continue;
            }
            let all = params[key].iter().all(|shape| {
                !shape.opaque
                    && (shape.block || shape.block_from.as_ref().is_some_and(|from| gives.get(from) == Some(&true)))
            });
            if !all {
                gives.insert(key.clone(), false);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    for shapes in params.values_mut() {
        for shape in shapes.iter_mut() {
            if let Some(from) = shape.block_from.take() {
                shape.block = gives.get(&from) == Some(&true);
            }
        }
    }
}

/// One shape with its forwarded arguments typed from `params` (or, on the
/// first round, only the self-forwards).
fn substitute(
    key: &(Name, Side, String),
    shape: &CallShape,
    params: &HashMap<(Name, Side, String), Vec<CallShape>>,
    read_others: bool,
) -> CallShape {
    let mut out = CallShape { forwarded: Vec::new(), ..shape.clone() };
    for (position, forwarded) in &shape.forwarded {
        let Some(slot) = out.positional.get_mut(*position) else { continue };
        if !slot.has_unknown() {
            continue;
        }
        if forwarded.method == *key && forwarded.index == *position {
            *slot = Type::Bot;
        } else if read_others {
            let bound = params.get(&forwarded.method).and_then(|shapes| bind(shapes, &forwarded.arity));
            if let Some(ty) = bound.and_then(|b| b.requireds.get(forwarded.index).cloned().flatten()) {
                *slot = ty;
            }
        }
    }
    out
}

/// More members than this and a parameter's type keeps only classes.
const MAX_PRECISE_MEMBERS: usize = 4;

/// Binds every call shape to `arity`. A call the arity rejects raises
/// `ArgumentError` before the body runs, so it passes nothing.
pub fn bind(shapes: &[CallShape], arity: &Arity) -> Option<Bound> {
    let accepts_keywords = !arity.keywords.is_empty() || arity.keyword_rest;
    let mut requireds = vec![Vec::new(); arity.required];
    let mut optionals = vec![(Vec::new(), false); arity.optional];
    let mut rest: Vec<Type> = Vec::new();
    let mut posts = vec![Vec::new(); arity.posts];
    let mut keywords = vec![(Vec::new(), false); arity.keywords.len()];
    let mut keywords_known = true;
    let mut any = false;
    let mut block = true;
    for shape in shapes {
        if shape.opaque {
            return None;
        }
        let mut positional = shape.positional.clone();
        let mut passed: Vec<(String, Type)> = Vec::new();
        match &shape.keywords {
            Some(list) if list.is_empty() => {}
            // Keywords to a method without keyword parameters are one more
            // positional hash; `**opts` may also be empty and pass nothing.
            Some(_) if !accepts_keywords => positional.push(Type::untyped()),
            None if !accepts_keywords => return None,
            Some(list) => passed = list.clone(),
            None => keywords_known = false,
        }
        let n = positional.len();
        let mandatory = arity.required + arity.posts;
        if n < mandatory || (!arity.rest && n > mandatory + arity.optional) {
            continue;
        }
        let lacks_required =
            arity.keywords.iter().any(|(name, required)| *required && !passed.iter().any(|(k, _)| k == name));
        if shape.keywords.is_some() && lacks_required {
            continue;
        }
        any = true;
        block &= shape.block;
        let filled = (n - mandatory).min(arity.optional);
        for (i, slot) in requireds.iter_mut().enumerate() {
            slot.push(positional[i].clone());
        }
        for (j, slot) in optionals.iter_mut().enumerate() {
            if j < filled {
                slot.0.push(positional[arity.required + j].clone());
            } else {
                slot.1 = true;
            }
        }
        rest.extend(positional[arity.required + filled..n - arity.posts].iter().cloned());
        for (k, slot) in posts.iter_mut().enumerate() {
            slot.push(positional[n - arity.posts + k].clone());
        }
        for ((name, _), slot) in arity.keywords.iter().zip(keywords.iter_mut()) {
            match passed.iter().find(|(k, _)| k == name) {
                Some((_, ty)) => slot.0.push(ty.clone()),
                None => slot.1 = true,
            }
        }
    }
    if !any {
        return None;
    }
    let keyword_slots = keywords
        .into_iter()
        .map(|(seen, defaulted)| if keywords_known { settle(seen).map(|t| (t, defaulted)) } else { None })
        .collect();
    Some(Bound {
        requireds: requireds.into_iter().map(settle).collect(),
        optionals: optionals.into_iter().map(|(seen, defaulted)| settle_or_empty(seen, defaulted)).collect(),
        rest: if rest.is_empty() { None } else { settle(rest) },
        posts: posts.into_iter().map(settle).collect(),
        keywords: keyword_slots,
        block,
    })
}

/// An optional parameter every call left to its default receives
/// nothing from the calls (`Bot`), only the default.
fn settle_or_empty(seen: Vec<Type>, defaulted: bool) -> Option<(Type, bool)> {
    if seen.is_empty() && defaulted {
        return Some((Type::Bot, true));
    }
    settle(seen).map(|t| (t, defaulted))
}

/// The union of what the calls pass, or `None` when any is unknown.
fn settle(seen: Vec<Type>) -> Option<Type> {
    if seen.is_empty() || seen.iter().any(Type::has_unknown) {
        return None;
    }
    // The callee may mutate what it is given: exact contents are not kept.
    let ty = union(seen.iter().map(Type::forget_mutable));
    if ty.has_unknown() || ty == Type::Bot {
        return None;
    }
    Some(if ty.members().len() > MAX_PRECISE_MEMBERS { widen_literals(ty) } else { ty })
}

/// Ruby calls these itself, with arguments no call site shows.
pub fn called_by_ruby(method: &str) -> bool {
    const HOOKS: &[&str] = &[
        "initialize",
        "initialize_copy",
        "initialize_clone",
        "initialize_dup",
        "method_missing",
        "respond_to_missing?",
        "respond_to?",
        "inherited",
        "included",
        "extended",
        "prepended",
        "method_added",
        "method_removed",
        "method_undefined",
        "singleton_method_added",
        "singleton_method_removed",
        "singleton_method_undefined",
        "const_missing",
        "coerce",
        "to_s",
        "to_str",
        "to_a",
        "to_ary",
        "to_h",
        "to_hash",
        "to_proc",
        "to_i",
        "to_int",
        "to_r",
        "to_c",
        "to_f",
        "to_sym",
        "to_io",
        "to_path",
        "to_json",
        "to_yaml",
        "inspect",
        "pretty_print",
        "pretty_print_cycle",
        "hash",
        "eql?",
        "equal?",
        "call",
        "each",
        "marshal_dump",
        "marshal_load",
        "_dump",
        "_load",
        "encode_with",
        "init_with",
        "finalize",
        "deconstruct",
        "deconstruct_keys",
        // `raise obj, "msg"` calls `obj.exception("msg")`, a private one too.
        "exception",
        // What the core calls on objects standing for IO (`$stdout = obj`,
        // `IO.copy_stream`), regexps (`Regexp.union`) and ranges' ends.
        "write",
        "read",
        "readpartial",
        "to_regexp",
        "to_open",
        "succ",
        // Arithmetic the core's Numeric, Time and `sleep` build on another
        // number's methods (`Numeric#%` calls `div`, `sleep(d)` calls
        // `d.divmod(1)`), and what a Range-like object answers.
        "div",
        "divmod",
        "modulo",
        "remainder",
        "fdiv",
        "quo",
        "abs",
        "zero?",
        "nonzero?",
        "positive?",
        "negative?",
        "integer?",
        "real?",
        "floor",
        "ceil",
        "round",
        "truncate",
        "begin",
        "end",
        "exclude_end?",
        "step",
        "size",
        // `{ a: obj }.dig(:a, :k)` calls `obj.dig(:k)`; a Hash subclass's
        // `[]` calls `default(key)`; `Kernel#warn` calls `Warning.warn`.
        "dig",
        "default",
        "warn",
        // More of an IO's part (`Marshal.load(io)`, `puts` on `$stdout`).
        "getc",
        "gets",
        "binmode",
        "flush",
        "sync",
        "fileno",
        "close",
    ];
    // Operators (`==`, `<=>`, `[]`, `+`) are called by the core library.
    HOOKS.contains(&method) || !method.starts_with(|c: char| c == '_' || c.is_alphabetic())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(method: &str) -> (Name, Side, String) {
        (Name::from("Parser"), Side::Instance, method.to_string())
    }

    fn site(set: &[&str], within: Option<&str>) -> EntrySite {
        EntrySite { set: set.iter().map(|s| s.to_string()).collect(), within: within.map(key) }
    }

    #[test]
    fn variables_set_at_every_call_reach_helpers_through_cycles() {
        let mut sites = HashMap::default();
        // `compile` (public: no entry of its own) sets @s and @n before
        // `expr`; `expr` and `term` call each other; `term` also sets @t
        // before calling `expr`.
        sites.insert(key("expr"), vec![site(&["@n", "@s"], None), site(&["@t"], Some("term"))]);
        sites.insert(key("term"), vec![site(&[], Some("expr"))]);
        let entries = resolve_entries(&sites);
        assert_eq!(entries[&key("expr")], ["@n", "@s"]);
        assert_eq!(entries[&key("term")], ["@n", "@s"]);
        // A call from where nothing is known clears what every call showed.
        sites.get_mut(&key("term")).unwrap().push(EntrySite::default());
        let entries = resolve_entries(&sites);
        assert!(!entries.contains_key(&key("term")), "{entries:?}");
        // Then `expr`, called from `term` with @t alone, keeps only what
        // both its callers set: nothing.
        assert!(!entries.contains_key(&key("expr")), "{entries:?}");
    }

    #[test]
    fn past_the_cap_a_method_start_knows_nothing() {
        let mut sites = HashMap::default();
        for i in 0..=MAX_SHAPES {
            CallLog::add_entry(&mut sites, key("h"), site(&["@s", &format!("@v{i}")], None));
        }
        assert_eq!(sites[&key("h")], [EntrySite::default()]);
        assert!(resolve_entries(&sites).is_empty());
    }
}
