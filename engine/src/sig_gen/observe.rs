//! `--params observed`: a parameter's type is the union of the argument
//! types the analysed files pass at that position, `untyped` when any
//! call's argument is unknown or no call was seen.

use crate::infer::Side;
use crate::types::{union, widen_literals, Type};

use super::classify::is_initialize;
use super::walk::{DefSite, Observations, Param};

/// Types for the first `count` positional parameters of `site`; `None`
/// where nothing sure was observed.
pub fn parameter_types(observations: &Observations, site: &DefSite, count: usize) -> Vec<Option<Type>> {
    let required = site.params.iter().filter(|p| **p == Param::Required).count();
    let mut keys = vec![(site.class.clone(), site.side, site.name.clone())];
    if site.module_function {
        keys.push((site.class.clone(), Side::Singleton, site.name.clone()));
    }
    if is_initialize(site) {
        keys = vec![(site.class.clone(), Side::Instance, "initialize".to_string())];
    }
    // A call of this name the walk could not resolve (unknown receiver,
    // splat, `send`, `super`) may pass anything. So may Ruby itself, for a
    // method it calls implicitly (`==` from `include?`, `===` from `case`,
    // `<=>` from Comparable, `+` from `sum`). And a call of the name on
    // another class (a subclass, or `self` in an included module) may run
    // this very method, unseen as such.
    let name = &keys[0].2;
    let elsewhere = observations
        .keys()
        .any(|(class, side, called)| called == name && !keys.iter().any(|key| key.0 == *class && key.1 == *side));
    // (`initialize` is observed through `new`.)
    if elsewhere || (name != "initialize" && crate::model::params::called_by_ruby(name)) {
        return vec![None; count];
    }
    // Calls whose positional count the method accepts; others call
    // something else (a method of the same name elsewhere, or an error).
    let calls: Vec<&Vec<Type>> = keys
        .iter()
        .filter_map(|key| observations.get(key))
        .flatten()
        .filter(|arguments| (required..=count).contains(&arguments.len()))
        .collect();
    (0..count)
        .map(|position| {
            let seen: Vec<&Type> = calls.iter().filter_map(|arguments| arguments.get(position)).collect();
            if seen.is_empty() || seen.iter().any(|ty| ty.has_unknown() || **ty == Type::Bot) {
                return None;
            }
            // A value passed once says what the parameter takes, not that
            // it takes only that value: literals widen to their class.
            Some(union(seen.into_iter().map(|ty| widen_literals(ty.clone()))))
        })
        .collect()
}
