//! The `def`s of this file that the signatures also declare: a class's
//! own RBS declaration of the method, beside its Ruby body.

use crate::infer::Side;
use crate::rbs::ast::MethodType;
use crate::rules::RuleContext;
use crate::syntax::name;

pub struct SignedDef<'c> {
    pub class: String,
    pub side: Side,
    pub method: String,
    pub def: ruby_prism::DefNode<'c>,
    /// The class's own overloads for the method.
    pub overloads: &'c [MethodType],
}

pub fn signed_defs<'c>(cx: &'c RuleContext<'_, '_>) -> Vec<SignedDef<'c>> {
    let inference = cx.inference();
    inference
        .index
        .defs
        .iter()
        .filter_map(|info| {
            let (class, side) = info.owner.as_ref()?;
            let def = info.node.as_def_node()?;
            let method = name(def.name());
            let decl = cx.env.class(class)?;
            let table = match side {
                Side::Instance => &decl.instance_methods,
                Side::Singleton => &decl.singleton_methods,
            };
            let overloads = table.get(&method)?;
            Some(SignedDef { class: class.to_string(), side: *side, method, def, overloads })
        })
        .collect()
}
