//! Definitions: `def` (return types inferred from bodies, on demand and
//! once), `class`/`module` bodies, and instance variables per class.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::rc::Rc;

use ruby_prism::Node;

use super::flow::{Flow, State};
use super::index::{MethodEntry, ProgramIndex, Side, Superclass};
use super::{scope_writes, Frame, Inferrer, MethodState};
use crate::syntax::name;
use crate::types::{union, Name, Type};

/// The mark `infer_def` sets among a method's ivar facts (see
/// [`Inferrer::own_call_keeps_ivars`]); no ivar is named so.
const KEEPS_IVARS: &str = "\u{0}keeps ivars";

/// A method changes what one of the object's ivars holds without writing
/// it (`@list << 1`, `fill(@list)`): a caller's facts of it no longer
/// stand past a call of the method (see `KEEPS_IVARS`).
pub(super) fn changes_ivar_contents(flow: &mut super::Flow) {
    if flow.ivars.contains_key(KEEPS_IVARS) {
        flow.ivars.remove(KEEPS_IVARS);
    }
}

/// Instance variables are shared along inheritance and mixins: each class
/// maps to the representative of its family in this file.
pub fn ivar_families(index: &ProgramIndex<'_>) -> HashMap<Name, Name> {
    let mut parent: HashMap<Name, Name> = index.classes.keys().map(|k| (k.clone(), k.clone())).collect();
    fn find(parent: &mut HashMap<Name, Name>, name: &Name) -> Name {
        let mut current = name.clone();
        let mut guard = 0;
        while let Some(next) = parent.get(&current) {
            if *next == current || guard > 256 {
                break;
            }
            current = next.clone();
            guard += 1;
        }
        current
    }
    for class in index.classes.values() {
        let mut related: Vec<Name> = class.includes.iter().chain(&class.prepends).cloned().collect();
        if let Superclass::Known(parent_class) = &class.superclass {
            related.push(parent_class.clone());
        }
        for other in related {
            if !parent.contains_key(&other) {
                continue;
            }
            let a = find(&mut parent, &class.name);
            let b = find(&mut parent, &other);
            if a != b {
                let (low, high) = if a < b { (a, b) } else { (b, a) };
                parent.insert(high, low);
            }
        }
    }
    let names: Vec<Name> = parent.keys().cloned().collect();
    names.into_iter().map(|n| (n.clone(), find(&mut parent, &n))).collect()
}

/// What one file's classes sharing instance variables (a family) are, and
/// say of them together (see `family_facts`).
pub(super) struct FamilyFacts {
    members: Vec<Name>,
    /// Some member's ivars cannot be listed (`instance_variable_set`...).
    opaque: bool,
    /// Ivars some member's `attr_writer` lets others set.
    set_from_outside: HashSet<String>,
    ancestry_open: std::cell::OnceCell<bool>,
    library_writes: std::cell::OnceCell<bool>,
}

/// An optional parameter holds whatever callers pass, or its default
/// when they pass nothing: a `nil` default stays visible (`untyped | nil`),
/// so code that uses it without a guard is seen to.
pub fn optional_parameter(default: &Type) -> Type {
    if *default == Type::nil() {
        union([Type::untyped(), Type::nil()])
    } else {
        Type::untyped()
    }
}

/// In a flow's set ivars: `super` has run in this `initialize` (not an
/// ivar name, which starts with `@`).
const SUPER_RAN: &str = "<super-ran>";

impl<'pr> Inferrer<'pr, '_> {
    pub fn def_node(&mut self, node: &Node<'pr>, _frame: &Frame) -> Type {
        let Some(def) = node.as_def_node() else { return Type::untyped() };
        let start = node.location().start() as usize;
        if let Some(id) = self.index.def_at.get(&start).copied() {
            if self.ivar_scan.as_ref().is_none_or(|defs| defs.contains(&start)) {
                self.method_return(id);
            }
        }
        Type::symbol(name(def.name()))
    }

    /// The return type of a `def`, inferring its body the first time.
    /// Recursion (a call back into a method being inferred) is `untyped`.
    pub fn method_return(&mut self, id: usize) -> Type {
        let offset = self.index.def(id).node.location().start() as usize;
        match self.methods.get(&offset) {
            Some(MethodState::Done(ty)) => {
                let ty = ty.clone();
                self.note_use(super::replay::Use::Def(offset));
                return ty;
            }
            Some(MethodState::InProgress) => {
                self.note_in_progress(super::replay::Use::Def(offset));
                return Type::untyped();
            }
            None => {}
        }
        self.methods.insert(offset, MethodState::InProgress);
        // A window recording this walk opens first: what taking an earlier
        // walk asks is this one's, whether it is taken or walked again.
        self.open_window(offset, self.index.def(id).node.location().end() as usize);
        let ty = match self.replay_def(offset) {
            Some(ty) => ty,
            None => self.infer_def(id),
        };
        self.close_window();
        self.methods.insert(offset, MethodState::Done(ty.clone()));
        ty
    }

    fn infer_def(&mut self, id: usize) -> Type {
        let info = self.index.def(id);
        let node = crate::syntax::node_clone(&info.node);
        let Some(def) = node.as_def_node() else { return Type::untyped() };
        let method = name(def.name());
        let (self_type, self_known, class) = match &info.owner {
            Some((class, Side::Singleton)) => {
                (Type::Singleton(class.clone()), true, Some((class.clone(), Side::Singleton)))
            }
            Some((class, Side::Instance)) if info.dual => {
                let either = crate::types::union([self.instance_of(class), Type::Singleton(class.clone())]);
                (either, true, Some((class.clone(), Side::Instance)))
            }
            Some((class, Side::Instance)) => (self.instance_of(class), true, Some((class.clone(), Side::Instance))),
            // Top-level methods are private methods of every object.
            None => (Type::untyped(), false, None),
        };
        let (mut writes, match_locals) = match def.body() {
            Some(body) => scope_writes::collect_with_matches(&body),
            None => Default::default(),
        };
        // A default value may assign an earlier parameter too (`b = -> {
        // a = 5 }.call`): the method's own writes.
        if let Some(parameters) = def.parameters() {
            for (local, at) in scope_writes::collect(&parameters.as_node()) {
                writes.entry(local).or_default().extend(at);
            }
        }
        let block_param = def
            .parameters()
            .and_then(|p| p.block())
            .and_then(|b| b.as_block_parameter_node()?.name())
            .map(name)
            .filter(|param| !writes.contains_key(param))
            .map(|param| Rc::from(param.as_str()));
        let forwardable = def.parameters().and_then(|list| self.forwardable(id, &list, &writes));
        let match_locals = (!match_locals.is_empty()).then(|| Rc::new(match_locals));
        let frame = Frame {
            self_type,
            lexical: Rc::new(info.lexical.clone()),
            class,
            self_known,
            method: Some(Rc::from(method.as_str())),
            writes: Rc::new(writes),
            block_param,
            forwardable,
            entry_key: self.typed_by_calls(id).map(Rc::new),
            match_locals,
        };
        // A method is walked on its own, whatever the caller was doing.
        let saved_jumps = std::mem::take(&mut self.jumps);
        let saved_logs = std::mem::take(&mut self.assignment_logs);
        let saved_retries = std::mem::take(&mut self.retries);
        let saved_dead = std::mem::replace(&mut self.dead, 0);
        let saved_depth = std::mem::replace(&mut self.loop_depth, 0);
        // Whether a method was walked first from inside a `loop` must not
        // change what that loop is found to do.
        let saved_risks = self.stop_risks;
        let mut state: State = Some(Flow::default());
        // What every call of it set before it starts stays set.
        let entry = self.entry_ivars(id);
        if let (false, Some(flow)) = (entry.is_empty(), state.as_mut()) {
            flow.ivars_set.extend(entry);
        }
        // A fact no code reads, which every point that may let code write
        // the object's ivars clears: if it reaches the end, a call of this
        // method leaves its caller's ivar facts standing.
        let marked = self_known && matches!(frame.class, Some((_, Side::Instance)));
        if let (true, Some(flow)) = (marked, state.as_mut()) {
            flow.ivars.insert(KEEPS_IVARS.to_string(), Type::nil());
        }
        // From here on, a `yield` (even in a parameter's default) is this method's.
        self.yields.push(super::yields::YieldCollector::for_def(&def));
        if let Some(receiver) = def.receiver() {
            self.expr(&receiver, &mut state, &frame);
        }
        if let Some(parameters) = def.parameters() {
            match self.parameters_from_calls(id, &parameters) {
                Some(bound) => self.bind_from_calls(&parameters, &bound, &mut state, &frame),
                None => self.bind_method_parameters(&parameters, &mut state, &frame),
            }
        }
        self.returns.push(Vec::new());
        let body_type = self.body(def.body(), &mut state, &frame);
        let returns = self.returns.pop().unwrap_or_default();
        if let Some(yields) = self.yields.pop().and_then(|collector| collector.finish(&def)) {
            self.def_yields.insert(info.node.location().start() as usize, yields);
        }
        self.jumps = saved_jumps;
        self.assignment_logs = saved_logs;
        self.retries = saved_retries;
        self.dead = saved_dead;
        self.loop_depth = saved_depth;
        self.stop_risks = saved_risks;
        // What it assigns itself (`@count += 1`) is all a call of it may
        // change of the caller's facts, when nothing else it ran could.
        let keeps =
            (marked && returns.is_empty() && state.as_ref().is_some_and(|flow| flow.ivars.contains_key(KEEPS_IVARS)))
                .then(|| {
                    let mut written = def.body().map(|body| super::index::ivar_writes(&body)).unwrap_or_default();
                    written.sort();
                    written.dedup();
                    std::sync::Arc::from(written)
                });
        self.keeps_ivars.insert(info.node.location().start() as usize, keeps);
        if let Some(flow) = state.as_mut().filter(|flow| flow.ivars.contains_key(KEEPS_IVARS)) {
            flow.ivars.remove(KEEPS_IVARS);
        }
        // What its ivars hold when it returns: known where it can only
        // return at the end (a `return` leaves with a flow not kept).
        let exit = match &state {
            Some(flow) if returns.is_empty() && !flow.ivars.is_empty() => Some(Rc::new((*flow.ivars).clone())),
            _ => None,
        };
        self.exit_ivars.insert(info.node.location().start() as usize, exit);
        let reached = if state.is_some() { body_type } else { Type::Bot };
        union(std::iter::once(reached).chain(returns))
    }

    /// A parameter's default value runs only when the caller leaves the
    /// argument out, so what it assigns (`arg = (no_arg = true)`) holds on
    /// that path alone: elsewhere such a local is nil.
    pub(super) fn parameter_default(&mut self, value: &Node<'pr>, state: &mut State, frame: &Frame) -> Type {
        let skipped = state.clone();
        let ty = self.expr(value, state, frame);
        *state = super::flow::join_states(&skipped, state);
        ty
    }

    fn bind_method_parameters(&mut self, list: &ruby_prism::ParametersNode<'pr>, state: &mut State, frame: &Frame) {
        for required in list.requireds().iter().chain(list.posts().iter()) {
            self.bind_parameter(&required, &Type::untyped(), state, frame);
        }
        for optional in list.optionals().iter() {
            let Some(parameter) = optional.as_optional_parameter_node() else { continue };
            let default = self.parameter_default(&parameter.value(), state, frame);
            self.assign_local(&name(parameter.name()), &optional_parameter(&default), state);
            self.record(&optional, &Type::untyped());
        }
        if let Some(rest) = list.rest() {
            let ty = Type::generic("Array", vec![Type::untyped()]);
            if let Some(id) = rest.as_rest_parameter_node().and_then(|p| p.name()) {
                self.assign_local(&name(id), &ty, state);
            }
            self.record(&rest, &ty);
        }
        self.bind_keyword_parameters(list, state, frame);
    }

    pub fn class_node(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Type {
        let (path, body, superclass) = if let Some(class) = node.as_class_node() {
            (class.constant_path(), class.body(), class.superclass())
        } else if let Some(module) = node.as_module_node() {
            (module.constant_path(), module.body(), None)
        } else {
            return Type::untyped();
        };
        let full = self.index.class_at.get(&(path.location().start() as usize)).cloned();
        if let Some(parent) = path.as_constant_path_node().and_then(|p| p.parent()) {
            self.expr(&parent, state, frame);
        }
        match &full {
            Some(full) => self.record(&path, &Type::Singleton(full.clone())),
            None => self.record(&path, &Type::untyped()),
        }
        if let Some(superclass) = superclass {
            self.expr(&superclass, state, frame);
        }
        let writes = body.as_ref().map(scope_writes::collect).unwrap_or_default();
        let inner = match &full {
            Some(full) => {
                let mut lexical = (*frame.lexical).clone();
                lexical.push(full.clone());
                Frame {
                    self_type: Type::Singleton(full.clone()),
                    lexical: Rc::new(lexical),
                    class: Some((full.clone(), Side::Singleton)),
                    self_known: true,
                    method: None,
                    writes: Rc::new(writes),
                    block_param: None,
                    forwardable: None,
                    entry_key: None,
                    match_locals: None,
                }
            }
            None => Frame {
                self_type: Type::untyped(),
                class: None,
                self_known: false,
                method: None,
                writes: Rc::new(writes),
                block_param: None,
                forwardable: None,
                entry_key: None,
                match_locals: None,
                ..frame.clone()
            },
        };
        let saved_dead = self.dead;
        let mut inner_state: State = Some(Flow::default());
        self.returns.push(Vec::new());
        let ty = self.body(body, &mut inner_state, &inner);
        self.returns.pop();
        self.dead = saved_dead;
        if inner_state.is_none() {
            *state = None;
        }
        ty
    }

    pub fn singleton_class_node(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Type {
        let Some(singleton) = node.as_singleton_class_node() else { return Type::untyped() };
        let on_self = matches!(singleton.expression(), Node::SelfNode { .. });
        self.expr(&singleton.expression(), state, frame);
        let class = match (&frame.class, on_self) {
            (Some((class, _)), true) => Some((class.clone(), Side::Singleton)),
            _ => None,
        };
        let body = singleton.body();
        let writes = body.as_ref().map(scope_writes::collect).unwrap_or_default();
        let inner = Frame {
            self_type: Type::untyped(),
            class,
            self_known: false,
            method: None,
            writes: Rc::new(writes),
            block_param: None,
            forwardable: None,
            entry_key: None,
            match_locals: None,
            ..frame.clone()
        };
        let mut inner_state: State = Some(Flow::default());
        self.returns.push(Vec::new());
        let ty = self.body(body, &mut inner_state, &inner);
        self.returns.pop();
        ty
    }

    /// `@x` read in the frame's class.
    pub fn read_ivar(&mut self, ivar: &str, _node: &Node<'pr>, state: &mut State, frame: &Frame) -> Type {
        self.ivar_type(ivar, state, frame)
    }

    pub fn ivar_type(&mut self, ivar: &str, state: &State, frame: &Frame) -> Type {
        if let Some(known) = state.as_ref().and_then(|f| f.ivars.get(ivar)) {
            return known.clone();
        }
        let (Some((class, side)), true) = (&frame.class, frame.self_known) else { return Type::untyped() };
        let in_initialize = frame.method.as_deref() == Some("initialize");
        // Written earlier on every path of this method: set, whatever
        // calls since may have stored in it.
        let set_here = state.as_ref().is_some_and(|f| {
            f.ivars_set.contains(ivar)
                || (in_initialize
                    && *side == Side::Instance
                    && f.ivars_set.contains(SUPER_RAN)
                    && self.parent_initialize_assigns(class, ivar))
        });
        // A singleton method runs after the class body that defines it.
        let set_here =
            set_here || (*side == Side::Singleton && frame.method.is_some() && self.class_body_assigns(class, ivar));
        self.class_ivar_type_set(class, *side, ivar, in_initialize, set_here)
    }

    /// Does a module's body assign the module object's `ivar` before
    /// anything can run ([`super::index::CLASS_BODY_SET`]), so that its
    /// singleton methods, defined later, read it set? Only for a module
    /// this file alone opens, once, that extends nothing (an extended
    /// module's methods may write it) and nests no `class << self` in
    /// another (whose methods read the singleton class's ivars). Not for a
    /// class: any subclass, however made (`Class.new(parent)` in a
    /// factory), runs the same methods with ivars of its own, unset.
    fn class_body_assigns(&self, class: &str, ivar: &str) -> bool {
        let Some(user) = self.index.classes.get(class).filter(|c| !c.spread && c.is_module) else { return false };
        let init = &user.initialized_ivars;
        init.contains(&format!("{}{ivar}", super::index::CLASS_BODY_SET))
            && !init.contains(super::index::CLASS_BODY_REOPENED)
            && user.extends.is_empty()
            && !user.extends_self
            // An instance method that writes it may become a singleton one
            // (`module_function`, `singleton_class.include(self)`).
            && !user.ivars_written.iter().any(|written| written == ivar)
            && !user.unknown_mixins
            && !user.computed_mixins
    }

    /// Notes, in an instance `initialize`, that `super` has run on this
    /// path: what the parent's `initialize` surely assigns is set from here.
    pub fn note_super_ran(&self, state: &mut State, frame: &Frame) {
        let instance = matches!(frame.class, Some((_, Side::Instance)));
        if let (Some(flow), true) = (state.as_mut(), instance && frame.method.as_deref() == Some("initialize")) {
            flow.ivars_set.insert(SUPER_RAN.to_string());
        }
    }

    /// Does the `initialize` a `super` in `class`'s own one reaches (an
    /// included module's, or the superclass's) surely assign `ivar`?
    fn parent_initialize_assigns(&self, class: &str, ivar: &str) -> bool {
        let Some(user) = self.index.class(class) else { return false };
        if let Superclass::Known(parent) = &user.superclass {
            if self.made_without_initialize(parent) {
                return false;
            }
        }
        let (steps, tail) = self.initialize_steps(class);
        // What comes after the class itself (its prepended modules stand
        // before it).
        let Some(at) = steps.iter().position(|step| &**step == class) else { return false };
        self.kernel_functions_kept(class, &self.kernel_calls_of(&steps[at + 1..]))
            && self.steps_assign(class, &steps[at + 1..], &tail, ivar)
    }

    /// What an instance variable of `class` holds, from every assignment
    /// to it in the class's family: `nil` too, unless `initialize` sets it.
    pub fn class_ivar_type(&self, class: &Name, side: Side, ivar: &str, in_initialize: bool) -> Type {
        self.class_ivar_type_set(class, side, ivar, in_initialize, false)
    }

    /// [`Self::class_ivar_type`], where `set_here` says the method surely
    /// assigned it already (so it cannot read as unset).
    fn class_ivar_type_set(&self, class: &Name, side: Side, ivar: &str, in_initialize: bool, set_here: bool) -> Type {
        let ty = self.class_ivar_type_written(class, side, ivar, in_initialize, set_here);
        // Handed out by its reader and changed in place there (`pool.ids
        // << "x"`, in any file): what it holds may be anything.
        if ty.has_mutable_contents() && self.index.reader_mutated(ivar.trim_start_matches('@')) {
            return ty.forget_contents();
        }
        ty
    }

    fn class_ivar_type_written(
        &self,
        class: &Name,
        side: Side,
        ivar: &str,
        in_initialize: bool,
        set_here: bool,
    ) -> Type {
        if side == Side::Instance {
            if let Some(rtype) = self.env.class(class).and_then(|d| d.instance_variables.get(ivar)) {
                return self.rbs_type_plain(rtype);
            }
        }
        if self.index.ivars_unknowable || self.index.ivar_written_outside(class, ivar) {
            return Type::untyped();
        }
        if let Some(across) = self.project_ivar_type(class, side, ivar, in_initialize, set_here) {
            return across;
        }
        let family = self.families.get(class).cloned().unwrap_or_else(|| class.clone());
        let facts = self.family_facts(&family, side);
        if facts.opaque || facts.set_from_outside.contains(ivar) {
            return Type::untyped();
        }
        // A module's instance variables live in the objects of whatever
        // classes include it, which may assign them anywhere.
        if side == Side::Instance && self.index.class_shape(class).is_some_and(|c| c.is_module) {
            return Type::untyped();
        }
        // A superclass or mixin defined elsewhere may assign them too.
        if self.family_ancestry_open(&facts) {
            return Type::untyped();
        }
        let Some(table) = &self.ivar_table else {
            self.note_use(super::replay::Use::Ivar((family.clone(), side, ivar.to_string())));
            return Type::untyped();
        };
        if self.family_library_writes(&facts, side) {
            return Type::untyped();
        }
        // `extend W` where W's methods write it: on the class object too.
        let writers = match side {
            Side::Singleton => self.extended_writers(&facts.members, ivar),
            Side::Instance => Some(Vec::new()),
        };
        let Some(writers) = writers else { return Type::untyped() };
        // Never assigned anywhere in the family: Ruby reads an unset
        // instance variable as nil.
        let key = (family.clone(), side, ivar.to_string());
        let mut assigned = table.get(&key).cloned().unwrap_or(Type::Bot);
        self.note_use(super::replay::Use::Ivar(key));
        for module in writers {
            // Another file's module: what it writes is the project's.
            if !self.index.is_local(&module) {
                return Type::untyped();
            }
            let family = self.families.get(&module).cloned().unwrap_or(module);
            let key = (family, Side::Instance, ivar.to_string());
            assigned = union([assigned, table.get(&key).cloned().unwrap_or(Type::Bot)]);
            self.note_use(super::replay::Use::Ivar(key));
        }
        let assigned = &assigned;
        let members = &facts.members;
        let initialized =
            set_here || (side == Side::Instance && !in_initialize && self.initialized(class, ivar, members));
        if initialized {
            assigned.clone()
        } else {
            union([assigned.clone(), Type::nil()])
        }
    }

    /// What the classes of this file sharing `family`'s instance variables
    /// are, with what they say of them as a whole, worked out once per
    /// inference (every ivar read asks).
    fn family_facts(&self, family: &Name, side: Side) -> Rc<FamilyFacts> {
        let key = (family.clone(), side);
        if let Some(known) = self.family_facts.borrow().get(&key) {
            return known.clone();
        }
        let members: Vec<&crate::model::classes::UserClass> =
            self.index.classes.values().filter(|c| self.families.get(&c.name) == Some(family)).collect();
        let facts = Rc::new(FamilyFacts {
            opaque: members.iter().any(|c| c.ivars_opaque),
            set_from_outside: members.iter().flat_map(|c| c.ivars_set_from_outside.iter().cloned()).collect(),
            ancestry_open: std::cell::OnceCell::new(),
            library_writes: std::cell::OnceCell::new(),
            members: members.iter().map(|c| c.name.clone()).collect(),
        });
        self.family_facts.borrow_mut().insert(key, facts.clone());
        facts
    }

    /// May code this file cannot see assign the class's ivars: code that
    /// sets them unlisted (`unknowable`), an ancestor defined elsewhere, or a
    /// library? Once per class and side in an inference (every ivar read of
    /// a family that reaches other files asks).
    fn member_writes_unseen(&self, member: &Name, side: Side, unknowable: impl FnOnce() -> bool) -> bool {
        let key = (member.clone(), side);
        if let Some(known) = self.member_unseen.borrow().get(&key) {
            return *known;
        }
        let unseen = unknowable() || self.ancestry_open(member) || self.library_may_write_ivars(member, side);
        self.member_unseen.borrow_mut().insert(key, unseen);
        unseen
    }

    /// May a superclass or mixin defined elsewhere assign the family's ivars?
    fn family_ancestry_open(&self, facts: &FamilyFacts) -> bool {
        *facts.ancestry_open.get_or_init(|| facts.members.iter().any(|m| self.ancestry_open(m)))
    }

    /// May a library's Ruby code assign them?
    fn family_library_writes(&self, facts: &FamilyFacts, side: Side) -> bool {
        *facts.library_writes.get_or_init(|| facts.members.iter().any(|m| self.library_may_write_ivars(m, side)))
    }

    pub fn assign_ivar(&mut self, ivar: &str, ty: &Type, state: &mut State, frame: &Frame) {
        self.assign_ivar_noting(ivar, ty, ty, state, frame);
    }

    /// A write whose value here is `ty` but adds `noted` to the field.
    pub fn assign_ivar_noting(&mut self, ivar: &str, ty: &Type, noted: &Type, state: &mut State, frame: &Frame) {
        self.note_ivar_write(frame, ivar, noted);
        if let Some(flow) = state.as_mut() {
            flow.ivars.insert(ivar.to_string(), ty.settle_elements());
            flow.ivars_set.insert(ivar.to_string());
        }
    }

    /// `@x ||= v`, `@x &&= v`: the ivar holds `result` here, but all the
    /// write adds to what it may hold anywhere is `v` (the kept old value
    /// is one an earlier write stored).
    pub fn assign_ivar_via(&mut self, ivar: &str, value: &Node<'pr>, result: &Type, state: &mut State, frame: &Frame) {
        if let Some(written) = self.recorded(value).cloned() {
            self.note_ivar_write(frame, ivar, &written);
        }
        if let Some(flow) = state.as_mut() {
            flow.ivars.insert(ivar.to_string(), result.settle_elements());
            // `@x &&= v` leaves an unset `@x` unset: set only when what it
            // holds cannot be nil.
            if !result.may_be_nil() {
                flow.ivars_set.insert(ivar.to_string());
            }
        }
    }

    /// An instance variable of a class whose family reaches other files of
    /// the project: the union of every file's writes to it, from the
    /// project's exports (`untyped` before they are in, or when any file
    /// of the family may set it in ways nobody can list). `None` when the
    /// family lies wholly in this file.
    fn project_ivar_type(
        &self,
        class: &Name,
        side: Side,
        ivar: &str,
        in_initialize: bool,
        set_here: bool,
    ) -> Option<Type> {
        let project = self.index.project.as_ref()?;
        // The family (who else shares these ivars) is part of the class's structure.
        project.read(crate::model::index::Dep::Class(class.clone()));
        let members = project.index.family(class);
        let local_only = members.iter().all(|m| self.index.is_local(m) || project.index.class(m).is_none())
            && self.index.class(class).is_some_and(|c| !c.spread);
        if local_only {
            return None;
        }
        for member in &members {
            // Reading the member records it as a dependency.
            let Some(user) = self.index.class(member) else { continue };
            if user.ivars_set_from_outside.contains(ivar) || user.ivars_opaque || user.is_module {
                return Some(Type::untyped());
            }
            if self.member_writes_unseen(member, side, || project.index.ivars_unknowable(member)) {
                return Some(Type::untyped());
            }
        }
        let writers = match side {
            Side::Singleton => self.extended_writers(&members, ivar),
            Side::Instance => Some(Vec::new()),
        };
        let Some(writers) = writers else { return Some(Type::untyped()) };
        // Pass one is what learns this file's own writes: until it ends,
        // they are unknown (not absent, which would leave only nil). Asked
        // first: pass one's answer does not depend on the exports.
        if self.ivar_scan.is_some() {
            self.note_use(super::replay::Use::Unlearned);
            return Some(Type::untyped());
        }
        project.read_exported();
        if !project.index.exported {
            return Some(Type::untyped());
        }
        let mut writes: Vec<Type> = Vec::new();
        let family = self.families.get(class).cloned().unwrap_or_else(|| class.clone());
        let key = (family, side, ivar.to_string());
        if let Some(local) = self.ivar_table.as_ref().and_then(|t| t.get(&key)) {
            writes.push(local.clone());
        }
        self.note_use(super::replay::Use::Ivar(key));
        for member in &members {
            project.read(crate::model::index::Dep::Ivars(member.clone()));
            if let Some(elsewhere) = project.index.ivar_writes(member, side, ivar, project.file) {
                writes.push(elsewhere);
            }
        }
        for module in writers {
            let family = self.families.get(&module).cloned().unwrap_or_else(|| module.clone());
            let key = (family, Side::Instance, ivar.to_string());
            if let Some(local) = self.ivar_table.as_ref().and_then(|t| t.get(&key)) {
                writes.push(local.clone());
            }
            self.note_use(super::replay::Use::Ivar(key));
            project.read(crate::model::index::Dep::Ivars(module.clone()));
            if let Some(elsewhere) = project.index.ivar_writes(&module, Side::Instance, ivar, project.file) {
                writes.push(elsewhere);
            }
        }
        let initialized =
            set_here || (side == Side::Instance && !in_initialize && self.initialized(class, ivar, &members));
        if !initialized {
            writes.push(Type::nil());
        }
        Some(union(writes))
    }

    /// May Ruby code of a library (a superclass or mixin outside the
    /// project, such as `Logger` or `MonitorMixin`) assign this class's
    /// instance variables? Only the core classes and modules below are
    /// known to keep no instance variables of their own.
    fn library_may_write_ivars(&self, class: &str, side: Side) -> bool {
        const NO_IVARS: &[&str] = &[
            "Object",
            "BasicObject",
            "Kernel",
            "Comparable",
            "Enumerable",
            "Exception",
            "StandardError",
            "RuntimeError",
            "ArgumentError",
            "TypeError",
            "NameError",
            "NoMethodError",
            "IOError",
            "KeyError",
            "IndexError",
            "RangeError",
            "NotImplementedError",
            "ScriptError",
            "SecurityError",
            "EncodingError",
            "FrozenError",
            "StopIteration",
            "ZeroDivisionError",
            "SystemCallError",
            "Struct",
            "Module",
            "Forwardable",
            "SingleForwardable",
        ];
        let library = |name: &str| self.index.class(name).is_none() && !NO_IVARS.contains(&name);
        let mut current = Some(Name::from(class));
        let mut guard = 0;
        while let Some(name) = current.take() {
            guard += 1;
            let Some(user) = self.index.class(&name) else { return library(&name) || guard > 64 };
            let mixins = match side {
                Side::Instance => user.includes.iter().chain(&user.prepends).collect::<Vec<_>>(),
                Side::Singleton => user.extends.iter().collect(),
            };
            if mixins.iter().any(|m| library(m)) {
                return true;
            }
            current = match &user.superclass {
                Superclass::Known(parent) => Some(parent.clone()),
                Superclass::Implicit => None,
                Superclass::Unknown => return true,
            };
        }
        false
    }

    /// The project modules whose instance methods may write `ivar` on the
    /// class object of one of `members` (or of a superclass): those it is
    /// extended with (`extend W`, `extend self`), and what they include.
    /// Called on the class, such a method writes the class's own `@ivar`.
    /// `None` when one of them writes ivars nobody can list.
    fn extended_writers(&self, members: &[Name], ivar: &str) -> Option<Vec<Name>> {
        let mut modules: Vec<Name> = Vec::new();
        for member in members {
            let mut current = Some(member.clone());
            let mut guard = 0;
            while let Some(name) = current.take() {
                guard += 1;
                let Some(user) = self.index.class_shape(&name).filter(|_| guard <= 64) else { break };
                modules.extend(user.extends.iter().cloned());
                if user.extends_self {
                    modules.push(name.clone());
                }
                current = match &user.superclass {
                    Superclass::Known(parent) => Some(parent.clone()),
                    _ => None,
                };
            }
        }
        let mut seen: Vec<Name> = Vec::new();
        let mut writers = Vec::new();
        while let Some(module) = modules.pop() {
            if seen.contains(&module) {
                continue;
            }
            seen.push(module.clone());
            let Some(user) = self.index.class_shape(&module) else { continue };
            if user.ivars_opaque || user.ivars_set_from_outside.contains(ivar) {
                return None;
            }
            if user.ivars_written.iter().any(|written| written == ivar) {
                writers.push(module.clone());
            }
            modules.extend(user.includes.iter().chain(&user.prepends).cloned());
        }
        writers.sort();
        Some(writers)
    }

    /// Does every object whose methods read `class`'s `@ivar` come out of
    /// an `initialize` that assigned it first? The class's own (or
    /// inherited) `initialize` must, and so must that of every subclass
    /// in the family that defines its own.
    fn initialized(&self, class: &Name, ivar: &str, members: &[Name]) -> bool {
        if !self.initialize_assigns(class, ivar) {
            return false;
        }
        members.iter().filter(|m| *m != class && self.descends_from(m, class)).all(|m| self.initialize_assigns(m, ivar))
    }

    /// Does the `initialize` that `class.new` runs surely assign `ivar`
    /// before anything can read it?
    fn initialize_assigns(&self, class: &str, ivar: &str) -> bool {
        if self.made_without_initialize(class) {
            return false;
        }
        let (steps, tail) = self.initialize_steps(class);
        self.kernel_functions_kept(class, &self.kernel_calls_of(&steps))
            && self.steps_assign(class, &steps, &tail, ivar)
    }

    /// Where a `super` in `initialize` goes on to, from `class` down: each
    /// project class of its superclass chain followed by the project
    /// modules it includes, as Ruby orders them (the last included first,
    /// then what that one includes; a module a superclass includes too
    /// stands only there, since Ruby skips it in the subclass). Then what
    /// stands below the last project class.
    fn initialize_steps(&self, class: &str) -> (Vec<Name>, Superclass) {
        let mut steps: Vec<(Name, bool)> = Vec::new();
        let mut current = Name::from(class);
        let mut tail = Superclass::Unknown;
        for _ in 0..64 {
            let Some(user) = self.index.class(&current) else {
                tail = Superclass::Known(current);
                break;
            };
            // Prepended modules run before the class (the last one first),
            // included ones after it; each followed by what it includes.
            let mixins = |roots: &[Name], steps: &mut Vec<(Name, bool)>| {
                let mut pending: Vec<Name> = roots.to_vec();
                let mut guard = 0;
                while let Some(module) = pending.pop() {
                    guard += 1;
                    if guard > 256 {
                        break;
                    }
                    if let Some(mixin) = self.index.class(&module) {
                        steps.push((module.clone(), true));
                        pending.extend(mixin.includes.iter().cloned());
                    }
                }
            };
            mixins(&user.prepends, &mut steps);
            steps.push((current.clone(), false));
            mixins(&user.includes, &mut steps);
            current = match &user.superclass {
                Superclass::Known(parent) => parent.clone(),
                other => {
                    tail = other.clone();
                    break;
                }
            };
        }
        let mut out: Vec<Name> = Vec::new();
        for (i, (name, module)) in steps.iter().enumerate() {
            if *module && steps[i + 1..].iter().any(|(later, _)| later == name) {
                continue;
            }
            out.push(name.clone());
        }
        (out, tail)
    }

    /// Does the chain of `initialize`s from the first of `steps` (then
    /// `tail`, see [`Self::initialize_steps`]) surely assign `ivar` for an
    /// object of `class`?
    fn steps_assign(&self, class: &str, steps: &[Name], tail: &Superclass, ivar: &str) -> bool {
        for (i, name) in steps.iter().enumerate() {
            let Some(user) = self.index.class(name) else { return false };
            // A prepended module the project does not hold runs first, and
            // may not call this one (a project one is a step before it).
            if self.index.construction_replaced(name, "initialize")
                || user.initialized_ivars.contains(super::index::INITIALIZE_REDEFINED)
                || user.prepends.iter().any(|module| self.index.class(module).is_none())
            {
                return false;
            }
            if user.instance_methods.contains_key("initialize") {
                if user.initialized_ivars.contains(ivar)
                    || self.helper_assigns(name, ivar)
                    || self.inherited_helper_assigns(class, &user.initialized_ivars, ivar)
                    || self.assigned_after_own_calls(name, ivar)
                    || self.helper_assigns_after_own_calls(name, ivar)
                {
                    return true;
                }
                // After `super`, and maybe after calls of the object's own
                // methods too (`super(); @dir = find_dir; @reader = ...`):
                // then neither the parents' `initialize`s nor those
                // methods may read it.
                let after_super = format!("{}{ivar}", super::index::AFTER_SUPER);
                let assigned_after_super = user.initialized_ivars.contains(&after_super)
                    || self.assigned_after_own_calls_as(name, &after_super, ivar);
                if assigned_after_super && self.initializers_call_nothing(&steps[i + 1..], tail, ivar) {
                    return true;
                }
                if !user.initialized_ivars.contains(super::index::INHERITS_INITIALIZED) {
                    return false;
                }
            } else if !user.is_module && user.initialized_ivars.contains(ivar) {
                // Assigned by an `initialize` another file of the class defines.
                return true;
            }
        }
        false
    }

    /// May an object of `class` be made without running `initialize`?
    /// When some file calls `allocate` on it or an ancestor (whose
    /// singleton methods, a `new` of its own among them, subclasses
    /// inherit), or where `self` cannot be told. (`klass.allocate` on a
    /// class nobody can name, as a deserializer does, is taken as
    /// `Marshal.load` is: outside.)
    fn made_without_initialize(&self, class: &str) -> bool {
        let mut current = Some(Name::from(class));
        for _ in 0..64 {
            let Some(name) = current.take() else { return false };
            if self.index.construction_replaced(&name, "allocate") {
                return true;
            }
            // A class that restores its objects itself (`marshal_load`,
            // YAML's `init_with`, a `_load` of its own) has them made
            // by `allocate` and that method, not `initialize`.
            let restores = |method: &str, side: Side| {
                self.index.class_for_method(&name, method).is_some_and(|c| c.methods(side).contains_key(method))
            };
            if ["marshal_load", "init_with", "yaml_initialize"].iter().any(|m| restores(m, Side::Instance))
                || restores("_load", Side::Singleton)
            {
                return true;
            }
            let Some(user) = self.index.class_shape(&name) else { return false };
            current = match &user.superclass {
                Superclass::Known(parent) => Some(parent.clone()),
                _ => None,
            };
        }
        true
    }

    /// Can the `initialize`s a `super` goes on to (`steps`, then `tail`)
    /// call back into the object and read `ivar`? Not when it is core's (a
    /// library's makes the ivars untyped anyway), a project one that calls
    /// nothing, or one of this file's that calls only methods of its own
    /// none of which, nor what they call in turn, reads it (`setup`).
    fn initializers_call_nothing(&self, steps: &[Name], tail: &Superclass, ivar: &str) -> bool {
        for name in steps {
            if self.index.construction_replaced(name, "initialize") {
                return false;
            }
            let Some(user) = self.index.class(name) else { return true };
            if user.initialized_ivars.contains(super::index::INITIALIZE_REDEFINED) {
                return false;
            }
            if user.instance_methods.contains_key("initialize") {
                let init = &user.initialized_ivars;
                if !init.contains(super::index::CALLS_NOTHING) && !self.own_calls_cannot_read(name, ivar) {
                    return false;
                }
                if !init.contains(super::index::INHERITS_INITIALIZED) {
                    return true;
                }
            }
        }
        match tail {
            Superclass::Known(outside) => !self.index.construction_replaced(outside, "initialize"),
            Superclass::Implicit => true,
            Superclass::Unknown => false,
        }
    }

    /// May code outside `class`'s body give its objects `method` a body of
    /// its own: a `def` in a block (`T.class_eval { def m }`), a module
    /// mixed in from outside (`T.prepend(M)`), a name made on it
    /// (`T.define_method`), or any redefinition a core value may reach?
    fn replaced_from_outside(&self, class: &str, method: &str) -> bool {
        self.index.core_redefined(method)
            || self.index.made_on(class, Side::Instance, method)
            || self.index.mixed_in_from_outside(method)
    }

    /// Do the Kernel functions `names` (called by an `initialize` or a
    /// helper it runs, taken to call nothing back: `puts`, `format`) run the
    /// core's bodies on `class`'s objects? Not when the class, an ancestor,
    /// a mixin or a class of this file below it gives one a body of its
    /// own, or the project redefines one for every object.
    fn kernel_functions_kept(&self, class: &str, names: &[&str]) -> bool {
        if names.is_empty() {
            return true;
        }
        let replaced = self.kernel_replaced(class);
        !names.iter().any(|name| replaced.contains(name))
    }

    fn kernel_replaced(&self, class: &str) -> Rc<Vec<&'static str>> {
        if let Some(known) = self.kernel_replaced.borrow().get(class) {
            return known.clone();
        }
        let replaced: Vec<&'static str> = super::index::KERNEL_FUNCTIONS
            .iter()
            .copied()
            .filter(|name| {
                self.index.root_redefined(name)
                    || self.replaced_from_outside(class, name)
                    || !matches!(
                        self.lookup(class, Side::Instance, name),
                        super::Callee::Rbs(_) | super::Callee::Missing { .. }
                    )
                    || self.index.classes.values().any(|below| {
                        &*below.name != class
                            && self.descends_from(&below.name, class)
                            && (below.instance_methods.contains_key(*name) || below.makes(Side::Instance, name))
                    })
            })
            .collect();
        let replaced = Rc::new(replaced);
        self.kernel_replaced.borrow_mut().insert(Name::from(class), replaced.clone());
        replaced
    }

    /// The Kernel functions the `initialize`s of `steps` call by name
    /// ([`super::index::KERNEL_CALLS`]).
    fn kernel_calls_of(&self, steps: &[Name]) -> Vec<&str> {
        let mut names = Vec::new();
        for step in steps {
            let Some(user) = self.index.class(step) else { continue };
            for marker in &user.initialized_ivars {
                if let Some(list) = marker.strip_prefix(super::index::KERNEL_CALLS) {
                    names.extend(list.split(','));
                }
            }
        }
        names
    }

    /// Does `class`'s `initialize` call back into the object only through
    /// methods of its own ([`super::index::CALLS_OWN_ONLY`]) none of which,
    /// nor what they call in turn, can read `ivar`? Only for a class this
    /// file alone defines.
    fn own_calls_cannot_read(&self, class: &str, ivar: &str) -> bool {
        let Some(user) = self.index.classes.get(class).filter(|c| !c.spread) else {
            return self.summary_none_reads(class, ivar, |marker| marker.strip_prefix(super::index::CALLS_OWN_ONLY));
        };
        let Some(called) = user.initialized_ivars.iter().find_map(|m| m.strip_prefix(super::index::CALLS_OWN_ONLY))
        else {
            return false;
        };
        self.none_reads(class, user, called, ivar)
    }

    /// [`Self::none_reads`] for a class another file defines (alone): the
    /// methods its `initialize` calls (those `called` finds among its
    /// markers) are judged by what that file noted of their bodies
    /// ([`super::index::OWN_CALLS_READ`]), and by the same checks on what
    /// may override them.
    fn summary_none_reads(&self, class: &str, ivar: &str, called: impl Fn(&str) -> Option<&str>) -> bool {
        let Some(user) = self.index.class(class).filter(|c| !c.spread) else { return false };
        let Some(called) = user.initialized_ivars.iter().find_map(|m| called(m)) else { return false };
        let Some(summary) = user.initialized_ivars.iter().find_map(|m| m.strip_prefix(super::index::OWN_CALLS_READ))
        else {
            return false;
        };
        let mut parts = summary.split('|');
        let (Some(names), Some(read), Some(kernel)) = (parts.next(), parts.next(), parts.next()) else { return false };
        let names: Vec<&str> = names.split(',').collect();
        if !called.split(',').all(|name| names.contains(&name)) || read.split(',').any(|read| read == ivar) {
            return false;
        }
        let alone = self.alone_in_family(class);
        if names.iter().any(|name| (!alone && !self.kept_below(class, name)) || self.replaced_from_outside(class, name))
        {
            return false;
        }
        let kernel: Vec<&str> = kernel.split(',').filter(|k| !k.is_empty()).collect();
        self.kernel_functions_kept(class, &kernel)
    }

    /// Does `initialize` assign `ivar` after calls of the object's own
    /// methods none of which, nor what they call in turn, reads it
    /// (`@re = compile(pattern)`)? Only for a class this file alone
    /// defines, alone in its family (nothing can override the methods).
    fn assigned_after_own_calls(&self, class: &str, ivar: &str) -> bool {
        self.assigned_after_own_calls_as(class, ivar, ivar)
    }

    /// [`Self::assigned_after_own_calls`], for `ivar` as its marker names
    /// it (`marked`: itself, or with [`super::index::AFTER_SUPER`] before it).
    fn assigned_after_own_calls_as(&self, class: &str, marked: &str, ivar: &str) -> bool {
        let Some(user) = self.index.classes.get(class).filter(|c| !c.spread) else {
            return self.summary_none_reads(class, ivar, |marker| {
                let (called, assigned) = marker.strip_prefix(super::index::AFTER_CALLS)?.split_once('|')?;
                (assigned == marked).then_some(called)
            });
        };
        let Some(called) = user.initialized_ivars.iter().find_map(|m| {
            let (called, assigned) = m.strip_prefix(super::index::AFTER_CALLS)?.split_once('|')?;
            (assigned == marked).then_some(called)
        }) else {
            return false;
        };
        self.none_reads(class, user, called, ivar)
    }

    /// Does a helper `initialize` calls past calls of its own
    /// ([`super::index::CALLS_HELPER_AFTER`]) assign `ivar` in its own
    /// straight-line prefix, where none of those calls can read it first?
    /// As [`Self::helper_assigns`] and [`Self::assigned_after_own_calls`]
    /// together.
    fn helper_assigns_after_own_calls(&self, class: &str, ivar: &str) -> bool {
        let Some(user) = self.index.classes.get(class).filter(|c| !c.spread) else { return false };
        user.initialized_ivars.iter().any(|marker| {
            let Some((called, helper)) =
                marker.strip_prefix(super::index::CALLS_HELPER_AFTER).and_then(|m| m.split_once('|'))
            else {
                return false;
            };
            self.own_helper(class, user, helper).is_some_and(|id| self.bare_call_assigns(id, ivar))
                && self.none_reads(class, user, called, ivar)
        })
    }

    /// Can none of `called` (comma-separated methods `initialize` calls on
    /// the object, or `new:X` constructors it hands it to), nor what they
    /// call in turn, read `ivar`?
    fn none_reads(&self, class: &str, user: &super::index::UserClass, called: &str, ivar: &str) -> bool {
        // In a family, a class below may override what is called (and
        // read the ivar there): only methods nothing below redefines.
        let alone = self.alone_in_family(class);
        // Each call with the `def` it is made in (whose scope names the
        // constructors it calls).
        let Some(MethodEntry::Def(initialize)) = user.instance_methods.get("initialize") else { return false };
        // Method objects kept in ivars run only when something reads those.
        let mut kept: Vec<(&str, &str)> = Vec::new();
        let mut pending: Vec<(String, usize)> = Vec::new();
        for name in called.split(',') {
            match name.strip_prefix(super::index::VIA_IVAR).and_then(|via| via.split_once('>')) {
                Some(holder_and_method) => kept.push(holder_and_method),
                None => pending.push((name.to_string(), *initialize)),
            }
        }
        // `method(:x)` made the Method object without running anything only
        // when `method` is the core's and `x` a `def` of the class (else
        // `respond_to_missing?` ran).
        if !kept.is_empty() {
            let cores = ["method", "public_method"].iter().all(|maker| {
                !self.index.core_redefined(maker)
                    && matches!(self.lookup(class, Side::Instance, maker), super::Callee::Rbs(found)
                        if matches!(&*found.owner, "Kernel" | "Object" | "BasicObject"))
            });
            let defined =
                kept.iter().all(|(_, method)| matches!(user.instance_methods.get(*method), Some(MethodEntry::Def(_))));
            if !cores || !defined {
                return false;
            }
        }
        let mut seen: HashSet<String> = HashSet::default();
        while let Some((method, caller)) = pending.pop() {
            if let Some(class) = method.strip_prefix(super::index::NEW_OF) {
                if !self.only_keeps_arguments(&self.index.def(caller).lexical, class) {
                    return false;
                }
                continue;
            }
            if !seen.insert(method.clone()) {
                continue;
            }
            if seen.len() > 64 {
                return false;
            }
            // Only methods whose bodies are in view: anything else (a
            // reader of this very ivar, an inherited or missing method)
            // could read it.
            let Some(MethodEntry::Def(id)) = user.instance_methods.get(method.as_str()) else { return false };
            if (!alone && !self.kept_below(class, &method)) || self.replaced_from_outside(class, &method) {
                return false;
            }
            let Some(def) = self.index.def(*id).node.as_def_node() else { return false };
            let Some(body) = def.body() else { continue };
            if super::index::reads_ivar(&body, ivar)
                || !self.kernel_functions_kept(class, &super::index::kernel_calls_in(&body))
            {
                return false;
            }
            let by_name = !kept.is_empty() && super::index::reads_ivars_by_name(&body);
            kept.retain(|(holder, method)| {
                let read = by_name || super::index::reads_ivar(&body, holder);
                if read {
                    pending.push((method.to_string(), *id));
                }
                !read
            });
            match super::index::own_calls_of_body(&body) {
                Some(more) => pending.extend(more.into_iter().map(|m| (m, *id))),
                None => return false,
            }
        }
        true
    }

    /// Does `written.new(...)`, seen in `lexical`, run an `initialize` that
    /// only keeps its arguments (so the object handed to it cannot be
    /// called back)? Only for a class of the project opened once, whose
    /// `new` and `initialize` nothing else can replace: no singleton `new`,
    /// no prepended or extended module, no superclass but Object, and no
    /// module mixed into single objects (`Label.prepend(M)` at the top
    /// level) or `def obj.new` anywhere giving either name a body.
    fn only_keeps_arguments(&self, lexical: &[Name], written: &str) -> bool {
        let Some(class) = self.index.resolve_constant(self.env, lexical, written) else { return false };
        let Some(user) = self.index.class(&class) else { return false };
        !user.spread
            && !self.index.core_redefined("new")
            && !self.index.core_redefined("initialize")
            && !self.made_without_initialize(&class)
            && !self.index.construction_replaced(&class, "initialize")
            && !user.is_module
            && matches!(user.superclass, Superclass::Implicit)
            && user.prepends.is_empty()
            && user.extends.is_empty()
            && !user.unknown_mixins
            && !user.computed_mixins
            && !user.singleton_methods.contains_key("new")
            && user.instance_methods.contains_key("initialize")
            && user.initialized_ivars.contains(super::index::KEEPS_ARGUMENTS)
            && !user.initialized_ivars.contains(super::index::INITIALIZE_REDEFINED)
    }

    /// Is `class` the only class of its family, in this file and in the
    /// project (so no subclass can override its methods)?
    fn alone_in_family(&self, class: &str) -> bool {
        let family = self.families.get(class);
        self.index.classes.keys().all(|other| &**other == class || self.families.get(other) != family)
            && self.index.project.as_ref().is_none_or(|p| {
                p.read(crate::model::index::Dep::Class(Name::from(class)));
                p.index.family(class).len() <= 1
            })
    }

    /// Does the helper that `initialize`'s straight-line prefix ends by
    /// calling (`reset`) assign `ivar` in its own straight-line prefix? Only
    /// for a class this file alone defines, whose bodies are all in view.
    fn helper_assigns(&self, class: &str, ivar: &str) -> bool {
        let Some(user) = self.index.classes.get(class).filter(|c| !c.spread) else { return false };
        let markers = &user.initialized_ivars;
        if let Some(helper) = markers.iter().find_map(|m| m.strip_prefix(super::index::CALLS_HELPER)) {
            return self.own_helper(class, user, helper).is_some_and(|id| self.bare_call_assigns(id, ivar));
        }
        // Given arguments: its parameters may hold anything.
        let Some(helper) = markers.iter().find_map(|m| m.strip_prefix(super::index::CALLS_HELPER_GIVEN)) else {
            return false;
        };
        self.own_helper(class, user, helper).is_some_and(|id| self.call_assigns(id, ivar, false))
    }

    /// The class's own `def` of `helper`, when it is surely what
    /// `self.helper` runs: a subclass could override it, so only for a
    /// class alone in its family, or one no class below overrides the
    /// helper of (a superclass's `clear` is not the one `self.clear` runs
    /// here).
    fn own_helper(&self, class: &str, user: &super::index::UserClass, helper: &str) -> Option<usize> {
        if self.replaced_from_outside(class, helper) {
            return None;
        }
        let alone = self.alone_in_family(class) || self.kept_below(class, helper);
        match user.instance_methods.get(helper) {
            Some(MethodEntry::Def(id)) if alone => Some(*id),
            _ => None,
        }
    }

    /// Does a bare call (no arguments, no block) of the `def` `id` assign
    /// `ivar` in its straight-line prefix? Its parameters then hold their
    /// defaults: `if full` on one defaulting to `true` runs its branch.
    fn bare_call_assigns(&self, id: usize, ivar: &str) -> bool {
        self.call_assigns(id, ivar, true)
    }

    /// [`Self::bare_call_assigns`]; `bare`: its parameters hold their
    /// defaults, else anything.
    fn call_assigns(&self, id: usize, ivar: &str, bare: bool) -> bool {
        let Some(def) = self.index.def(id).node.as_def_node() else { return false };
        // Its Kernel calls count as calling nothing back only while they
        // are the core's for the objects that run it.
        let kernel = def.body().map(|body| super::index::kernel_calls_in(&body)).unwrap_or_default();
        let owner = self.index.def(id).owner.as_ref().map(|(class, _)| class);
        if !kernel.is_empty() && !owner.is_some_and(|class| self.kernel_functions_kept(class, &kernel)) {
            return false;
        }
        if !super::index::defaults_call_nothing(&def) {
            return false;
        }
        let truthy = if bare { truthy_defaults(&def) } else { Vec::new() };
        super::index::straight_line_ivar_writes_given(def.body(), &truthy).iter().any(|w| w == ivar)
    }

    /// Does the helper an inherited `initialize` ends its straight-line
    /// prefix by calling (`setup`: a hook the template leaves to its
    /// subclasses) assign `ivar` as the objects of `constructed` run it:
    /// the body the lookup finds from `constructed`, when it is one of
    /// this file's? (Each class below is asked for its own objects.)
    fn inherited_helper_assigns(&self, constructed: &str, markers: &HashSet<String>, ivar: &str) -> bool {
        let Some(helper) = markers.iter().find_map(|m| m.strip_prefix(super::index::CALLS_HELPER)) else {
            return false;
        };
        let super::Callee::Def(id) = self.lookup(constructed, Side::Instance, helper) else { return false };
        self.bare_call_assigns(id, ivar)
    }

    /// The instance variables a call of `method` on `self` surely leaves
    /// assigned when it returns (`make_buffer unless @buffer`, then
    /// `@buffer.read`): those the straight-line prefix of its `def` assigns,
    /// when that `def` is surely the one that runs: a class this file alone
    /// defines, no module prepended to it, nothing below overriding it.
    /// Assigned is not the same as holding what was assigned: later calls
    /// may store other values, which the class's type of the ivar counts.
    pub(super) fn assigned_by_own_call(&self, class: &Name, method: &str) -> Rc<[String]> {
        let key = (class.clone(), method.to_string());
        if let Some(known) = self.own_call_writes.borrow().get(&key) {
            return known.clone();
        }
        let found: Rc<[String]> = self.own_call_assigns(class, method).into();
        self.own_call_writes.borrow_mut().insert(key, found.clone());
        found
    }

    /// What `self.method` (a call of the object's own helper, `connect!`)
    /// leaves its ivars holding, where the `def` that runs is surely this
    /// file's one (as for [`Self::assigned_by_own_call`]) and it returns
    /// only at its end: `@conn = nil` in `initialize`, then `connect!`
    /// assigning `@conn = Conn.new`, leaves `@conn` a `Conn` after the call.
    pub(super) fn ivars_after_own_call(&mut self, class: &Name, method: &str) -> Option<Rc<HashMap<String, Type>>> {
        let id = self.surely_runs(class, method)?;
        let offset = self.index.def(id).node.location().start() as usize;
        if self.exit_ivars.contains_key(&offset) {
            self.note_def_read(offset);
        } else {
            self.method_return(id);
        }
        let exit = self.exit_ivars.get(&offset)?.clone()?;
        self.answered_by_its_def(class, method).then_some(exit)
    }

    /// Does `self.method` (the class's own `def`, as for
    /// [`Self::ivars_after_own_call`]) run nothing that could write the
    /// object's ivars: no ivar write, `yield`, `super`, call of its own or
    /// call that may reach project code, no change to what an ivar holds,
    /// and no `return` (see `KEEPS_IVARS`)? Then the caller's ivar facts
    /// stand past the call.
    /// (All but the facts of the ivars it assigns itself, when it may
    /// assign some: see [`super::replay::KeptIvars`].)
    pub(super) fn own_call_keeps_ivars(&mut self, class: &Name, method: &str) -> super::replay::KeptIvars {
        let id = self.surely_runs(class, method)?;
        let offset = self.index.def(id).node.location().start() as usize;
        if self.keeps_ivars.contains_key(&offset) {
            self.note_def_read(offset);
        } else {
            self.method_return(id);
        }
        let kept = self.keeps_ivars.get(&offset).cloned().flatten()?;
        self.answered_by_its_def(class, method).then_some(kept)
    }

    /// Does the `def` `id` run nothing that could write the object's ivars
    /// (see [`Self::own_call_keeps_ivars`]), whoever calls it?
    pub(super) fn def_keeps_ivars(&mut self, id: usize) -> bool {
        let offset = self.index.def(id).node.location().start() as usize;
        if self.keeps_ivars.contains_key(&offset) {
            self.note_def_read(offset);
        } else {
            self.method_return(id);
        }
        self.keeps_ivars.get(&offset).is_some_and(|kept| kept.as_ref().is_some_and(|but| but.is_empty()))
    }

    /// Does nothing but the class's own `def` answer `method` on its
    /// objects: no body given in a block (`C.class_eval { def make }`,
    /// `define_method(:make)`), no alias, no module of this file's that
    /// may be prepended or extended into the object from anywhere,
    /// nothing below the class overriding it?
    fn answered_by_its_def(&self, class: &str, method: &str) -> bool {
        !self.index.core_redefined(method)
            && !self.index.classes.values().any(|c| c.is_module && c.instance_methods.contains_key(method))
            && (self.alone_in_family(class) || self.kept_below(class, method))
    }

    /// The `def` of `method` on instances of `class`, when the class is
    /// this file's alone, with nothing prepended or mixed in unseen.
    fn surely_runs(&self, class: &str, method: &str) -> Option<usize> {
        let user = self.index.classes.get(class)?;
        if user.spread || user.is_module || !user.prepends.is_empty() || user.unknown_mixins || user.computed_mixins {
            return None;
        }
        match user.instance_methods.get(method) {
            Some(MethodEntry::Def(id)) => Some(*id),
            _ => None,
        }
    }

    fn own_call_assigns(&self, class: &str, method: &str) -> Vec<String> {
        let Some(id) = self.surely_runs(class, method) else { return Vec::new() };
        // What the body assigns first (this file's alone): most helpers
        // assign nothing, and the checks below walk every class.
        let body = self.index.def(id).node.as_def_node().and_then(|d| d.body());
        let assigned: Vec<String> = super::index::straight_line_ivar_writes(body)
            .into_iter()
            .filter_map(|written| {
                let written = match written.strip_prefix(super::index::AFTER_CALLS) {
                    Some(rest) => rest.split_once('|')?.1.to_string(),
                    None => written,
                };
                let written = written.strip_prefix(super::index::AFTER_SUPER).unwrap_or(&written);
                written.starts_with('@').then(|| written.to_string())
            })
            .collect();
        if assigned.is_empty() || !self.answered_by_its_def(class, method) {
            return Vec::new();
        }
        assigned
    }

    /// Does nothing below `class` (a subclass or a module mixed into one,
    /// in this file or another, or an object given its own) define
    /// `method` on its instances?
    pub(super) fn kept_below(&self, class: &str, method: &str) -> bool {
        self.kept_below_on(class, Side::Instance, method)
    }

    /// [`Self::kept_below`], on either side.
    fn kept_below_on(&self, class: &str, side: Side, method: &str) -> bool {
        let here = self.overrides(class, side, method);
        here.defs.is_empty() && !here.opaque && self.index.overrides_elsewhere(class, side, method).is_none()
    }

    /// Does nothing below `member`'s class (see [`Self::kept_below`])
    /// define `method` on that side?
    pub(super) fn defined_nowhere_below(&self, member: &Type, method: &str) -> bool {
        match member {
            Type::Nominal { class, .. } => self.kept_below_on(class, Side::Instance, method),
            Type::Singleton(class) => self.kept_below_on(class, Side::Singleton, method),
            _ => false,
        }
    }

    fn descends_from(&self, class: &str, ancestor: &str) -> bool {
        let mut current = self.index.class_shape(class).and_then(|c| match &c.superclass {
            Superclass::Known(parent) => Some(parent.clone()),
            _ => None,
        });
        for _ in 0..64 {
            let Some(name) = current.take() else { return false };
            if &*name == ancestor {
                return true;
            }
            current = self.index.class_shape(&name).and_then(|c| match &c.superclass {
                Superclass::Known(parent) => Some(parent.clone()),
                _ => None,
            });
        }
        false
    }
}

/// The parameters of `def` that hold a truthy value throughout a call
/// that passes no arguments: optional ones (positional or keyword) whose
/// default is a literal other than `nil` and `false`, which the body never
/// assigns.
fn truthy_defaults(def: &ruby_prism::DefNode<'_>) -> Vec<String> {
    let Some(parameters) = def.parameters() else { return Vec::new() };
    let truthy_literal = |value: &Node<'_>| {
        matches!(
            value,
            Node::TrueNode { .. }
                | Node::IntegerNode { .. }
                | Node::FloatNode { .. }
                | Node::StringNode { .. }
                | Node::SymbolNode { .. }
        )
    };
    let positional = parameters.optionals().iter().filter_map(|p| {
        let p = p.as_optional_parameter_node()?;
        truthy_literal(&p.value()).then(|| p.name())
    });
    let keywords = parameters.keywords().iter().filter_map(|p| {
        let p = p.as_optional_keyword_parameter_node()?;
        truthy_literal(&p.value()).then(|| p.name())
    });
    positional.chain(keywords).filter(|name| !super::yields::assigns_local(def, name.as_slice())).map(name).collect()
}
