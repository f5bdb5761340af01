use super::callee::{resolve, Target};
use super::site::shown;
use crate::diagnostic::{EvidenceTier, Severity};
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::syntax::arity::{Keywords, Mismatch};
use crate::types::{inspect_string, inspect_symbol, is_bare_key};

pub static RULE: RuleInfo = RuleInfo {
    id: "call.wrong-arity",
    aliases: &["wrong-arity"],
    summary: "A call passes a number of positional arguments no overload of the method accepts, or keywords a project method does not take or lacks: ArgumentError.",
    fires_when: &[
        "the method is resolved: a signature method of the receiver's class (a receiver typed as one signature class), or the project's only `def` of that name, in this file or another (on a typed receiver, or on `self` in a method body)",
        "the count of positional arguments is below the fewest or above the most that every overload takes",
        "`C.new(...)` (C named by a constant) is judged by C's own `self.new` if it has one, else by `initialize`: its signature's, or C's `def` (or an ancestor's, in another file, when it is the only `initialize` in that class's body)",
        "for the project's `def`, keywords too, as Ruby 3 binds them: a keyword it does not take (`unknown keyword: :colour`, unless it takes `**rest`), a required keyword not given (`missing keyword: :name`), keywords to a `def` with `**nil`; keywords given to a `def` without keyword parameters count as one more positional argument (a Hash), and never fill a positional parameter of one with them",
    ],
    does_not_fire_when: &[
        "the call is in a conditional on the Ruby running (`if RUBY_VERSION >= \"1.9\"`, `case RUBY_ENGINE`): each branch is written for some Ruby, maybe not the one the signatures describe",
        "the call is in a branch a literal condition never takes (`if false`, `true ? a : b`, `false && x`), which never runs (flow.unreachable-branch reports the branch)",
        "the call passes a splat (`*args`), a double splat (`**opts`), keywords with a key that is not a plain symbol, a block argument (`&blk`) or forwards (`...`): the count is not known",
        "the method is a signature's and the call passes keywords (signatures' keywords are not judged)",
        "an overload takes `*rest` or untyped parameters (`(?)`) and so any count above its minimum",
        "the receiver is untyped, a union, a value typed `Class` or `Module`, a class object not named by a constant (`self.class`), or may be a subclass whose signature redefines the method",
        "Ruby defines the method closer to the receiver's class than the signature that was found (`Struct.new` is Struct's, not `Class#new`)",
        "the project defines the method more than once, or some way other than `def` (alias, `define_method`, a macro, a module), or replaces it with a string evaluated on the class (`Foo.class_eval \"def m(a, b) ...\"`)",
        "the project's `def` may not be what runs: its class or the receiver's answers to methods nobody can list (`method_missing`, `define_method` or `alias_method` with a computed name), code is evaluated from a string anywhere (`eval`, `class_eval` of a string, named as a value too), methods are defined or removed under computed names on a class no name shows (`klass.define_method(n)`), the name is given to `undef_method` or `remove_method`, the `def` is in a class the signatures declare (a library loaded later may define it again), it is not a plain statement of its class body (in an `if`, a `begin`), or a library module mixed in ahead of it, or into single objects, declares the name (`include Math` gives `hypot`)",
        "`C.new` where `new` may be private (`private_class_method :new` or `private :new` on a singleton class anywhere, `Singleton` mixed in anywhere) or C is reopened under another name (`Bar = C; class Bar`)",
        "the method is a private or protected `def` called with a receiver, or made private or protected by name anywhere in the project (`private :m` in a reopened class, `private_class_method`, a `class << self` body that calls `private`): Ruby may raise, or `method_missing` answer",
        "the file loads (itself or through the project files it requires) a library outside the project and Ruby's standard library: a gem may add or change methods of any class",
        "the file is loaded (required, or autoloaded by constant name) after a core extension library (ActiveSupport, a `core_ext` feature): its methods may be that library's",
    ],
    example: "[1, 2].rotate(1, 2)",
    authored: Severity::Error,
    by_profile: [Some(Severity::Error), Some(Severity::Error), Some(Severity::Error)],
    evidence: EvidenceTier::High,
    since: "0.1.0",
    check,
};

/// Fewest and most positional arguments (`None`: no upper bound).
type Arity = (usize, Option<usize>);

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    for call in cx.calls_for_this_ruby() {
        if call.positional.is_none() && call.keyworded.is_none() {
            continue;
        }
        let Some((receiver, target)) = resolve(cx, call) else { continue };
        let receiver_type = shown(&receiver);
        let method = &call.method;
        let message = match (&target, &call.positional) {
            (Target::Signature { class, overloads, .. }, Some(positional)) => {
                if overloads.iter().any(|o| o.function.untyped_params) {
                    continue;
                }
                let given = positional.len();
                let arities: Vec<Arity> = overloads.iter().map(|o| o.function.positional_arity()).collect();
                if arities.is_empty()
                    || arities.iter().any(|&(min, max)| given >= min && max.is_none_or(|max| given <= max))
                {
                    continue;
                }
                let expected = merged(arities).into_iter().map(describe).collect::<Vec<_>>().join(" or ");
                format!("wrong number of arguments to {class}#{method} on {receiver_type}: given {given}, expected {expected}")
            }
            (Target::Signature { .. }, None) => continue,
            (Target::Def(arity), _) => {
                let (positional, keywords) = match (&call.positional, &call.keyworded) {
                    (Some(positional), _) => (positional.len(), None),
                    (None, Some((positional, keywords))) => (*positional, Some(&keywords[..])),
                    (None, None) => continue,
                };
                let Some(mismatch) = arity.refuses(positional, keywords) else { continue };
                let to = format!("to {receiver_type}#{method} on {receiver_type}");
                match mismatch {
                    Mismatch::Count { given, required_keywords } => {
                        let mut expected = describe(arity.positional);
                        if !required_keywords.is_empty() {
                            expected += &format!("; required {}", keyword_list(&required_keywords));
                        }
                        format!("wrong number of arguments {to}: given {given}, expected {expected}")
                    }
                    Mismatch::Missing(names) => format!("wrong arguments {to}: missing {}", symbols(&names)),
                    Mismatch::Unknown(names) => {
                        format!("wrong arguments {to}: unknown {}{}", symbols(&names), takes(&arity.keywords))
                    }
                    Mismatch::NoKeywords => format!("wrong arguments {to}: no keywords accepted"),
                }
            }
        };
        out.push(Finding::new(&RULE, call.anchor, message).on_call(&receiver_type, method));
    }
}

/// `keyword: :a` or `keywords: :a, :b`, as Ruby's ArgumentError says them.
fn symbols(names: &[String]) -> String {
    let listed = names.iter().map(|n| inspect_symbol(n)).collect::<Vec<_>>().join(", ");
    format!("{}: {listed}", if names.len() == 1 { "keyword" } else { "keywords" })
}

/// `keyword: rate` or `keywords: a, b` (Ruby's count message names them bare).
fn keyword_list(names: &[String]) -> String {
    format!("{}: {}", if names.len() == 1 { "keyword" } else { "keywords" }, names.join(", "))
}

/// What a method takes, for a caller who misspelled a keyword.
fn takes(keywords: &Keywords) -> String {
    let Keywords::Named { required, optional, .. } = keywords else { return String::new() };
    let all: Vec<String> = required
        .iter()
        .chain(optional)
        .map(|k| if is_bare_key(k) { format!("{k}:") } else { format!("{}:", inspect_string(k)) })
        .collect();
    format!(" (it takes {})", all.join(", "))
}

/// The counts the overloads take, as few ranges as say them (`Hash#fetch`'s
/// 1, 2 and 1 are `1..2`, as Ruby's own message puts it).
fn merged(mut arities: Vec<Arity>) -> Vec<Arity> {
    arities.sort();
    let mut ranges: Vec<Arity> = Vec::with_capacity(arities.len());
    for (min, max) in arities {
        match ranges.last_mut() {
            Some((_, last)) if last.is_none_or(|last| min <= last + 1) => {
                *last = match (*last, max) {
                    (Some(a), Some(b)) => Some(a.max(b)),
                    _ => None,
                };
            }
            _ => ranges.push((min, max)),
        }
    }
    ranges
}

fn describe((min, max): Arity) -> String {
    match max {
        Some(max) if max == min => min.to_string(),
        Some(max) => format!("{min}..{max}"),
        None => format!("{min}+"),
    }
}
