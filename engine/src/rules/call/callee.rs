//! Which method a call runs, when the rules can be sure: a signature's
//! overloads for a receiver of one signature class, or the only `def` of
//! that name in the whole project.

use ruby_prism::Node;

use super::site::{is_exact, owner_of, receiver_class, trusted_receiver, Call};
use crate::infer::{Callee, Side};
use crate::rbs::ast::MethodType;
use crate::rules::RuleContext;
use crate::syntax::arity::DefArity;
use crate::types::Type;

pub enum Target<'c> {
    /// Signature overloads, with the receiver's class and side.
    Signature { class: String, side: Side, overloads: &'c [MethodType] },
    /// The project's only definition of the method, in this file or
    /// another: the arguments it takes.
    Def(DefArity),
}

/// What a call with a written receiver (or an implicit `self` in a method
/// body) runs, and the receiver type it was resolved for.
pub fn resolve<'c>(cx: &'c RuleContext<'_, '_>, call: &Call<'_>) -> Option<(Type, Target<'c>)> {
    if cx.hazards().refines || cx.sees_unseen_code() {
        return None;
    }
    let (ty, class, side, exact) = match call.explicit_receiver() {
        Some(receiver) => {
            let ty = cx.type_of(receiver)?.clone();
            let ty = if call.is_safe_navigation() { ty.without_nil() } else { ty };
            let (class, side) = receiver_class(&ty)?;
            if !trusted_receiver(cx, receiver, &ty) {
                return None;
            }
            // A class object named by a constant is exactly that class; one
            // computed (`self.class`) may be a subclass.
            let exact = is_exact(&ty)
                || (side == Side::Singleton
                    && matches!(receiver, Node::ConstantReadNode { .. } | Node::ConstantPathNode { .. }));
            (ty, class, side, exact)
        }
        // On `self`, only the project's own single `def` is judged.
        None if !single_def(cx, &call.method) => return None,
        None => {
            let (class, side) = self_in_method_body(cx, call.anchor)?;
            let ty = match side {
                Side::Instance => Type::nominal(&class),
                Side::Singleton => Type::Singleton(class.as_str().into()),
            };
            (ty, class, side, false)
        }
    };
    // Any class object answers to its own singleton methods, which a
    // value typed `Class` or `Module` does not show.
    if side == Side::Instance && matches!(class.as_str(), "Class" | "Module") {
        return None;
    }
    if side == Side::Singleton && !exact && call.explicit_receiver().is_some() {
        return None;
    }
    // `new` on an implicit `self` (`def self.default = new`) may be a
    // subclass's, whose `new` or `initialize` takes other arguments.
    if side == Side::Singleton && call.method == "new" {
        return if exact { construction(cx, ty, &class) } else { None };
    }
    let inference = cx.inference();
    let on_self = call.explicit_receiver().is_none_or(|r| matches!(r, Node::SelfNode { .. }));
    match inference.lookup(&class, side, &call.method) {
        // A private method a written receiver cannot reach: what runs is
        // not in view (see `Inferrer::plan`).
        Callee::Rbs(found) if found.private && !on_self => None,
        Callee::Rbs(found) => {
            signature_target(cx, &class, side, &call.method)?;
            // A subclass of a class typed by its name may redefine the method.
            if !exact && overridden_in_signatures(cx, &class, &call.method) {
                return None;
            }
            Some((ty, Target::Signature { class, side, overloads: found.overloads }))
        }
        Callee::Def(id) => {
            let node = &inference.index.def(id).node;
            // A private or protected method given a receiver may not be
            // what runs (Ruby raises, or `method_missing` answers); nor is
            // a `def` some code replaces on the class (`Foo.class_eval "def
            // m(a, b) ..."`).
            let start = node.location().start() as usize;
            let (owner, owner_side) = inference.index.def(id).owner.clone()?;
            // The project's facts see `private` sections of `class << self`
            // bodies and visibility that may change, which the file's
            // index of plain class bodies does not.
            let shape_restricted =
                cx.project.only_def_in(&call.method, &owner, owner_of(owner_side)).is_none_or(|shape| shape.restricted);
            let restricted = inference.index.is_private_def(start)
                || inference.index.is_protected_def(start)
                || shape_restricted
                || (!on_self && cx.project.made_private_anywhere(&call.method));
            if (!on_self && restricted) || inference.index.block_replaced(&class, &call.method) {
                return None;
            }
            if may_not_run(cx, &class, &owner, owner_side, &call.method)
                || answered_below(cx, &class, side, &call.method, exact)
            {
                return None;
            }
            let def = node.as_def_node()?;
            let own_name = crate::syntax::name(def.name());
            let arity = crate::syntax::arity::DefArity::of(&def)?;
            (own_name == call.method && single_def(cx, &call.method)).then_some((ty, Target::Def(arity)))
        }
        Callee::External(id) => {
            let (owner, owner_side) = inference.index.external_owner(id)?;
            // The one `def` of the name is in the class the lookup found
            // it in (an alias or reader of the name elsewhere is not it).
            let shape = cx.project.only_def_in(&call.method, &owner, owner_of(owner_side))?;
            let replaced = [&*class, &*owner].iter().any(|c| inference.index.block_replaced(c, &call.method));
            if (!on_self && shape.restricted) || replaced || !single_def(cx, &call.method) {
                return None;
            }
            if may_not_run(cx, &class, &owner, owner_side, &call.method)
                || answered_below(cx, &class, side, &call.method, exact)
            {
                return None;
            }
            Some((ty, Target::Def(shape.arity.clone()?)))
        }
        _ => None,
    }
}

/// May an object typed `class` but not exactly of it (`self`, a
/// parameter) answer `method` from a class below, in any file: a library
/// module a subclass mixes in (`include Enumerable` gives `sum` and
/// `first`), an attribute, an alias?
fn answered_below(cx: &RuleContext<'_, '_>, class: &str, side: Side, method: &str, exact: bool) -> bool {
    if exact {
        return false;
    }
    // A library module mixed into some class, maybe a subclass, from
    // outside its body (`Bag.include(Enumerable)`), which the index's
    // tables do not show.
    let library_declares = |module: &String| {
        !cx.project.opens(module) && cx.env.has_class(module) && cx.env.instance_method(module, method).is_some()
    };
    cx.inference().index.overrides_elsewhere(class, side, method).is_some()
        || cx.project.modules_mixed(owner_of(side)).any(library_declares)
}

/// May the project `def` found for `method` (in `owner`, for a receiver
/// of `class`) not be what runs, or not exist at all? When the classes
/// answer to methods nobody can list (`method_missing`, computed
/// `define_method`, `undef_method` or aliases on them), when code is
/// evaluated from strings or methods are given computed names on a class
/// no name shows anywhere, when the
/// def is in a class the signatures declare (a library loaded later may
/// define it again: `bigdecimal/util`'s `String#to_d`), when the `def` is
/// not a plain statement of its class body, or when a library module
/// mixed in before `owner` (or into single objects) declares the name
/// (`include Math` gives `hypot`).
fn may_not_run(cx: &RuleContext<'_, '_>, class: &str, owner: &str, side: Side, method: &str) -> bool {
    let replaced_anywhere =
        cx.project.evaluates_strings() || cx.project.defines_on_unknown() || cx.project.removed_anywhere(method);
    if replaced_anywhere || cx.project.any_dynamic(&[class, owner]) || cx.env.has_class(owner) {
        return true;
    }
    if cx.project.only_def_in(method, owner, owner_of(side)).is_some_and(|shape| shape.conditional) {
        return true;
    }
    library_module_first(cx, class, owner, side, method)
}

/// Does a module the project does not define come, for a receiver of
/// `class`, before `owner`'s own methods, declaring `method` (or declaring
/// nothing the signatures know)?
fn library_module_first(cx: &RuleContext<'_, '_>, class: &str, owner: &str, side: Side, method: &str) -> bool {
    let index = &cx.inference().index;
    // A module's instance methods are what mixing it in gives; a module
    // function the signatures declare on the module alone (`def
    // self.hypot` in Math's) has a private instance copy too, which they
    // do not tell from a singleton method alone (GC's `start`): either counts.
    let declares = |module: &str| {
        index.class_shape(module).is_none()
            && (!cx.env.has_class(module)
                || cx.env.instance_method(module, method).is_some()
                || cx.env.class(module).is_some_and(|decl| decl.singleton_methods.contains_key(method)))
    };
    if side == Side::Instance && cx.project.objects_extended().any(|m| declares(m)) {
        return true;
    }
    // Modules mixed in where no name shows which class gets them (a
    // hook's `base.include(M)`), or computed, may be any class's.
    if cx.project.mixed_into_unnamed().is_none_or(|mut modules| modules.any(|m| declares(m))) {
        return true;
    }
    let mut current = crate::types::Name::from(class);
    for _ in 0..64 {
        let Some(user) = index.class_shape(&current) else { return false };
        let before: Vec<&crate::types::Name> = match side {
            Side::Instance => user.prepends.iter().collect(),
            Side::Singleton => Vec::new(),
        };
        // Mixed in from outside the body too (`Bag.include(Enumerable)`),
        // which the class's own lists do not show.
        let prepended_outside = side == Side::Instance && cx.project.prepended_to(&current).any(|m| declares(m));
        if before.iter().any(|m| declares(m)) || prepended_outside {
            return true;
        }
        if &*current == owner {
            return false;
        }
        let after: Vec<&crate::types::Name> = match side {
            Side::Instance => user.includes.iter().collect(),
            Side::Singleton => user.extends.iter().collect(),
        };
        if after.iter().any(|m| declares(m)) || cx.project.mixed_into(&current, owner_of(side)).any(|m| declares(m)) {
            return true;
        }
        current = match &user.superclass {
            crate::infer::Superclass::Known(parent) => parent.clone(),
            _ => return false,
        };
    }
    true
}

/// Can a signature method of `class` be taken at its word: a signature
/// class, nothing in the project touching the method, and no closer
/// run-time definition the signatures omit (`Struct.new` is not `Class#new`)?
fn signature_target(cx: &RuleContext<'_, '_>, class: &str, side: Side, method: &str) -> Option<()> {
    let mut chain = vec![class.to_string()];
    chain.extend(cx.inference().index.ancestor_names(cx.env, class).iter().map(|a| a.to_string()));
    let chain: Vec<&str> = chain.iter().map(String::as_str).collect();
    let owner = owner_of(side);
    let unsure = !cx.env.has_class(class)
        || super::site::project_may_provide(cx, class, side, method)
        || super::core_gaps::defined_at_run_time(&chain, owner, method);
    (!unsure).then_some(())
}

/// `C.new(...)`: what takes the arguments is C's own `self.new` if it has
/// one, else `initialize` (a signature's, or the class's `def`).
fn construction<'c>(cx: &'c RuleContext<'_, '_>, ty: Type, class: &str) -> Option<(Type, Target<'c>)> {
    let inference = cx.inference();
    // `new` made private (`private_class_method :new`, `Singleton`), or a
    // class reopened under another name (`Bar = Foo; class Bar`).
    if cx.project.made_private_anywhere("new") || cx.project.evaluates_strings() || cx.project.aliased(class) {
        return None;
    }
    match inference.lookup(class, Side::Singleton, "new") {
        Callee::Rbs(found) if &*found.owner != "Class" => {
            signature_target(cx, class, Side::Singleton, "new")?;
            return Some((
                ty,
                Target::Signature { class: class.to_string(), side: Side::Singleton, overloads: found.overloads },
            ));
        }
        Callee::Rbs(_) => {}
        Callee::Def(id) => {
            let info = inference.index.def(id);
            let def = info.node.as_def_node()?;
            // A `new` made private in a `class << self` section.
            let (owner, owner_side) = info.owner.as_ref()?;
            let shape = cx.project.only_def_in("new", owner, owner_of(*owner_side))?;
            if shape.restricted {
                return None;
            }
            let arity = crate::syntax::arity::DefArity::of(&def)?;
            return single_def(cx, "new").then_some((ty, Target::Def(arity)));
        }
        _ => return None,
    }
    match inference.lookup(class, Side::Instance, "initialize") {
        Callee::Rbs(found) => {
            signature_target(cx, class, Side::Instance, "initialize")?;
            signature_target(cx, class, Side::Singleton, "new")?;
            Some((ty, Target::Signature { class: class.to_string(), side: Side::Instance, overloads: found.overloads }))
        }
        Callee::Def(id) => {
            let info = inference.index.def(id);
            let def = info.node.as_def_node()?;
            let (owner, _) = info.owner.as_ref()?;
            let user = inference.index.class(owner)?;
            let conditional = cx
                .project
                .only_def_in("initialize", owner, crate::rules::project::Owner::Instance)
                .is_some_and(|shape| shape.conditional);
            let sure = !user.unknown_mixins
                && !conditional
                && !cx.project.aliased(owner)
                && !user.redefined.contains_key(&(Side::Instance, "initialize".to_string()))
                && !cx.project.defined_dynamically("initialize")
                && !cx.project.defined_dynamically("new")
                && [class, &**owner].iter().all(|c| !cx.project.is_spread(c) && !cx.project.any_dynamic(&[c]));
            let arity = crate::syntax::arity::DefArity::of(&def)?;
            sure.then_some((ty, Target::Def(arity)))
        }
        Callee::External(id) => {
            let (owner, _) = inference.index.external_owner(id)?;
            // Defined once in its class's body (another file's `def` may be
            // redefined there, which its table does not show).
            let shape = cx.project.only_def_in("initialize", &owner, crate::rules::project::Owner::Instance)?;
            let user = inference.index.class(&owner)?;
            let sure = !user.unknown_mixins
                && !shape.conditional
                && !cx.project.aliased(&owner)
                && !cx.project.defined_dynamically("initialize")
                && !cx.project.defined_dynamically("new")
                && [class, &*owner].iter().all(|c| !cx.project.is_spread(c) && !cx.project.any_dynamic(&[c]));
            sure.then_some((ty, Target::Def(shape.arity.clone()?)))
        }
        _ => None,
    }
}

/// Is this the only `def` of the name anywhere, with no other way (alias,
/// `define_method`, an attribute macro) to define it?
fn single_def(cx: &RuleContext<'_, '_>, method: &str) -> bool {
    cx.project.def_count(method) == 1 && !cx.project.defined_dynamically(method)
}

fn overridden_in_signatures(cx: &RuleContext<'_, '_>, class: &str, method: &str) -> bool {
    cx.env.declared_below(class, method)
}

/// `self` in a method body, outside any block (a block may run with
/// another `self`): the class the `def` belongs to.
fn self_in_method_body(cx: &RuleContext<'_, '_>, offset: usize) -> Option<(String, Side)> {
    let inference = cx.inference();
    let def = inference
        .index
        .defs
        .iter()
        .filter(|def| contains(&def.node, offset))
        .min_by_key(|def| def.node.location().end() - def.node.location().start())?;
    // Blocks are in pre-order, so those starting after `offset` cannot hold it.
    let spans = cx.block_spans();
    let before = spans.partition_point(|(start, _)| *start <= offset);
    let in_block =
        spans[..before].iter().any(|(start, end)| (*start..*end).contains(&offset) && contains(&def.node, *start));
    if in_block {
        return None;
    }
    let (class, side) = def.owner.as_ref()?;
    Some((class.to_string(), *side))
}

fn contains(node: &Node<'_>, offset: usize) -> bool {
    let location = node.location();
    (location.start() as usize..location.end() as usize).contains(&offset)
}
