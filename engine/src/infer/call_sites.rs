//! Parameters typed from the project's call sites (`model::params`): the
//! inferrer logs what each call passes to a project method, a syntactic
//! scan finds names that may be called unseen and which `def`s are
//! private, and a `def` binds what the project's calls pass.

use std::rc::Rc;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use ruby_prism::{CallNode, Node, Visit};

use super::calls::Arg;
use super::flow::State;
use super::index::Side;
use super::{Frame, Inferrer};
use crate::model::index::Dep;
use crate::model::params::{self, Arity, Bound, CallLog, CallShape, EntrySite, ForwardedParam, ParameterPolicy};
use crate::stack_guard::ensure_room;
use crate::syntax::name;
use crate::types::{union, Name, Type};

/// The calls one pass of inference saw, by receiver class.
#[derive(Default)]
pub struct CallRecorder {
    calls: HashMap<(Name, Side, String), Vec<CallShape>>,
    entries: HashMap<(Name, Side, String), Vec<EntrySite>>,
    escaped: HashSet<String>,
}

impl CallRecorder {
    /// A call of the method `key`, made at `entry`, passing `shape`.
    pub fn add(&mut self, key: (Name, Side, String), entry: EntrySite, shape: CallShape) {
        CallLog::add_entry(&mut self.entries, key.clone(), entry);
        CallLog::add(&mut self.calls, key, shape);
    }

    /// A name something may call with arguments no call site shows.
    pub fn escape(&mut self, method: String) {
        self.escaped.insert(method);
    }

    /// The log for the file's exports, in a stable order.
    pub fn into_log(self) -> CallLog {
        let mut calls: Vec<((Name, Side, String), Vec<CallShape>)> = self.calls.into_iter().collect();
        calls.sort_by(|a, b| a.0.cmp(&b.0));
        let mut entries: Vec<((Name, Side, String), Vec<EntrySite>)> = self.entries.into_iter().collect();
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let mut escaped: Vec<String> = self.escaped.into_iter().collect();
        escaped.sort();
        CallLog { calls, entries, escaped, ..CallLog::default() }
    }
}

/// The calling method's required parameters, which its calls may pass on
/// (`model::params::resolve_forwarded`).
#[derive(Debug)]
pub(crate) struct Forwardable {
    method: (Name, Side, String),
    arity: Arity,
    /// By index; blank where the body assigns the name or a block's own
    /// parameter shadows it.
    requireds: Vec<String>,
}

impl Forwardable {
    /// The same, inside a block or lambda declaring `locals`.
    pub fn shadowed_by(&self, locals: &[String]) -> Option<Rc<Forwardable>> {
        let requireds: Vec<String> =
            self.requireds.iter().map(|r| if locals.contains(r) { String::new() } else { r.clone() }).collect();
        requireds
            .iter()
            .any(|r| !r.is_empty())
            .then(|| Rc::new(Forwardable { method: self.method.clone(), arity: self.arity.clone(), requireds }))
    }

    /// The parameter a read of `local` passes on, if it is one.
    pub fn param(&self, local: &str) -> Option<ForwardedParam> {
        let index = self.requireds.iter().position(|r| !r.is_empty() && r == local)?;
        Some(ForwardedParam { method: self.method.clone(), arity: self.arity.clone(), index })
    }
}

/// What a call says of the block it gives: surely one, or its caller's
/// own `&blk` handed on (from that method, when its calls are in view).
#[derive(Default)]
pub(super) struct GivenBlock {
    pub surely: bool,
    pub from: Option<(Name, Side, String)>,
}

/// What the arguments of one call are, as a parameter list sees them.
fn shape_of(args: &[Arg], forwarded: &[(usize, ForwardedParam)], block: &GivenBlock) -> CallShape {
    let mut shape = CallShape {
        positional: Vec::new(),
        keywords: Some(Vec::new()),
        opaque: false,
        forwarded: forwarded.to_vec(),
        block: block.surely,
        block_from: block.from.clone(),
    };
    for arg in args {
        match arg {
            Arg::Value(ty) => shape.positional.push(ty.clone()),
            Arg::Splat | Arg::Forward => return CallShape::opaque(),
            Arg::Keywords(Type::Shape(hash)) if !hash.open && hash.fields.iter().all(|f| !f.optional) => {
                let mut fields: Vec<(String, Type)> =
                    hash.fields.iter().map(|f| (f.key.clone(), f.ty.clone())).collect();
                fields.sort_by(|a, b| a.0.cmp(&b.0));
                shape.keywords = Some(fields);
            }
            Arg::Keywords(_) => shape.keywords = None,
        }
    }
    shape
}

impl<'pr> Inferrer<'pr, '_> {
    fn parameter_policy(&self) -> ParameterPolicy {
        self.index.project.as_ref().map_or(ParameterPolicy::Off, |p| p.index.policy)
    }

    /// Logs a call for the project's parameter inference. Under the
    /// private policy only calls on `self` can reach the methods typed.
    /// With the arguments handed on as they came and what the call says of
    /// `self`'s instance variables.
    pub(super) fn note_call(
        &mut self,
        method: &str,
        on_self: bool,
        receiver: &Type,
        (args, block): (&[Arg], &GivenBlock),
        (forwarded, state, frame): (&[(usize, ForwardedParam)], &State, &Frame),
        self_unknown: bool,
    ) {
        let policy = self.parameter_policy();
        if policy == ParameterPolicy::Off || (!on_self && policy == ParameterPolicy::Private) || self.dead > 0 {
            return;
        }
        let unknown = [Type::untyped()];
        let members = if self_unknown { &unknown[..] } else { receiver.members() };
        let shape = shape_of(args, forwarded, block);
        let entry = self.entry_site(on_self, state, frame);
        for member in members {
            let key = match member {
                Type::Singleton(class) => (class.clone(), Side::Singleton),
                other => match other.class_name() {
                    Some(class) => (Name::from(class), Side::Instance),
                    None => {
                        self.note_escape(method);
                        continue;
                    }
                },
            };
            let key = (key.0, key.1, method.to_string());
            self.apply_event(super::replay::Event::Call(key, entry.clone(), shape.clone()));
        }
    }

    /// What a call on `self` says of the object's instance variables when
    /// the method it calls starts (see [`EntrySite`]); nothing for a call
    /// on another object.
    pub(super) fn entry_site(&self, on_self: bool, state: &State, frame: &Frame) -> EntrySite {
        let Some(flow) = state.as_ref().filter(|_| on_self && frame.self_known) else { return EntrySite::default() };
        // Known to hold something other than nil counts as set too.
        let held = flow.ivars.iter().filter(|(_, ty)| !ty.may_be_nil()).map(|(name, _)| name);
        let mut set: Vec<String> =
            flow.ivars_set.iter().chain(held).filter(|name| name.starts_with('@')).cloned().collect();
        set.sort();
        set.dedup();
        EntrySite { set, within: frame.entry_key.as_deref().cloned() }
    }

    /// The method `def` is, when the policy lets what its calls show
    /// (arguments, variables set) be taken as all it is called with.
    pub(super) fn typed_by_calls(&self, id: usize) -> Option<(Name, Side, String)> {
        let project = self.index.project.as_ref()?;
        let policy = project.index.policy;
        let info = self.index.def(id);
        let (class, side) = info.owner.clone()?;
        let def = info.node.as_def_node()?;
        let eligible = match policy {
            ParameterPolicy::Off => false,
            ParameterPolicy::Private => {
                side == Side::Instance && self.index.is_private_def(info.node.location().start() as usize)
            }
            ParameterPolicy::All => true,
        };
        // Classes the signatures know have callers and relatives this
        // project does not show; a declared method's RBS is its contract.
        // The name is copied only for a def that may be typed by its calls.
        let method = crate::syntax::name_text(def.name());
        if !eligible || info.dual || params::called_by_ruby(&method) || self.env.has_class(&class) {
            return None;
        }
        Some((class, side, method.into_owned()))
    }

    /// The instance variables every call of `def` surely set before it
    /// starts, when all its calls are in view.
    pub(super) fn entry_ivars(&self, id: usize) -> Vec<String> {
        let Some((class, side, method)) = self.typed_by_calls(id) else { return Vec::new() };
        let Some(project) = self.index.project.as_ref() else { return Vec::new() };
        let found = project.index.entry_ivars(&class, side, &method).to_vec();
        project.read(Dep::EntryIvars(class, side, method));
        found
    }

    /// A writer called by a write with no call node of its own (`self.n
    /// += 1`, `self.a, b = ...`, `rescue => self.e`): a call like others.
    pub(super) fn note_written(
        &mut self,
        receiver_node: Option<&ruby_prism::Node<'pr>>,
        receiver: &Type,
        writer: &str,
        args: Vec<Type>,
        frame: &super::Frame,
    ) {
        let implicit = receiver_node.is_none();
        let on_self = implicit || matches!(receiver_node, Some(ruby_prism::Node::SelfNode { .. }));
        let args: Vec<Arg> = args.into_iter().map(Arg::Value).collect();
        // What the writer's call says of the ivars is not followed.
        self.note_call(
            writer,
            on_self,
            receiver,
            (&args, &GivenBlock::default()),
            (&[], &None, frame),
            implicit && !frame.self_known,
        );
    }

    /// A name something may call with arguments no call site shows.
    pub(super) fn note_escape(&mut self, method: &str) {
        // A name noted before needs nothing more, unless a window records it.
        let known = self.call_log.escaped.contains(method) && !self.recording_events();
        if self.parameter_policy() != ParameterPolicy::Off && !known {
            self.apply_event(super::replay::Event::Escape(method.to_string()));
        }
    }

    /// The method `def` is, with its parameter list, when the policy lets
    /// its parameters be typed from the project's calls.
    fn typed_from_calls(
        &self,
        id: usize,
        list: &ruby_prism::ParametersNode<'pr>,
    ) -> Option<((Name, Side, String), Arity)> {
        let (class, side, method) = self.typed_by_calls(id)?;
        if list.keyword_rest().is_some_and(|k| matches!(k, Node::ForwardingParameterNode { .. })) {
            return None;
        }
        let arity = Arity {
            required: list.requireds().iter().count(),
            optional: list.optionals().iter().count(),
            rest: list.rest().is_some(),
            posts: list.posts().iter().count(),
            keywords: list
                .keywords()
                .iter()
                .filter_map(|k| {
                    if let Some(required) = k.as_required_keyword_parameter_node() {
                        Some((keyword_name(required.name()), true))
                    } else {
                        k.as_optional_keyword_parameter_node().map(|o| (keyword_name(o.name()), false))
                    }
                })
                .collect(),
            keyword_rest: list.keyword_rest().is_some(),
        };
        Some(((class, side, method), arity))
    }

    /// What the project's calls pass to the parameters of `def`, when the
    /// policy lets them be typed and every call is in view.
    pub(super) fn parameters_from_calls(&self, id: usize, list: &ruby_prism::ParametersNode<'pr>) -> Option<Bound> {
        let ((class, side, method), arity) = self.typed_from_calls(id, list)?;
        let project = self.index.project.as_ref()?;
        project.read(Dep::Params(class.clone(), side, method.clone()));
        let shapes = project.index.parameter_calls(&class, side, &method)?;
        params::bind(shapes, &arity)
    }

    /// The required parameters of `def` that its calls may hand on as they
    /// came: those of a method typed from its calls that the body never
    /// assigns (`writes`).
    pub(super) fn forwardable(
        &self,
        id: usize,
        list: &ruby_prism::ParametersNode<'pr>,
        writes: &HashMap<String, Vec<usize>>,
    ) -> Option<Rc<Forwardable>> {
        let (method, arity) = self.typed_from_calls(id, list)?;
        let requireds = list
            .requireds()
            .iter()
            .map(|p| match p.as_required_parameter_node() {
                Some(p) if !writes.contains_key(&name(p.name())) => name(p.name()),
                _ => String::new(),
            })
            .collect();
        Some(Rc::new(Forwardable { method, arity, requireds }))
    }

    /// Binds a method's parameters from its calls (see `methods.rs` for
    /// the untyped binding this refines).
    pub(super) fn bind_from_calls(
        &mut self,
        list: &ruby_prism::ParametersNode<'pr>,
        bound: &Bound,
        state: &mut State,
        frame: &Frame,
    ) {
        let untyped = Type::untyped();
        for (required, ty) in list.requireds().iter().zip(&bound.requireds) {
            self.bind_parameter(&required, ty.as_ref().unwrap_or(&untyped), state, frame);
        }
        for (optional, slot) in list.optionals().iter().zip(&bound.optionals) {
            let Some(parameter) = optional.as_optional_parameter_node() else { continue };
            let default = self.parameter_default(&parameter.value(), state, frame);
            let ty = match slot {
                Some((passed, true)) => union([passed.clone(), default.forget_exact()]),
                Some((passed, false)) => passed.clone(),
                None => Type::untyped(),
            };
            self.assign_local(&name(parameter.name()), &ty, state);
            self.record(&optional, &ty);
        }
        if let Some(rest) = list.rest() {
            let element = bound.rest.clone().unwrap_or_else(Type::untyped);
            let ty = Type::generic("Array", vec![element]);
            if let Some(id) = rest.as_rest_parameter_node().and_then(|p| p.name()) {
                self.assign_local(&name(id), &ty, state);
            }
            self.record(&rest, &ty);
        }
        for (post, ty) in list.posts().iter().zip(&bound.posts) {
            self.bind_parameter(&post, ty.as_ref().unwrap_or(&untyped), state, frame);
        }
        self.bind_keyword_parameters(list, state, frame);
        // Every call gives a block: `&block` holds a Proc.
        if let Some(block) = list.block().filter(|_| bound.block) {
            let ty = Type::nominal("Proc");
            if let Some(id) = block.as_block_parameter_node().and_then(|b| b.name()) {
                self.assign_local(&name(id), &ty, state);
            }
            self.record(&block, &ty);
        }
        // Keywords the calls show replace the untyped binding above.
        for (keyword, slot) in list.keywords().iter().zip(&bound.keywords) {
            let Some((passed, defaulted)) = slot else { continue };
            let (local, ty) = if let Some(required) = keyword.as_required_keyword_parameter_node() {
                (keyword_name(required.name()), passed.clone())
            } else if let Some(optional) = keyword.as_optional_keyword_parameter_node() {
                // The default was evaluated by the untyped binding; its type
                // is what that recorded for the value node.
                let default = self.recorded(&optional.value()).cloned().unwrap_or_else(Type::untyped);
                let ty = if *defaulted { union([passed.clone(), default.forget_exact()]) } else { passed.clone() };
                (keyword_name(optional.name()), ty)
            } else {
                continue;
            };
            self.assign_local(&local, &ty, state);
            self.record(&keyword, &ty);
        }
    }
}

fn keyword_name(id: ruby_prism::ConstantId<'_>) -> String {
    name(id).trim_end_matches(':').to_string()
}

/// Names a file may call without a call site that shows the arguments:
/// symbol literals (`send(:x)`, `method(:x)`, `before(:x)`, `alias`),
/// strings that spell a method name, the literal ends of names built by
/// interpolation, and defs that read `__method__`. `private :x` only
/// restricts a method, so its arguments do not count.
pub fn escaped_names(root: &Node<'_>, policy: ParameterPolicy) -> (Vec<String>, Vec<String>, Vec<String>, Vec<String>) {
    // `public_send` reaches no private method: under the `private` policy,
    // whatever name it is given types nothing less.
    let mut scan = NameScan { public_calls_count: policy == ParameterPolicy::All, ..NameScan::default() };
    scan.visit(root);
    let sorted = |set: HashSet<String>| {
        let mut list: Vec<String> = set.into_iter().collect();
        list.sort();
        list
    };
    (sorted(scan.names), sorted(scan.prefixes), sorted(scan.suffixes), sorted(scan.infixes))
}

/// Calls whose first argument names a method to call or define.
const NAMES_A_METHOD: &[&str] = &[
    "send",
    "__send__",
    "public_send",
    "method",
    "public_method",
    "instance_method",
    "respond_to?",
    "define_method",
    "alias_method",
    "try",
];

#[derive(Default)]
struct NameScan {
    names: HashSet<String>,
    prefixes: HashSet<String>,
    suffixes: HashSet<String>,
    infixes: HashSet<String>,
    defs: Vec<String>,
    /// For each enclosing `class` or `module` body, innermost last: is it
    /// a module?
    modules: Vec<bool>,
    /// Public methods' parameters are typed too (`parameter_inference:
    /// all`): `public_send` may reach them.
    public_calls_count: bool,
}

fn spells_method(text: &str) -> bool {
    let body = text.trim_end_matches(['?', '!', '=']);
    !body.is_empty()
        && text.len() - body.len() <= 1
        && !body.starts_with(|c: char| c.is_ascii_digit())
        && body.chars().all(|c| c == '_' || c.is_alphanumeric())
}

impl NameScan {
    /// A name built by interpolation: when its literal parts could all be
    /// part of a method name, names sharing its literal head or tail may be
    /// called through it, and where it is used as a name (`direct`: a
    /// symbol, `send`'s argument, `to_sym`'s receiver), its middle too.
    fn interpolated(&mut self, parts: Vec<Node<'_>>, direct: bool) {
        let literal =
            |part: &Node<'_>| part.as_string_node().map(|s| crate::syntax::decoded(s.unescaped()).into_owned());
        let texts: Vec<Option<String>> = parts.iter().map(|p| literal(p).filter(|t| !t.is_empty())).collect();
        let name_like = |t: &String| t.chars().all(|c| c == '_' || c.is_alphanumeric() || matches!(c, '?' | '!' | '='));
        if texts.iter().flatten().any(|t| !name_like(t)) || parts.len() < 2 {
            return;
        }
        match (texts.first().cloned().flatten(), texts.last().cloned().flatten()) {
            (Some(head), _) => {
                self.prefixes.insert(head);
            }
            (None, Some(tail)) => {
                self.suffixes.insert(tail);
            }
            (None, None) if direct => {
                for middle in texts.into_iter().flatten() {
                    self.infixes.insert(middle);
                }
            }
            (None, None) => {}
        }
    }
}

impl NameScan {
    /// A method that calls by a name it is given, or runs code it is
    /// given, named as a value (`send(:send, name, 5)`, `method(:eval)`,
    /// `:send.to_proc`): what it calls no text here shows, so any name.
    fn note_caller_by_name(&mut self, text: &str) {
        let calls = match text {
            "send" | "__send__" | "method" | "instance_method" => true,
            "public_send" | "public_method" => self.public_calls_count,
            _ => RUNS_CODE.contains(&text),
        };
        if calls {
            self.prefixes.insert(String::new());
        }
    }

    /// Every identifier in a string's literal text.
    fn words_of(&mut self, node: &Node<'_>) {
        let parts: Vec<Node<'_>> = match node {
            Node::InterpolatedStringNode { .. } => {
                node.as_interpolated_string_node().map(|n| n.parts().iter().collect()).unwrap_or_default()
            }
            other => vec![crate::syntax::node_clone(other)],
        };
        for part in parts {
            let Some(string) = part.as_string_node() else { continue };
            let text = crate::syntax::decoded(string.unescaped()).into_owned();
            for word in text.split(|c: char| !(c == '_' || c.is_alphanumeric() || matches!(c, '?' | '!'))) {
                if spells_method(word) {
                    self.names.insert(word.to_string());
                }
            }
        }
    }
}

impl<'pr> Visit<'pr> for NameScan {
    fn visit_branch_node_enter(&mut self, _node: Node<'pr>) {
        ensure_room();
    }

    fn visit_symbol_node(&mut self, symbol: &ruby_prism::SymbolNode<'pr>) {
        let text = crate::syntax::decoded(symbol.unescaped()).into_owned();
        self.note_caller_by_name(&text);
        self.names.insert(text);
    }

    fn visit_string_node(&mut self, string: &ruby_prism::StringNode<'pr>) {
        let text = crate::syntax::decoded(string.unescaped());
        if spells_method(&text) {
            self.note_caller_by_name(&text);
            self.names.insert(text.into_owned());
        }
    }

    fn visit_interpolated_symbol_node(&mut self, node: &ruby_prism::InterpolatedSymbolNode<'pr>) {
        self.interpolated(node.parts().iter().collect(), true);
        ruby_prism::visit_interpolated_symbol_node(self, node);
    }

    fn visit_interpolated_string_node(&mut self, node: &ruby_prism::InterpolatedStringNode<'pr>) {
        self.interpolated(node.parts().iter().collect(), false);
        ruby_prism::visit_interpolated_string_node(self, node);
    }

    fn visit_def_node(&mut self, def: &ruby_prism::DefNode<'pr>) {
        self.defs.push(name(def.name()));
        ruby_prism::visit_def_node(self, def);
        self.defs.pop();
    }

    fn visit_module_node(&mut self, module: &ruby_prism::ModuleNode<'pr>) {
        self.modules.push(true);
        ruby_prism::visit_module_node(self, module);
        self.modules.pop();
    }

    fn visit_class_node(&mut self, class: &ruby_prism::ClassNode<'pr>) {
        self.modules.push(false);
        ruby_prism::visit_class_node(self, class);
        self.modules.pop();
    }

    fn visit_call_node(&mut self, call: &CallNode<'pr>) {
        let method = crate::syntax::name_text(call.name());
        // A module's method calling on `self` reaches whatever the class
        // that includes it (or an object extended with it, or a sibling
        // module's) defines under that name: a caller no class's own
        // calls show.
        let on_self = matches!(call.receiver(), None | Some(Node::SelfNode { .. }));
        if on_self && !self.defs.is_empty() && self.modules.last() == Some(&true) {
            self.names.insert(method.to_string());
        }
        if method == "__method__" {
            if let Some(current) = self.defs.last() {
                self.names.insert(current.clone());
            }
        }
        let named = match &*method {
            "to_sym" | "intern" => call.receiver(),
            _ if NAMES_A_METHOD.contains(&&*method) => call.arguments().and_then(|a| a.arguments().iter().next()),
            _ => None,
        };
        if let Some(string) = named.as_ref().and_then(|n| n.as_interpolated_string_node()) {
            self.interpolated(string.parts().iter().collect(), true);
        }
        // `send(name, a)` with a name no text spells (a variable, a call, a
        // splat) may call any method, a private one among them.
        let calls_by_name = match &*method {
            "send" | "__send__" | "method" | "instance_method" => true,
            "public_send" | "public_method" => self.public_calls_count,
            _ => false,
        };
        if calls_by_name && named.as_ref().is_some_and(computed_method_name) {
            self.prefixes.insert(String::new());
        }
        // `public(*private_instance_methods(false))`, `public "hel" + "per"`,
        // `send(:public, *names)`: a private method made public under a
        // name no text spells may be called from anywhere.
        if opens_by_computed_name(call, &method) {
            self.prefixes.insert(String::new());
        }
        // Code evaluated from a string may call any name it spells; code
        // whose text is not all written here (`instance_eval(File.read(path))`,
        // `eval("cen" + "tred(5)")`, an interpolation) any name at all.
        let compiles = method == "compile"
            && call.receiver().is_some_and(|r| r.location().as_slice().ends_with(b"InstructionSequence"));
        // A template run against this scope (`erb.result(binding)`), or
        // compiled into a method (`erb.def_method(Page, "render()")`), is code
        // nobody here reads either.
        let hands_binding = call.arguments().is_some_and(|list| {
            list.arguments().iter().any(|a| {
                a.as_call_node().is_some_and(|c| {
                    c.name().as_slice() == b"binding" && c.receiver().is_none() && c.arguments().is_none()
                })
            })
        });
        if hands_binding || matches!(&*method, "def_method" | "def_erb_method" | "def_class" | "def_module") {
            self.prefixes.insert(String::new());
        }
        if RUNS_CODE.contains(&&*method) || compiles {
            let code = call.arguments().and_then(|a| a.arguments().iter().next());
            match code {
                Some(Node::StringNode { .. }) => self.words_of(&code.expect("matched")),
                Some(_) => {
                    self.prefixes.insert(String::new());
                }
                None => {}
            }
        }
        if method == "private" && call.receiver().is_none() {
            for argument in call.arguments().iter().flat_map(|a| a.arguments().iter()) {
                if !matches!(argument, Node::SymbolNode { .. } | Node::StringNode { .. }) {
                    self.visit(&argument);
                }
            }
            return;
        }
        ruby_prism::visit_call_node(self, call);
    }
}

/// Does `call` make methods callable from outside (`public`,
/// `public_class_method`, `module_function`, directly or sent) under a
/// name that is neither written out nor a definition (`public def x`)?
fn opens_by_computed_name(call: &CallNode<'_>, method: &str) -> bool {
    const OPENERS: &[&str] = &["public", "public_class_method", "module_function"];
    let arguments: Vec<Node<'_>> = call.arguments().map(|a| a.arguments().iter().collect()).unwrap_or_default();
    let names = match method {
        _ if OPENERS.contains(&method) => &arguments[..],
        "send" | "__send__" | "public_send" => match arguments.split_first() {
            Some((first, rest))
                if super::index::literal_name(first).is_some_and(|sent| OPENERS.contains(&sent.as_str())) =>
            {
                rest
            }
            _ => return false,
        },
        _ => return false,
    };
    let defines = |node: &Node<'_>| {
        matches!(node, Node::DefNode { .. })
            || node.as_call_node().is_some_and(|c| {
                matches!(
                    c.name().as_slice(),
                    b"attr_reader" | b"attr_writer" | b"attr_accessor" | b"attr" | b"define_method"
                )
            })
    };
    names.iter().any(|name| computed_method_name(name) && !defines(name))
}

/// Methods that run code given as a string.
const RUNS_CODE: &[&str] = &["eval", "class_eval", "module_eval", "instance_eval"];

/// Is this argument a method name no text in the source spells: not a
/// symbol or string, written or interpolated (those are read above)?
fn computed_method_name(node: &Node<'_>) -> bool {
    !matches!(
        node,
        Node::SymbolNode { .. }
            | Node::StringNode { .. }
            | Node::InterpolatedSymbolNode { .. }
            | Node::InterpolatedStringNode { .. }
    )
}

/// The `def`s a file makes private or protected instance methods, by start
/// offset: after a bare `private` (`protected`) in a class or module body,
/// as its argument, or named by `private :x` after the `def`.
pub fn restricted_defs(root: &Node<'_>) -> HashMap<usize, Visibility> {
    let mut scan = VisibilityScan { out: Vec::new(), scopes: Vec::new() };
    scan.visit(root);
    scan.out.into_iter().collect()
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Visibility {
    Public,
    Private,
    Protected,
    /// Public unless a visibility change that may or may not run did
    /// (`private unless ENV["X"]`, `send(:private)`): inference takes it
    /// as public (callers anywhere), rules as restricted.
    Unsure,
}

/// One class or module body being read.
struct BodyScope {
    default: Visibility,
    /// Defs so far: name, offset, visibility when defined.
    defs: Vec<(String, usize, Visibility)>,
    /// Offsets of the body's own statements: a `private` anywhere else
    /// (`private if ENV["X"]`, in a `begin`) may not run.
    statements: HashSet<(usize, usize)>,
    /// Such a `private` was seen: every public def of the body may not be.
    unsure: bool,
}

/// Where a class body's own statements start and end (a modifier `if`
/// starts where the statement it guards does).
fn statements_of(body: Option<Node<'_>>) -> HashSet<(usize, usize)> {
    let span = |node: &Node<'_>| (node.location().start() as usize, node.location().end() as usize);
    let Some(body) = body else { return HashSet::default() };
    match body.as_statements_node() {
        Some(list) => list.body().iter().map(|s| span(&s)).collect(),
        None => std::iter::once(span(&body)).collect(),
    }
}

struct VisibilityScan {
    /// Every def that is not public: offset, visibility.
    out: Vec<(usize, Visibility)>,
    /// Class bodies; `None` where defs belong to no body (blocks, `class << x`, defs).
    scopes: Vec<Option<BodyScope>>,
}

impl VisibilityScan {
    fn in_scope(&mut self, scope: Option<BodyScope>, walk: impl FnOnce(&mut Self)) {
        self.scopes.push(scope);
        walk(self);
        if let Some(Some(done)) = self.scopes.pop() {
            let unsure = done.unsure;
            self.out.extend(done.defs.into_iter().filter_map(|(_, offset, made)| match made {
                Visibility::Public if unsure => Some((offset, Visibility::Unsure)),
                Visibility::Public => None,
                made => Some((offset, made)),
            }));
        }
    }

    fn body(&mut self) -> Option<&mut BodyScope> {
        self.scopes.last_mut()?.as_mut()
    }
}

impl<'pr> Visit<'pr> for VisibilityScan {
    fn visit_branch_node_enter(&mut self, _node: Node<'pr>) {
        ensure_room();
    }

    fn visit_class_node(&mut self, class: &ruby_prism::ClassNode<'pr>) {
        let scope = BodyScope {
            default: Visibility::Public,
            defs: Vec::new(),
            statements: statements_of(class.body()),
            unsure: false,
        };
        self.in_scope(Some(scope), |scan| ruby_prism::visit_class_node(scan, class));
    }

    fn visit_module_node(&mut self, module: &ruby_prism::ModuleNode<'pr>) {
        let scope = BodyScope {
            default: Visibility::Public,
            defs: Vec::new(),
            statements: statements_of(module.body()),
            unsure: false,
        };
        self.in_scope(Some(scope), |scan| ruby_prism::visit_module_node(scan, module));
    }

    fn visit_singleton_class_node(&mut self, node: &ruby_prism::SingletonClassNode<'pr>) {
        self.in_scope(None, |scan| ruby_prism::visit_singleton_class_node(scan, node));
    }

    fn visit_block_node(&mut self, node: &ruby_prism::BlockNode<'pr>) {
        self.in_scope(None, |scan| ruby_prism::visit_block_node(scan, node));
    }

    fn visit_lambda_node(&mut self, node: &ruby_prism::LambdaNode<'pr>) {
        self.in_scope(None, |scan| ruby_prism::visit_lambda_node(scan, node));
    }

    fn visit_def_node(&mut self, def: &ruby_prism::DefNode<'pr>) {
        let offset = def.as_node().location().start() as usize;
        if def.receiver().is_none() {
            if let Some(scope) = self.body() {
                let made = scope.default;
                scope.defs.push((name(def.name()), offset, made));
            }
        }
        self.in_scope(None, |scan| ruby_prism::visit_def_node(scan, def));
    }

    fn visit_call_node(&mut self, call: &CallNode<'pr>) {
        let method = crate::syntax::name_text(call.name());
        let visibility = matches!(&*method, "private" | "public" | "protected" | "module_function");
        let location = call.as_node().location();
        let span = (location.start() as usize, location.end() as usize);
        let own_statement = self.body().is_some_and(|body| body.statements.contains(&span));
        let on_self = matches!(call.receiver(), None | Some(Node::SelfNode { .. }));
        // One that may not run, or is sent (`send(:private)`).
        let sent = matches!(&*method, "send" | "__send__" | "public_send")
            && call.arguments().and_then(|a| a.arguments().iter().next()).is_some_and(|first| {
                super::index::literal_name(&first).is_none_or(|n| matches!(n.as_str(), "private" | "protected"))
            });
        if on_self && ((visibility && !own_statement && method != "public") || sent) {
            if let Some(scope) = self.body() {
                scope.unsure = true;
            }
        }
        if !visibility || call.receiver().is_some() || !own_statement {
            return ruby_prism::visit_call_node(self, call);
        }
        let made = match &*method {
            "private" => Visibility::Private,
            "protected" => Visibility::Protected,
            _ => Visibility::Public,
        };
        let arguments: Vec<Node<'pr>> = call.arguments().iter().flat_map(|a| a.arguments().iter()).collect();
        if arguments.is_empty() {
            if let Some(scope) = self.body() {
                scope.default = made;
            }
            return;
        }
        for argument in arguments {
            match super::index::literal_name(&argument) {
                Some(named) => {
                    if let Some(scope) = self.body() {
                        for def in scope.defs.iter_mut().filter(|d| d.0 == named) {
                            def.2 = made;
                        }
                    }
                }
                None => {
                    // `private def x`: the def is visited, then made so.
                    let before = self.body().map_or(0, |s| s.defs.len());
                    self.visit(&argument);
                    if let Some(scope) = self.body() {
                        for def in scope.defs.iter_mut().skip(before) {
                            def.2 = made;
                        }
                    }
                }
            }
        }
    }
}
