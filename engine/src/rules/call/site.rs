//! What the call rules share: a call's parts as they were written, the class
//! a receiver type names, and whether a method is surely absent from it.

use ruby_prism::{CallNode, Node};

use super::{core_gaps, stdlib_methods};
use crate::infer::{Callee, Side};
use crate::rules::project::Owner;
use crate::rules::RuleContext;
use crate::syntax::start;
use crate::types::{display, Type};

/// One call as written.
pub struct Call<'pr> {
    pub node: CallNode<'pr>,
    pub method: std::borrow::Cow<'pr, str>,
    /// Byte offset of the method-name token: where call rules anchor.
    pub anchor: usize,
    pub receiver: Option<Node<'pr>>,
    /// Plain positional arguments, when every argument is one.
    pub positional: Option<Vec<Node<'pr>>>,
    /// Plain positional arguments and then literal keywords (`f(a, k: 1)`),
    /// when that is the whole argument list: how many before, and the names.
    pub keyworded: Option<(usize, Vec<String>)>,
}

impl<'pr> Call<'pr> {
    pub fn of(node: &Node<'pr>) -> Option<Call<'pr>> {
        let call = node.as_call_node()?;
        let anchor = start(&call.message_loc()?);
        let arguments: Vec<Node<'pr>> = call.arguments().map(|a| a.arguments().iter().collect()).unwrap_or_default();
        let plain = arguments.iter().all(is_plain);
        let block_pass = matches!(call.block(), Some(Node::BlockArgumentNode { .. }));
        let keyworded = match arguments.split_last() {
            Some((Node::KeywordHashNode { .. }, before)) if !block_pass && before.iter().all(is_plain) => {
                literal_keywords(arguments.last()?).map(|names| (before.len(), names))
            }
            _ => None,
        };
        Some(Call {
            method: crate::syntax::name_text(call.name()),
            anchor,
            receiver: call.receiver(),
            positional: (plain && !block_pass).then_some(arguments),
            keyworded,
            node: call,
        })
    }

    /// An explicit receiver other than `self` (whose class may be a
    /// subclass defining what the superclass lacks).
    pub fn explicit_receiver(&self) -> Option<&Node<'pr>> {
        self.receiver.as_ref().filter(|r| !matches!(r, Node::SelfNode { .. }))
    }

    pub fn is_safe_navigation(&self) -> bool {
        self.node.is_safe_navigation()
    }
}

/// An argument that is one value: not a splat, keywords, a block or `...`.
fn is_plain(argument: &Node<'_>) -> bool {
    !matches!(
        argument,
        Node::SplatNode { .. }
            | Node::KeywordHashNode { .. }
            | Node::BlockArgumentNode { .. }
            | Node::ForwardingArgumentsNode { .. }
    )
}

/// The names of `k: v` keywords, when each key is a plain symbol (no
/// `**opts`, no string or computed key).
fn literal_keywords(keywords: &Node<'_>) -> Option<Vec<String>> {
    let mut names = Vec::new();
    for element in keywords.as_keyword_hash_node()?.elements().iter() {
        let key = element.as_assoc_node()?.key();
        let symbol = key.as_symbol_node()?;
        names.push(String::from_utf8(symbol.unescaped().to_vec()).ok()?);
    }
    Some(names)
}

/// The class whose methods a single-class type answers to, and on which
/// side: instances, or the class object itself.
pub fn receiver_class(ty: &Type) -> Option<(String, Side)> {
    match ty {
        Type::Singleton(class) => Some((class.to_string(), Side::Singleton)),
        other => other.class_name().map(|class| (class.to_string(), Side::Instance)),
    }
}

/// Is the value exactly of its class (a literal), not maybe a subclass?
pub fn is_exact(ty: &Type) -> bool {
    matches!(ty, Type::Constant(_) | Type::Tuple(_) | Type::Shape(_) | Type::IntRange { .. })
}

/// The receiver type as messages and `receiver_type` show it.
pub fn shown(ty: &Type) -> String {
    display(ty)
}

/// Is `method` surely missing on values of type `ty`? Only signature
/// classes are judged (a class known only from source may be reopened by
/// a C extension or a gem); the class and its ancestors lack the method in
/// the signatures and at run time (see `core_gaps`), and nothing in the
/// project could add it (a reopened class, a module, `method_missing`,
/// code evaluated from strings).
pub fn surely_missing(cx: &RuleContext<'_, '_>, ty: &Type, method: &str) -> bool {
    let Some((class, side)) = receiver_class(ty) else { return false };
    // A project class counts as known: the model sees all of it.
    let project_class = cx.inference().index.project.is_some() && cx.inference().index.class_shape(&class).is_some();
    if !(cx.env.has_class(&class) || project_class) {
        return false;
    }
    let unseen = if &*class == "NilClass" { cx.unseen_code_may_give_nil(method) } else { cx.sees_unseen_code() };
    if unseen {
        return false;
    }
    // A project class is judged only where its whole method set is in
    // view: not one a native extension the project loads may define
    // (`require "fiddle.so"` and `Fiddle::Function`), nor in a file that
    // probes methods with `respond_to?` (written for several versions of
    // its collaborators).
    if project_class && !cx.env.has_class(&class) {
        let root = class.split("::").next().unwrap_or(&class);
        if cx.project.native_namespace(root) || !cx.hazards().probed.is_empty() || !defined_here(cx, &class) {
            return false;
        }
    }
    // Class objects answer to singleton methods a value typed `Class` does
    // not show; modules' own methods are what C extensions add most
    // (`ObjectSpace.each_iseq` from a gem's extension).
    let opaque_class_object = side == Side::Instance && matches!(class.as_str(), "Class" | "Module");
    if opaque_class_object
        || (side == Side::Singleton && (cx.env.is_module(&class) || cx.inference().is_module(&class)))
    {
        return false;
    }
    let inference = cx.inference();
    if !matches!(inference.lookup(&class, side, method), Callee::Missing { complete: true }) {
        return false;
    }
    let chain = ancestry(cx, &class);
    let chain: Vec<&str> = chain.iter().map(String::as_str).collect();
    let owner = owner_of(side);
    if core_gaps::defined_at_run_time(&chain, owner, method) || stdlib_methods::adds(&chain, owner, method) {
        return false;
    }
    if project_may_provide(cx, &class, side, method) {
        return false;
    }
    // A value typed by its class, not its spelling, may be an instance of
    // a subclass: of the signatures', or of the project's.
    if !is_exact(ty) && side == Side::Instance {
        let subclass_defines = cx.env.class_names().any(|other| {
            **other != *class && cx.env.inherits(other, &class) && cx.env.instance_method(other, method).is_some()
        });
        if subclass_defines || (cx.project.has_subclasses(&class) && cx.project.defines_anywhere(method)) {
            return false;
        }
    }
    // `method_missing` may come as any method may: from a module mixed in
    // from outside the class body (`A.include(M)`), a `class_eval` block,
    // a `define_method`.
    !answers_through_method_missing(cx, &chain) && !project_may_provide(cx, &class, side, "method_missing")
}

/// Is the class created by the code in view, not reopened from code the
/// project does not include (`class Irb` in irb/ext/multi-irb.rb adds to
/// the class irb.rb creates)? Created: it writes its superclass, or has
/// an `initialize`, or is opened in the file its name points to (a library
/// holding `shop/price.rb` would clash with the project's on the load
/// path), or is an empty class body (nobody reopens a class to add
/// nothing) that names no namespace: `class Hoe; end` before `module
/// Hoe::Minitest` is there for the namespace, in a plugin of the class.
fn defined_here(cx: &RuleContext<'_, '_>, class: &str) -> bool {
    let index = &cx.inference().index;
    let Some(user) = index.class_shape(class) else { return false };
    owned_namespace(cx, class)
        || user.written.iter().any(|(kind, _)| *kind == crate::model::classes::PendingKind::Superclass)
        || index.class_for_method(class, "initialize").is_some_and(|c| c.instance_methods.contains_key("initialize"))
        || (!index.defines_any_method(class) && !cx.project.opens_inside(class))
}

/// Is the class, or a namespace it is in, opened in the file its name
/// points to (`Shop::Item` with `module Shop` in `lib/shop.rb`)? A
/// library defining it would clash with that file on the load path.
fn owned_namespace(cx: &RuleContext<'_, '_>, class: &str) -> bool {
    let mut name = class;
    loop {
        if cx.project.opened_in_own_file(name) {
            return true;
        }
        match name.rsplit_once("::") {
            Some((namespace, _)) => name = namespace,
            None => return false,
        }
    }
}

pub(super) fn ancestry(cx: &RuleContext<'_, '_>, class: &str) -> Vec<String> {
    let mut chain: Vec<String> = vec![class.to_string()];
    chain.extend(cx.inference().index.ancestor_names(cx.env, class).iter().map(|a| a.to_string()));
    chain
}

pub(super) fn owner_of(side: Side) -> Owner {
    match side {
        Side::Instance => Owner::Instance,
        Side::Singleton => Owner::Singleton,
    }
}

/// Could the project give (or take, or redefine) this method for values of
/// `class`: a definition on the class or an ancestor, a module mixed into
/// one, `method_missing` or string evals, or a class opened in several
/// files?
pub fn project_may_provide(cx: &RuleContext<'_, '_>, class: &str, side: Side, method: &str) -> bool {
    let chain = ancestry(cx, class);
    let chain: Vec<&str> = chain.iter().map(String::as_str).collect();
    let owner = owner_of(side);
    cx.project.may_define(&chain, owner, method)
        || cx.project.any_dynamic(&chain)
        || mixed_in_may_define(cx, &chain, owner, method)
        || chain.iter().any(|c| cx.inference().index.classes.contains_key(*c) && cx.project.is_spread(c))
}

/// Could a module the project mixes into one of these classes (or into
/// Object, which every class inherits) provide the method? Project modules'
/// methods are already among the project's definitions; a signature
/// module (core or standard library) is asked; an unknown one could
/// provide anything.
fn mixed_in_may_define(cx: &RuleContext<'_, '_>, chain: &[&str], side: Owner, method: &str) -> bool {
    let mut targets: Vec<(&str, Owner)> = chain.iter().map(|c| (*c, Owner::Instance)).collect();
    targets.push(("Object", Owner::Instance));
    if side == Owner::Singleton {
        targets.extend(chain.iter().map(|c| (*c, Owner::Singleton)));
    }
    targets.into_iter().any(|(class, mixed_side)| {
        cx.project.mixins_of(class, mixed_side).any(|module| {
            if cx.project.opens(module) || cx.project.opens_by_last_segment(module) {
                return false;
            }
            let declared = |env: &crate::rbs::Environment| {
                env.has_class(module).then(|| env.instance_method(module, method).is_some())
            };
            // An unknown module could provide anything.
            declared(cx.env).or_else(|| declared(stdlib_methods::environment())).unwrap_or(true)
        })
    })
}

/// A class (other than BasicObject, whose `method_missing` raises) that
/// declares `method_missing` answers to anything.
fn answers_through_method_missing(cx: &RuleContext<'_, '_>, chain: &[&str]) -> bool {
    chain.iter().filter(|c| **c != "BasicObject").any(|c| {
        cx.env.class(c).is_some_and(|decl| decl.instance_methods.contains_key("method_missing"))
            || cx.inference().index.class(c).is_some_and(|user| user.has_method_missing)
    })
}

/// Can the receiver's inferred type be trusted as the whole truth? Not a
/// global's.
/// Instance variables and `self`'s methods are typed from this file's
/// writes only: a class opened in several files or subclassed elsewhere
/// may store other things. And a receiver typed exactly `nil` must be
/// spelled `nil`, a local, or a signature method's result: a `nil` that
/// comes from an instance variable no write in this file changes is often
/// set by a subclass.
pub fn trusted_receiver(cx: &RuleContext<'_, '_>, receiver: &Node<'_>, ty: &Type) -> bool {
    // A global's signature type is a promise others break (`$stdout` is
    // often a StringIO).
    if matches!(receiver, Node::GlobalVariableReadNode { .. }) {
        return false;
    }
    let from_object_state = match receiver {
        Node::InstanceVariableReadNode { .. } => true,
        Node::CallNode { .. } => {
            let call = receiver.as_call_node().expect("a call");
            matches!(call.receiver(), None | Some(Node::SelfNode { .. }))
        }
        _ => false,
    };
    if from_object_state {
        let offset = receiver.location().start() as usize;
        match enclosing_class(cx, offset) {
            Some((class, _)) if !cx.project.is_spread(&class) && !cx.project.has_subclasses(&class) => {}
            _ => return false,
        }
    }
    if *ty == Type::nil() {
        return match receiver {
            Node::NilNode { .. } | Node::LocalVariableReadNode { .. } => true,
            Node::CallNode { .. } => !from_object_state,
            // Nobody sets an ivar spelled one slip away from one the class
            // writes (`@nmae` beside `@name`): a subclass would not either.
            Node::InstanceVariableReadNode { .. } => misspelled_ivar(cx, receiver).is_some(),
            _ => false,
        };
    }
    true
}

/// For a read of an instance variable no code in view writes, the one of
/// its class's that it is one slip away from (`@nmae` for `@name`; not a
/// plural of it, `@item` beside `@items`, which may be meant).
pub fn misspelled_ivar(cx: &RuleContext<'_, '_>, read: &Node<'_>) -> Option<String> {
    let name = crate::syntax::name(read.as_instance_variable_read_node()?.name());
    if name.chars().count() < 4 {
        return None;
    }
    // Written once in the file: a second read is likely a guard (`@nmae
    // && @nmae.upcase`, `defined?(@nmae)`), and a symbol or string naming
    // it may set it.
    let source = cx.parsed.source;
    let spelled = memchr::memmem::find_iter(source, name.as_bytes())
        .filter(|at| !source.get(at + name.len()).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_'))
        .count();
    if spelled != 1 {
        return None;
    }
    let (class, side) = enclosing_class(cx, read.location().start() as usize)?;
    // Reopened under another name, or given modules nobody can name.
    if cx.project.aliased(&class) || cx.project.any_dynamic(&[class.as_str()]) {
        return None;
    }
    let inference = cx.inference();
    let mut near: Vec<&str> = inference
        .ivars_written_in(&class, side)
        .filter(|written| {
            *written != name
                && strsim::osa_distance(written, &name) == 1
                && written.strip_suffix('s') != Some(&name)
                && name.strip_suffix('s') != Some(written)
        })
        .collect();
    near.sort_unstable();
    near.first().map(|n| n.to_string())
}

/// The class (not module) whose method body holds this offset, and the
/// side the method is on.
fn enclosing_class(cx: &RuleContext<'_, '_>, offset: usize) -> Option<(String, Side)> {
    let inference = cx.inference();
    let innermost = inference
        .index
        .defs
        .iter()
        .filter(|def| {
            let location = def.node.location();
            (location.start() as usize..location.end() as usize).contains(&offset)
        })
        .min_by_key(|def| def.node.location().end() - def.node.location().start())?;
    let (class, side) = innermost.owner.as_ref()?;
    let user = inference.index.class(class)?;
    (!user.is_module).then(|| (class.to_string(), *side))
}

/// Does the file guard calls of this method some other way: probing it
/// with `respond_to?`, `method_defined?` and the like, or rescuing
/// NoMethodError around it?
pub fn guarded_elsewhere(cx: &RuleContext<'_, '_>, call: &Call<'_>) -> bool {
    cx.hazards().probed.contains(&*call.method) || cx.hazards().rescues_no_method(call.anchor)
}
