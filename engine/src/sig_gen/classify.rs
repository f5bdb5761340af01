//! The decision for one `def` (reference section 1): skipped when the
//! inferred return is `untyped` or the parameters are not all required
//! positionals; `new_file` when the signatures do not know the class,
//! `new_method` when they do not know the method, `tighter_return` when
//! the declared return is strictly wider, else `equivalent`.

use crate::infer::Side;
use crate::rbs::ast::RType;
use crate::rbs::Environment;
use crate::types::{display, Type};

use super::compare::is_tighter;
use super::rtype_text::rbs_text;
use super::walk::{DefSite, Param};
use super::{Classification, SkipReason};

/// The verdict on one def, before its RBS line is rendered.
#[derive(Debug, Clone)]
pub struct Verdict {
    pub classification: Classification,
    pub skip_reason: Option<SkipReason>,
    pub inferred_return: Option<String>,
    pub declared_return_rbs: Option<String>,
}

pub fn classify(site: &DefSite, inferred: Option<&Type>, env: &Environment) -> Verdict {
    let initialize = is_initialize(site);
    let shown = inferred.map(display);
    let skipped = |reason| Verdict {
        classification: Classification::Skipped,
        skip_reason: Some(reason),
        inferred_return: shown.clone(),
        declared_return_rbs: None,
    };
    // `initialize` returns nothing anyone sees: it is `-> void` whatever
    // its body, and its parameters are written out whatever their shape.
    if !initialize {
        if inferred.is_none_or(|ty| ty.has_unknown()) {
            return skipped(SkipReason::UntypedReturn);
        }
        if !site.params.iter().all(|p| *p == Param::Required) {
            return skipped(SkipReason::ComplexShape);
        }
    }
    let verdict = |classification, declared_return_rbs| Verdict {
        classification,
        skip_reason: None,
        inferred_return: if initialize { Some("void".into()) } else { shown.clone() },
        declared_return_rbs,
    };
    if !env.has_class(&site.class) {
        return verdict(Classification::NewFile, None);
    }
    let Some(declared) = declared_returns(site, env) else {
        return verdict(Classification::NewMethod, None);
    };
    let declared_rbs = rbs_text(&declared);
    match inferred {
        Some(ty) if !initialize && is_tighter(env, &declared, ty, site.literal_body) => {
            verdict(Classification::TighterReturn, Some(declared_rbs))
        }
        _ => verdict(Classification::Equivalent, Some(declared_rbs)),
    }
}

pub fn is_initialize(site: &DefSite) -> bool {
    site.name == "initialize" && site.side == Side::Instance
}

/// The union of the declared overloads' returns, or `None` when the
/// signatures do not declare the method. `initialize` counts only when
/// the class declares its own: an inherited one says nothing about this
/// constructor's parameters.
fn declared_returns(site: &DefSite, env: &Environment) -> Option<RType> {
    let found = if is_initialize(site) {
        let own = env.class(&site.class)?.instance_methods.get("initialize")?;
        own.iter().map(|o| o.function.returns.clone()).collect::<Vec<_>>()
    } else {
        let found = match site.side {
            Side::Instance => env.instance_method(&site.class, &site.name)?,
            Side::Singleton => env.singleton_method(&site.class, &site.name)?,
        };
        found.overloads.iter().map(|o| o.function.returns.clone()).collect()
    };
    let mut unique: Vec<RType> = Vec::new();
    for ty in found {
        if !unique.contains(&ty) {
            unique.push(ty);
        }
    }
    match unique.len() {
        0 => Some(RType::Untyped),
        1 => unique.pop(),
        _ => Some(RType::Union(unique)),
    }
}
