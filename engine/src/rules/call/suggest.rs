//! "Did you mean": the names a missing method's receiver does answer to
//! that are one slip away, as Ruby's own NoMethodError suggests them.

use std::collections::BTreeSet;

use super::site::{ancestry, receiver_class};
use crate::infer::Side;
use crate::rules::RuleContext;
use crate::types::Type;

/// At most this many names are offered.
const MOST: usize = 3;

/// The public methods of `ty` closest to `method`, when some are close
/// enough to be a slip (see [`closest`]).
pub fn near_names(cx: &RuleContext<'_, '_>, ty: &Type, method: &str) -> Vec<String> {
    let Some((class, side)) = receiver_class(ty) else { return Vec::new() };
    closest(method, answered(cx, &class, side))
}

/// Of `names`, those closest to `method` when close enough to be a slip:
/// alike by Jaro-Winkler (0.834, or 0.77 for short names) and at most a
/// quarter of its length of edits away (a swap of two letters is one), the
/// test Ruby's did_you_mean makes; the fewest edits away only, at most
/// three.
pub fn closest(method: &str, names: impl IntoIterator<Item = String>) -> Vec<String> {
    let length = method.chars().count();
    if length < 3 || !method.starts_with(|c: char| c.is_alphabetic() || c == '_') {
        return Vec::new();
    }
    let alike = if length > 3 { 0.834 } else { 0.77 };
    let edits = length.div_ceil(4);
    let mut near: Vec<(usize, std::cmp::Reverse<u64>, String)> = names
        .into_iter()
        .filter_map(|name| {
            let similarity = strsim::jaro_winkler(method, &name);
            let distance = strsim::osa_distance(method, &name);
            (name != method && similarity >= alike && distance <= edits).then_some((
                distance,
                std::cmp::Reverse((similarity * 1e9) as u64),
                name,
            ))
        })
        .collect();
    near.sort();
    near.dedup_by(|a, b| a.2 == b.2);
    // The fewest edits away only: `to_s` for `to_ss`, not `to_c` too.
    let fewest = near.first().map(|(distance, _, _)| *distance);
    near.into_iter()
        .take_while(|(distance, _, _)| Some(*distance) == fewest)
        .take(MOST)
        .map(|(_, _, name)| name)
        .collect()
}

/// How a message offers names: `` (did you mean `a` or `b`?)``, or nothing.
pub fn offered(names: &[String]) -> String {
    if names.is_empty() {
        return String::new();
    }
    let listed = names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(" or ");
    format!(" (did you mean {listed}?)")
}

/// The methods a receiver of `class` (instances, or the class object)
/// answers to with a written receiver, as far as the signatures and the
/// project's classes list them, sorted.
fn answered(cx: &RuleContext<'_, '_>, class: &str, side: Side) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let instance_of = |class: &str, names: &mut BTreeSet<String>| {
        if let Some(decl) = cx.env.class(class) {
            names.extend(decl.instance_methods.keys().filter(|m| !decl.private_instance.contains(*m)).cloned());
        }
        if let Some(user) = cx.inference().index.class(class) {
            names.extend(user.instance_methods.keys().cloned());
        }
    };
    match side {
        Side::Instance => {
            for class in ancestry(cx, class) {
                instance_of(&class, &mut names);
            }
        }
        Side::Singleton => {
            // A module's own methods are not its includers' (only superclasses' are).
            let superclasses =
                ancestry(cx, class).into_iter().filter(|c| !cx.env.is_module(c) && !cx.inference().is_module(c));
            for class in superclasses {
                if let Some(decl) = cx.env.class(&class) {
                    names.extend(decl.singleton_methods.keys().cloned());
                }
                if let Some(user) = cx.inference().index.class(&class) {
                    names.extend(user.singleton_methods.keys().cloned());
                }
            }
            for class in ["Class", "Module", "Object", "Kernel"] {
                instance_of(class, &mut names);
            }
        }
    }
    names
}
