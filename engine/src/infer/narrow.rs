//! Conditions: evaluating a predicate gives the flow where it held and the
//! flow where it did not, with variables narrowed by truthiness, `nil?`,
//! `is_a?` and friends, `!`, `&&` and `||`.

use ruby_prism::Node;

use super::flow::{join_states, State};
use super::signature::Relation;
use super::{Frame, Inferrer};
use crate::syntax::name;
use crate::types::{union, Literal, Type};

/// The outcome of a condition: its value's type, and the flows where it
/// was truthy and where it was falsy (`None`: that cannot happen).
pub struct Branches {
    pub ty: Type,
    pub truthy: State,
    pub falsy: State,
}

impl<'pr> Inferrer<'pr, '_> {
    pub fn condition(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Branches {
        if state.is_none() {
            let ty = self.dead(node, frame);
            return Branches { ty, truthy: None, falsy: None };
        }
        let branches = self.condition_inner(node, state, frame);
        self.record(node, &branches.ty);
        branches
    }

    fn condition_inner(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Branches {
        match node {
            Node::ParenthesesNode { .. } => {
                let body = node.as_parentheses_node().and_then(|p| p.body());
                let single = body.as_ref().and_then(|b| b.as_statements_node()).filter(|s| s.body().len() == 1);
                match single {
                    Some(statements) => {
                        let Some(inner) = statements.body().iter().next() else {
                            return self.plain(node, state, frame);
                        };
                        let branches = self.condition(&inner, state, frame);
                        self.record(&statements.as_node(), &branches.ty);
                        branches
                    }
                    None => self.plain(node, state, frame),
                }
            }
            Node::AndNode { .. } => {
                let Some(and) = node.as_and_node() else { return self.plain(node, state, frame) };
                let left = self.condition(&and.left(), state, frame);
                let mut rest = left.truthy.clone();
                let right = self.condition(&and.right(), &mut rest, frame);
                let left_falsy = if left.falsy.is_some() { left.ty.falsy_part() } else { Type::Bot };
                let right_ty = if left.truthy.is_some() { right.ty.clone() } else { Type::Bot };
                let falsy = join_states(&left.falsy, &right.falsy);
                *state = join_states(&right.truthy, &falsy);
                Branches { ty: union([left_falsy, right_ty]), truthy: right.truthy, falsy }
            }
            Node::OrNode { .. } => {
                let Some(or) = node.as_or_node() else { return self.plain(node, state, frame) };
                let left = self.condition(&or.left(), state, frame);
                let mut rest = left.falsy.clone();
                let right = self.condition(&or.right(), &mut rest, frame);
                let left_truthy = if left.truthy.is_some() { left.ty.truthy_part() } else { Type::Bot };
                let right_ty = if left.falsy.is_some() { right.ty.clone() } else { Type::Bot };
                let truthy = join_states(&left.truthy, &right.truthy);
                *state = join_states(&truthy, &right.falsy);
                Branches { ty: union([left_truthy, right_ty]), truthy, falsy: right.falsy }
            }
            Node::CallNode { .. } => self.call_condition(node, state, frame),
            Node::MatchWriteNode { .. } => self.named_captures_condition(node, state, frame),
            Node::LocalVariableReadNode { .. } | Node::InstanceVariableReadNode { .. } => {
                self.truthiness(node, state, frame)
            }
            Node::LocalVariableWriteNode { .. } => {
                let ty = self.expr(node, state, frame);
                let Some(write) = node.as_local_variable_write_node() else {
                    return self.split(ty, state.clone(), state.clone());
                };
                let local = name(write.name());
                let mut truthy = state.clone();
                let mut falsy = state.clone();
                narrow_local(&mut truthy, &local, Type::truthy_part);
                narrow_local(&mut falsy, &local, Type::falsy_part);
                self.split(ty, truthy, falsy)
            }
            _ => self.plain(node, state, frame),
        }
    }

    /// `if /(?<size>\d+)(?<unit>px)?/ =~ s`: when it matched, every named
    /// group the match must pass through holds a String (`size`; `unit`
    /// may be nil); when it did not, Ruby sets them all to nil.
    fn named_captures_condition(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Branches {
        let ty = self.expr(node, state, frame);
        let Some(matching) = node.as_match_write_node() else {
            return self.split(ty, state.clone(), state.clone());
        };
        let regex = matching.call().receiver().and_then(|r| r.as_regular_expression_node());
        let mandatory = regex
            .and_then(|r| {
                let source = crate::syntax::decoded(r.content_loc().as_slice()).into_owned();
                super::named_groups::mandatory(&source, r.is_extended())
            })
            .unwrap_or_default();
        let mut truthy = state.clone();
        let mut falsy = state.clone();
        for target in matching.targets().iter() {
            let Some(local) = target.as_local_variable_target_node() else { continue };
            // The match writes them: what was implied of them goes.
            let local = name(local.name());
            for flow in [truthy.as_mut(), falsy.as_mut()].into_iter().flatten() {
                let current = flow.local(&local);
                flow.bind(&local, current);
            }
            if mandatory.contains(&local) {
                narrow_local(&mut truthy, &local, Type::without_nil);
            }
            narrow_local(&mut falsy, &local, |_| Type::nil());
        }
        self.split(ty, truthy, falsy)
    }

    /// A variable or stable read as a condition: truthy on one branch,
    /// falsy on the other.
    fn truthiness(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Branches {
        let ty = self.expr(node, state, frame);
        let mut truthy = state.clone();
        let mut falsy = state.clone();
        self.narrow_node(node, &mut truthy, Type::truthy_part);
        self.narrow_node(node, &mut falsy, Type::falsy_part);
        self.split(ty, truthy, falsy)
    }

    /// A condition with nothing to narrow: only its type decides which
    /// branches can run.
    fn plain(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Branches {
        let ty = self.expr(node, state, frame);
        self.split(ty, state.clone(), state.clone())
    }

    fn split(&self, ty: Type, truthy: State, falsy: State) -> Branches {
        let truthy = if ty.may_be_truthy() { truthy } else { None };
        let falsy = if ty.may_be_falsy() { falsy } else { None };
        Branches { ty, truthy, falsy }
    }

    /// Does a value of this type answer `method` with a body of its own,
    /// not the core's (a project class's `nil?`, a Delegator's `!`)?
    fn may_answer_its_own_way(&self, ty: &Type, method: &str) -> bool {
        !self.own_answerers_of(ty, method).is_empty()
    }

    /// The members of `ty` that may answer `method` their own way.
    fn own_answerers_of(&self, ty: &Type, method: &str) -> Vec<Type> {
        const CORE: &[&str] = &["BasicObject", "Object", "Kernel", "NilClass", "Comparable"];
        ty.members()
            .iter()
            .filter(|member| match member {
                Type::Nominal { class, .. } => {
                    let own = match self.lookup(class, super::index::Side::Instance, method) {
                        super::Callee::Rbs(found) => !CORE.contains(&&*found.owner),
                        // An ancestor nobody can see may define it.
                        super::Callee::Missing { complete } => !complete,
                        _ => true,
                    };
                    // A subclass or mixin below, in this file or another.
                    own || !self.kept_below(class, method)
                }
                _ => false,
            })
            .cloned()
            .collect()
    }

    /// Of the variable `subject`'s type, what may answer `method` its own
    /// way (`bot` when nothing).
    fn own_answerers(&self, subject: &Node<'pr>, method: &str) -> Type {
        let ty = self.recorded(subject).cloned().unwrap_or(Type::Bot);
        union(self.own_answerers_of(&ty, method))
    }

    fn call_condition(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Branches {
        let Some(call) = node.as_call_node() else { return self.plain(node, state, frame) };
        let method = name(call.name());
        let receiver = call.receiver();
        let argument_count = call.arguments().map_or(0, |a| a.arguments().len());
        let has_block = call.block().is_some();
        match (method.as_str(), &receiver, argument_count, has_block) {
            ("!", Some(inner), 0, false) => {
                let inner_branches = self.condition(inner, state, frame);
                // A `!` of its own (Delegator forwards it) decides the
                // value, not the receiver's truthiness.
                if self.recorded(inner).is_some_and(|t| self.may_answer_its_own_way(t, "!")) {
                    *state = join_states(&inner_branches.truthy, &inner_branches.falsy);
                    let ty = Type::untyped();
                    self.record(node, &ty);
                    return Branches { ty, truthy: state.clone(), falsy: state.clone() };
                }
                let ty = match (inner_branches.truthy.is_some(), inner_branches.falsy.is_some()) {
                    (true, false) => Type::Constant(Literal::False),
                    (false, true) => Type::Constant(Literal::True),
                    _ => Type::bool(),
                };
                *state = join_states(&inner_branches.truthy, &inner_branches.falsy);
                Branches { ty, truthy: inner_branches.falsy, falsy: inner_branches.truthy }
            }
            // `block_given?` is whether the method's `&block` is a Proc.
            ("block_given?", None, 0, false) if frame.block_param.is_some() => {
                let ty = self.expr(node, state, frame);
                let param = frame.block_param.as_deref().unwrap_or_default();
                let mut truthy = state.clone();
                let mut falsy = state.clone();
                narrow_local(&mut truthy, param, Type::without_nil);
                narrow_local(&mut falsy, param, Type::nil_part);
                self.split(ty, truthy, falsy)
            }
            ("nil?", Some(subject), 0, false) if is_variable(subject) => {
                let ty = self.expr(node, state, frame);
                // The project gives some core class a `nil?` of its own
                // (`class NilClass; def nil? = false`): it decides nothing.
                if self.index.core_redefined("nil?") {
                    return self.split(ty, state.clone(), state.clone());
                }
                let mut truthy = state.clone();
                let mut falsy = state.clone();
                // A null object's own `nil?` may say true (nil's says so
                // for nil alone).
                let own = self.own_answerers(subject, "nil?");
                self.narrow_node(subject, &mut truthy, |t| union([t.nil_part(), own.clone()]));
                self.narrow_node(subject, &mut falsy, Type::without_nil);
                self.split(ty, truthy, falsy)
            }
            ("is_a?" | "kind_of?" | "instance_of?", Some(subject), 1, false) if is_variable(subject) => {
                let ty = self.expr(node, state, frame);
                // A class that answers it its own way (`def kind_of?(k) =
                // true`, or a `method_missing` proxy on BasicObject)
                // decides nothing about the class. (`Integer === x`,
                // and so `case`/`when`, asks the class itself.)
                if self.recorded(subject).is_some_and(|t| self.may_answer_its_own_way(t, &method)) {
                    return self.split(ty, state.clone(), state.clone());
                }
                let class =
                    call.arguments().and_then(|a| a.arguments().iter().next()).and_then(|a| self.recorded(&a).cloned());
                let Some(Type::Singleton(class)) = class else { return self.split(ty, state.clone(), state.clone()) };
                let exact = method == "instance_of?";
                let mut truthy = state.clone();
                let mut falsy = state.clone();
                self.narrow_node(subject, &mut truthy, |t| self.narrow_to_class(t, &class));
                if !exact {
                    self.narrow_node(subject, &mut falsy, |t| self.remove_class(t, &class));
                }
                let ty = match (truthy.is_some(), falsy.is_some()) {
                    (false, true) => Type::Constant(Literal::False),
                    (true, false) => Type::Constant(Literal::True),
                    _ => ty,
                };
                self.record(node, &ty);
                Branches { ty, truthy, falsy }
            }
            // `String === x`: Module#=== is `x.is_a?(String)`.
            ("===", Some(_), 1, false) => {
                let ty = self.expr(node, state, frame);
                let subject = call.arguments().and_then(|a| a.arguments().iter().next()).filter(is_variable);
                let class = receiver.as_ref().and_then(|r| self.recorded(r).cloned());
                let (Some(subject), Some(Type::Singleton(class))) = (subject, class) else {
                    return self.split(ty, state.clone(), state.clone());
                };
                let mut truthy = state.clone();
                let mut falsy = state.clone();
                let equality = self.case_equality(&class);
                self.narrow_node(&subject, &mut truthy, |t| self.case_split(&equality, t, &class).0);
                self.narrow_node(&subject, &mut falsy, |t| self.case_split(&equality, t, &class).1);
                self.split(ty, truthy, falsy)
            }
            // `x.respond_to?(:write)` true: x is not nil when nil lacks it.
            ("respond_to?", Some(subject), 1, false) if is_variable(subject) => {
                let ty = self.expr(node, state, frame);
                let probed = call
                    .arguments()
                    .and_then(|a| a.arguments().iter().next())
                    .and_then(|a| a.as_symbol_node().map(|s| crate::syntax::decoded(s.unescaped()).into_owned()));
                let mut truthy = state.clone();
                let nil_lacks = probed.is_some_and(|m| {
                    matches!(self.lookup("NilClass", super::index::Side::Instance, &m), super::Callee::Missing { .. })
                });
                if nil_lacks {
                    self.narrow_node(subject, &mut truthy, Type::without_nil);
                }
                self.split(ty, truthy, state.clone())
            }
            // `nil == x`: NilClass#== is identity.
            ("==" | "!=", Some(Node::NilNode { .. }), 1, false) => {
                let ty = self.expr(node, state, frame);
                let Some(subject) = call.arguments().and_then(|a| a.arguments().iter().next()) else {
                    return self.split(ty, state.clone(), state.clone());
                };
                if !is_variable(&subject) {
                    return self.split(ty, state.clone(), state.clone());
                }
                let mut equal = state.clone();
                let mut unequal = state.clone();
                self.narrow_node(&subject, &mut equal, Type::nil_part);
                self.narrow_node(&subject, &mut unequal, Type::without_nil);
                if method == "!=" {
                    self.split(ty, unequal, equal)
                } else {
                    self.split(ty, equal, unequal)
                }
            }
            // `re.match?(x)` true: x is not nil (a regexp does not match nil).
            ("match?" | "match" | "=~", Some(pattern), 1, false) => {
                let ty = self.expr(node, state, frame);
                let regexp = self
                    .recorded(pattern)
                    .is_some_and(|t| matches!(t, Type::Nominal { class, .. } if &**class == "Regexp"));
                let subject = call.arguments().and_then(|a| a.arguments().iter().next()).filter(is_variable);
                let mut truthy = state.clone();
                // `x =~ re` and `x&.match?(re)` true: x is not nil either
                // (`nil =~ re` and `nil&.match?(re)` are nil).
                let argument = call.arguments().and_then(|a| a.arguments().iter().next());
                let by_regexp = argument
                    .as_ref()
                    .and_then(|a| self.recorded(a))
                    .is_some_and(|t| matches!(t, Type::Nominal { class, .. } if &**class == "Regexp"));
                // Only while the core's own methods answer (a reopened
                // `NilClass#=~` may be truthy for nil).
                let cores = !self.index.core_redefined(&method);
                let receiver_proven = call.is_safe_navigation() || (method == "=~" && by_regexp && cores);
                if let (true, true, Some(subject)) = (regexp, cores, subject) {
                    self.narrow_node(&subject, &mut truthy, Type::without_nil);
                }
                if receiver_proven && is_variable(pattern) {
                    self.narrow_node(pattern, &mut truthy, Type::without_nil);
                }
                self.split(ty, truthy, state.clone())
            }
            // `x.to_s != ""` true (`== ""` false): x is not nil, as for
            // `x.to_s.empty?` below.
            ("==" | "!=", Some(Node::CallNode { .. }), 1, false)
                if receiver.as_ref().and_then(to_s_subject).is_some()
                    && call
                        .arguments()
                        .and_then(|a| a.arguments().iter().next())
                        .and_then(|a| a.as_string_node())
                        .is_some_and(|s| s.unescaped().is_empty()) =>
            {
                let ty = self.expr(node, state, frame);
                let subject = receiver.as_ref().and_then(to_s_subject).expect("matched");
                let mut nonempty = state.clone();
                if !self.to_s_test_redefined(&method) {
                    self.narrow_node(&subject, &mut nonempty, Type::without_nil);
                }
                if method == "!=" {
                    self.split(ty, nonempty, state.clone())
                } else {
                    self.split(ty, state.clone(), nonempty)
                }
            }
            // `x.to_s.empty?` false: x is not nil (`nil.to_s` is "").
            ("empty?", Some(Node::CallNode { .. }), 0, false) => {
                let ty = self.expr(node, state, frame);
                let subject = receiver.as_ref().and_then(to_s_subject);
                let mut falsy = state.clone();
                if let Some(subject) = subject.filter(|_| !self.to_s_test_redefined("empty?")) {
                    self.narrow_node(&subject, &mut falsy, Type::without_nil);
                }
                self.split(ty, state.clone(), falsy)
            }
            // `a.size > 0`, `a.length.zero?`: as `a.empty?` is.
            _ if size_test(&call).is_some() => {
                let (array, counted, nonempty_when) = size_test(&call).expect("matched");
                let ty = self.expr(node, state, frame);
                let (mut truthy, mut falsy) = (state.clone(), state.clone());
                // Only while the count and the comparison are the core's
                // (`class Array; def size = 1` makes `a.size > 0` say nothing).
                if !self.index.core_redefined_on("Array", counted)
                    && !self.index.core_redefined_on("Integer", &name(call.name()))
                {
                    self.note_nonempty(&array, if nonempty_when { &mut truthy } else { &mut falsy });
                }
                self.split(ty, truthy, falsy)
            }
            ("==" | "!=" | "equal?", Some(subject), 1, false) if is_variable(subject) => {
                let ty = self.expr(node, state, frame);
                let compared = call.arguments().and_then(|a| a.arguments().iter().next());
                let is_nil = compared.as_ref().is_some_and(|a| matches!(a, Node::NilNode { .. }));
                let subject_type = self.recorded(subject).cloned().unwrap_or_else(Type::untyped);
                if !is_nil {
                    // `x == "lit"` true: x is no nil, whose `==` is
                    // identity, when what it is compared with never is.
                    let never_nil = compared
                        .as_ref()
                        .and_then(|c| self.recorded(c))
                        .is_some_and(|t| !t.has_unknown() && !t.may_be_nil() && *t != Type::Bot);
                    let mut equal = state.clone();
                    if never_nil && !self.index.core_redefined("==") && !self.index.core_redefined(&method) {
                        self.narrow_node(subject, &mut equal, Type::without_nil);
                    }
                    return if method == "!=" {
                        self.split(ty, state.clone(), equal)
                    } else {
                        self.split(ty, equal, state.clone())
                    };
                }
                // Only core types are sure to compare with nil by identity.
                if subject_type.has_unknown() {
                    return self.split(ty, state.clone(), state.clone());
                }
                let mut equal = state.clone();
                let mut unequal = state.clone();
                // `x == nil` calls x's own `==` (and `!=` its own `!=`).
                let own = union([self.own_answerers(subject, "=="), self.own_answerers(subject, "!=")]);
                self.narrow_node(subject, &mut equal, |t| union([t.nil_part(), own.clone()]));
                self.narrow_node(subject, &mut unequal, Type::without_nil);
                if method == "!=" {
                    self.split(ty, unequal, equal)
                } else {
                    self.split(ty, equal, unequal)
                }
            }
            // `h.key?(k)` true: `h[k]` gives a value the hash holds, so no
            // nil when the hash's values are never nil.
            ("key?" | "has_key?" | "include?" | "member?", Some(hash), 1, false) if !call.is_safe_navigation() => {
                let ty = self.expr(node, state, frame);
                let mut truthy = state.clone();
                let key = call.arguments().and_then(|a| a.arguments().iter().next());
                let value = match self.recorded(hash) {
                    Some(Type::Nominal { class, args }) if &**class == "Hash" && args.len() == 2 => {
                        Some(args[1].clone())
                    }
                    Some(Type::Shape(shape)) if !shape.open => {
                        Some(crate::types::union(shape.fields.iter().map(|f| f.ty.clone())))
                    }
                    _ => None,
                };
                let text = key.as_ref().and_then(|key| read_text(hash, key));
                if let (Some(text), Some(value), Some(flow)) = (text, value, truthy.as_mut()) {
                    if !value.may_be_nil() {
                        flow.reads.insert(text, value.forget_mutable());
                    }
                }
                self.split(ty, truthy, state.clone())
            }
            // `a.empty?` false, `a.any?` true: `a.first` and the like are
            // an element, not nil, until other code runs.
            ("empty?" | "any?" | "none?", Some(array), 0, false) if !call.is_safe_navigation() => {
                let ty = self.expr(node, state, frame);
                let (mut truthy, mut falsy) = (state.clone(), state.clone());
                let nonempty = if method == "any?" { &mut truthy } else { &mut falsy };
                self.note_nonempty(array, nonempty);
                self.split(ty, truthy, falsy)
            }
            _ if stable_read(node).is_some() || reader_shape(node) => self.truthiness(node, state, frame),
            _ => {
                let ty = self.expr(node, state, frame);
                let mut truthy = state.clone();
                // `x&.m` truthy: x was not nil.
                if let (true, Some(subject)) = (call.is_safe_navigation(), &receiver) {
                    if is_variable(subject) {
                        self.narrow_node(subject, &mut truthy, Type::without_nil);
                    }
                }
                self.split(ty, truthy, state.clone())
            }
        }
    }

    /// Applies `narrow` to the variable a node reads; a variable narrowed
    /// to nothing makes the flow unreachable.
    pub fn narrow_node(&self, node: &Node<'pr>, state: &mut State, narrow: impl Fn(&Type) -> Type) {
        match node {
            Node::LocalVariableReadNode { .. } => {
                if let Some(read) = node.as_local_variable_read_node() {
                    narrow_local(state, &name(read.name()), narrow);
                }
            }
            Node::InstanceVariableReadNode { .. } => {
                let Some(read) = node.as_instance_variable_read_node() else { return };
                let ivar = name(read.name());
                let Some(current) = self.recorded(node).cloned() else { return };
                let Some(flow) = state.as_mut() else { return };
                let narrowed = narrow(&current);
                if narrowed == Type::Bot {
                    *state = None;
                } else {
                    // Not nil now, so assigned: it stays set whatever calls
                    // come after (an unset ivar reads as nil).
                    if !narrowed.may_be_nil() {
                        flow.ivars_set.insert(ivar.clone());
                    }
                    flow.ivars.insert(ivar, narrowed);
                }
            }
            Node::CallNode { .. } => {
                let Some(text) = self.stable_read_key(node) else { return };
                // `if a.shift`: the next `a.shift` takes another element.
                if is_element_take(&text) {
                    return;
                }
                let Some(current) = self.recorded(node).cloned() else { return };
                let Some(flow) = state.as_mut() else { return };
                // Its value may be mutated in place before the next read.
                let narrowed = narrow(&current).forget_mutable();
                if narrowed == Type::Bot {
                    *state = None;
                } else {
                    flow.reads.insert(text, narrowed);
                }
            }
            // `(m = re.match(s)).nil?`: the local just written.
            Node::ParenthesesNode { .. } => {
                if let Some(inner) = single_statement(node) {
                    self.narrow_node(&inner, state, narrow);
                }
            }
            Node::LocalVariableWriteNode { .. } => {
                if let Some(write) = node.as_local_variable_write_node() {
                    narrow_local(state, &name(write.name()), narrow);
                }
            }
            _ => {}
        }
    }

    /// Does the project give nil `method` after all, or a `method_missing`
    /// that may answer it: a `def` in `NilClass` or one of its ancestors
    /// (`Object`, `Kernel`, `BasicObject`) or a module mixed into them, or
    /// in a block run on one (`refine NilClass do`, `Object.class_eval do`)?
    /// (A `method_missing` of some other object's, `class << opts`, is not.)
    fn project_gives_nil(&self, method: &str) -> bool {
        // Nobody defines either name where a core value may reach it (the
        // usual answer, one set lookup each): nor, then, for nil.
        if !self.index.core_redefined(method) && !self.index.core_redefined("method_missing") {
            return false;
        }
        // Else once per name and file (the first answer noted the reads).
        if let Some(known) = self.nil_givers.borrow().get(method) {
            return *known;
        }
        let gives = self.nil_ancestors_give(method);
        self.nil_givers.borrow_mut().insert(method.to_string(), gives);
        gives
    }

    fn nil_ancestors_give(&self, method: &str) -> bool {
        const NIL_ANCESTORS: [&str; 4] = ["NilClass", "Object", "Kernel", "BasicObject"];
        let given = |class: &str, name: &str| {
            self.index.block_replaced(class, name)
                || (self.index.class_for_method(class, name).is_some()
                    && !matches!(
                        self.lookup(class, super::index::Side::Instance, name),
                        super::lookup::Callee::Rbs(_) | super::lookup::Callee::Missing { .. }
                    ))
        };
        NIL_ANCESTORS.iter().any(|class| given(class, method) || given(class, "method_missing"))
    }

    /// After `x.m(...)` returned, `x` was not nil when nil has no `m`: the
    /// call would have raised. Only for a plain call (no block, no `&.`)
    /// whose arguments run no code, so nothing between the read and the
    /// return can have changed `x`; an ivar only while the call kept
    /// ivars' narrowing (`ivars_kept`).
    pub fn narrow_after_call(
        &self,
        call: &ruby_prism::CallNode<'pr>,
        receiver: &Node<'pr>,
        method: &str,
        state: &mut State,
        ivars_kept: bool,
    ) {
        if call.block().is_some() || call.is_safe_navigation() || !nil_lacks(method) {
            return;
        }
        let inert = |arg: &Node<'_>| {
            matches!(
                arg,
                Node::IntegerNode { .. }
                    | Node::FloatNode { .. }
                    | Node::StringNode { .. }
                    | Node::SymbolNode { .. }
                    | Node::RegularExpressionNode { .. }
                    | Node::NilNode { .. }
                    | Node::TrueNode { .. }
                    | Node::FalseNode { .. }
                    | Node::LocalVariableReadNode { .. }
                    | Node::InstanceVariableReadNode { .. }
                    | Node::ConstantReadNode { .. }
                    | Node::ConstantPathNode { .. }
            )
        };
        if !call.arguments().is_none_or(|a| a.arguments().iter().all(|arg| inert(&arg))) {
            return;
        }
        // Only a value that may be nil and may be something else: a call on
        // nil alone is left to what the rules say of it.
        let Some(read) = self.recorded(receiver) else { return };
        if !read.may_be_nil() || read.without_nil() == Type::Bot {
            return;
        }
        // (Asked last: it looks the method up in four classes.)
        if self.project_gives_nil(method) {
            return;
        }
        match receiver {
            Node::LocalVariableReadNode { .. } => self.narrow_node(receiver, state, Type::without_nil),
            Node::InstanceVariableReadNode { .. } if ivars_kept => {
                let (Some(ivar), Some(flow)) = (receiver.as_instance_variable_read_node(), state.as_mut()) else {
                    return;
                };
                let ivar = name(ivar.name());
                let current = flow.ivars.get(&ivar).cloned().unwrap_or_else(|| read.clone());
                let narrowed = current.without_nil();
                if narrowed != Type::Bot {
                    flow.ivars_set.insert(ivar.clone());
                    flow.ivars.insert(ivar, narrowed);
                }
            }
            _ => {}
        }
    }

    /// The part of `ty` that is an instance of `class`.
    pub fn narrow_to_class(&self, ty: &Type, class: &str) -> Type {
        union(ty.members().iter().filter_map(|member| {
            let Some(member_class) = Inferrer::class_of(member) else {
                return Some(self.instance_of(class));
            };
            let exact = !matches!(member, Type::Nominal { .. });
            match self.relation(&member_class, class) {
                Relation::Is => Some(member.clone()),
                _ if !exact && self.relation(class, &member_class) == Relation::Is => Some(self.instance_of(class)),
                Relation::Unknown => Some(member.clone()),
                Relation::IsNot if !exact && self.is_module(class) => Some(member.clone()),
                Relation::IsNot => None,
            }
        }))
    }

    /// `ty` without the members that are surely instances of `class`.
    pub fn remove_class(&self, ty: &Type, class: &str) -> Type {
        union(
            ty.members()
                .iter()
                .filter(|member| match Inferrer::class_of(member) {
                    Some(member_class) => self.relation(&member_class, class) != Relation::Is,
                    None => true,
                })
                .cloned(),
        )
    }
}

/// Methods `nil` does not answer in Ruby 3.1, even with json, yaml, pp,
/// set and the other default libraries loaded (`nil.respond_to?(m, true)`
/// is false for each), common on values that may be nil: a call to one on
/// nil raises NoMethodError. A gem could give nil one of them;
/// ActiveSupport, the one that extends nil (`try`, `blank?`, `presence`),
/// does not.
fn nil_lacks(method: &str) -> bool {
    matches!(
        method,
        "*" | "+"
            | "-"
            | "/"
            | "<"
            | "<<"
            | "<="
            | ">"
            | ">="
            | "[]"
            | "[]="
            | "abs"
            | "add"
            | "any?"
            | "append"
            | "arity"
            | "ascii_only?"
            | "assoc"
            | "basename"
            | "bytes"
            | "bytesize"
            | "byteslice"
            | "call"
            | "capitalize"
            | "capitalize!"
            | "casecmp"
            | "casecmp?"
            | "ceil"
            | "center"
            | "chars"
            | "chomp"
            | "chomp!"
            | "chop"
            | "chop!"
            | "chr"
            | "clear"
            | "close"
            | "closed?"
            | "collect"
            | "collect!"
            | "compact"
            | "compact!"
            | "concat"
            | "count"
            | "delete"
            | "delete!"
            | "detect"
            | "dig"
            | "dirname"
            | "divmod"
            | "downcase"
            | "downcase!"
            | "downto"
            | "drop"
            | "each"
            | "each_byte"
            | "each_char"
            | "each_cons"
            | "each_key"
            | "each_line"
            | "each_slice"
            | "each_with_index"
            | "empty?"
            | "encode"
            | "encoding"
            | "end_with?"
            | "eof?"
            | "even?"
            | "extname"
            | "fetch"
            | "fetch_values"
            | "fileno"
            | "filter"
            | "filter!"
            | "filter_map"
            | "find"
            | "find_index"
            | "first"
            | "flat_map"
            | "flatten"
            | "flatten!"
            | "flock"
            | "floor"
            | "flush"
            | "force_encoding"
            | "group_by"
            | "gsub"
            | "gsub!"
            | "has_key?"
            | "has_value?"
            | "hex"
            | "include?"
            | "index"
            | "inject"
            | "insert"
            | "intern"
            | "iso8601"
            | "join"
            | "key?"
            | "keys"
            | "lambda?"
            | "last"
            | "length"
            | "lines"
            | "ljust"
            | "lstrip!"
            | "map"
            | "map!"
            | "match?"
            | "max"
            | "max_by"
            | "member?"
            | "merge"
            | "merge!"
            | "min"
            | "min_by"
            | "modulo"
            | "mtime"
            | "negative?"
            | "next!"
            | "none?"
            | "oct"
            | "odd?"
            | "ord"
            | "owner"
            | "pack"
            | "parameters"
            | "partition"
            | "pop"
            | "positive?"
            | "pred"
            | "prepend"
            | "push"
            | "read"
            | "receiver"
            | "reduce"
            | "reject"
            | "reject!"
            | "remainder"
            | "replace"
            | "reverse"
            | "reverse!"
            | "rewind"
            | "rindex"
            | "rjust"
            | "rotate!"
            | "round"
            | "rstrip!"
            | "scan"
            | "scrub"
            | "seek"
            | "select!"
            | "shift"
            | "shuffle!"
            | "size"
            | "slice"
            | "slice!"
            | "sort"
            | "sort!"
            | "sort_by"
            | "source_location"
            | "split"
            | "squeeze!"
            | "start_with?"
            | "step"
            | "store"
            | "strftime"
            | "strip"
            | "strip!"
            | "sub"
            | "sub!"
            | "succ"
            | "succ!"
            | "sum"
            | "swapcase"
            | "swapcase!"
            | "take"
            | "tally"
            | "times"
            | "to_sym"
            | "tr!"
            | "tr_s!"
            | "transform_keys"
            | "transform_values"
            | "truncate"
            | "uniq"
            | "uniq!"
            | "unpack"
            | "unpack1"
            | "unshift"
            | "upcase"
            | "upcase!"
            | "update"
            | "upto"
            | "valid_encoding?"
            | "values"
            | "values_at"
            | "write"
            | "zero?"
            | "zip"
            // StringScanner's (mustache's parser calls them in a row).
            | "beginning_of_line?"
            | "captures"
            | "charpos"
            | "check"
            | "check_until"
            | "eos?"
            | "exist?"
            | "get_byte"
            | "getch"
            | "matched"
            | "matched?"
            | "matched_size"
            | "named_captures"
            | "peek"
            | "pos"
            | "pos="
            | "post_match"
            | "pre_match"
            | "rest"
            | "rest_size"
            | "scan_full"
            | "scan_until"
            | "search_full"
            | "skip"
            | "skip_until"
            | "string"
            | "terminate"
            | "unscan"
    )
}

fn is_variable(node: &Node<'_>) -> bool {
    match node {
        Node::LocalVariableReadNode { .. } | Node::InstanceVariableReadNode { .. } => true,
        Node::CallNode { .. } => stable_read(node).is_some() || reader_shape(node),
        Node::LocalVariableWriteNode { .. } => true,
        Node::ParenthesesNode { .. } => single_statement(node).is_some_and(|inner| is_variable(&inner)),
        _ => false,
    }
}

impl<'pr> Inferrer<'pr, '_> {
    /// The key a guard's narrowing of this read is kept under: a stable
    /// read's (`ENV["X"]`), or an attribute reader's on a variable
    /// (`uri.host`, `box.name`) once the receiver is typed and every class
    /// it may be answers with a reader (the signatures' `attr_reader`, or
    /// the project's) that nothing overrides: until other code runs, it
    /// gives what it gave.
    pub(super) fn stable_read_key(&self, node: &Node<'pr>) -> Option<String> {
        if let Some(text) = stable_read(node) {
            return Some(text);
        }
        if !reader_shape(node) {
            return None;
        }
        let call = node.as_call_node()?;
        let receiver_type = self.recorded(&call.receiver()?)?;
        let method = name(call.name());
        // An element read of a core Array (narrowed by `empty?`).
        let element_read = ELEMENT_READS.contains(&method.as_str()) || ELEMENT_TAKES.contains(&method.as_str());
        if element_read && self.plain_array_element(receiver_type).is_some() {
            return Some(crate::syntax::text(&node.location()));
        }
        // A raised exception's backtrace (see `note_raised_backtrace`).
        if method == "backtrace" && receiver_type.members().iter().all(|m| self.backtrace_is_the_cores(m)) {
            return Some(crate::syntax::text(&node.location()));
        }
        let mut read = false;
        for member in receiver_type.members() {
            match member {
                // A nil receiver raises before anything is read.
                member if *member == Type::nil() => {}
                Type::Nominal { class, .. } if self.answers_with_reader(class, &method) => read = true,
                _ => return None,
            }
        }
        read.then(|| crate::syntax::text(&node.location()))
    }

    /// Does evaluating `node` call methods of values it was given, where
    /// those may be the project's: `"#{o}"` calls `o.to_s`, `1 + o`
    /// `o.coerce`, `"a" + o` `o.to_str`, `for x in o` `o.each`. A core
    /// receiver (see `disturbs_reads`) does not make such a call quiet.
    pub(super) fn runs_code_implicitly(&self, node: &Node<'pr>) -> bool {
        // A class object is shown by the core's `to_s` unless it or a class
        // below gives itself one (`e.class` may be a subclass).
        let core_class = |member: &Type| {
            let Type::Singleton(class) = member else { return false };
            let found = self.lookup(class, super::index::Side::Singleton, "to_s");
            matches!(found, super::Callee::Rbs(found) if &*found.owner == "Module")
                && self.defined_nowhere_below(member, "to_s")
        };
        let inert = |part: &Node<'pr>| {
            self.recorded(part).is_some_and(|ty| ty.members().iter().all(|m| inert_value(m) || core_class(m)))
        };
        match node {
            Node::CallNode { .. } => node.as_call_node().is_some_and(|call| {
                call.arguments().is_some_and(|list| list.arguments().iter().any(|argument| !inert(&argument)))
            }),
            Node::InterpolatedStringNode { .. }
            | Node::InterpolatedSymbolNode { .. }
            | Node::InterpolatedRegularExpressionNode { .. }
            | Node::InterpolatedXStringNode { .. } => {
                let parts: Vec<Node<'pr>> = match node {
                    Node::InterpolatedStringNode { .. } => {
                        node.as_interpolated_string_node().map(|n| n.parts().iter().collect())
                    }
                    Node::InterpolatedSymbolNode { .. } => {
                        node.as_interpolated_symbol_node().map(|n| n.parts().iter().collect())
                    }
                    Node::InterpolatedRegularExpressionNode { .. } => {
                        node.as_interpolated_regular_expression_node().map(|n| n.parts().iter().collect())
                    }
                    _ => node.as_interpolated_x_string_node().map(|n| n.parts().iter().collect()),
                }
                .unwrap_or_default();
                parts.iter().any(|part| match part {
                    Node::StringNode { .. } => false,
                    Node::EmbeddedStatementsNode { .. } => part
                        .as_embedded_statements_node()
                        .and_then(|e| e.statements())
                        .and_then(|s| s.body().iter().last())
                        .is_none_or(|last| !inert(&last)),
                    Node::EmbeddedVariableNode { .. } => {
                        part.as_embedded_variable_node().is_none_or(|e| !inert(&e.variable()))
                    }
                    _ => true,
                })
            }
            Node::ForNode { .. } => true,
            _ => false,
        }
    }

    /// `array` (a variable holding an Array) has an element here: its
    /// element reads (`a.first`, `a.max`) give one, never nil, until code
    /// that may change it runs (see `Flow::reads`).
    fn note_nonempty(&self, array: &Node<'pr>, state: &mut State) {
        if !holds_an_array(array) {
            return;
        }
        let Some(flow) = state.as_mut() else { return };
        let text = crate::syntax::text(&array.location());
        if let Some(element) = self.recorded(array).and_then(|t| self.plain_array_element(t)) {
            note_elements(flow, &text, element);
        } else if self.recorded(array).is_some_and(|t| self.plain_hash(t)) {
            flow.reads.insert(filled_key(&text), Type::untyped());
        }
    }

    /// `a << x`, `a.push(x)`, `a.unshift(x)` on a core array: it has an
    /// element now, so `a.last`, `a.first` and `a.max` give one (of what it
    /// held or what was stored), as after an emptiness test, until code
    /// that may take them runs.
    /// (Asked after the call's own disturbance of reads, see `expr`.)
    pub(super) fn note_filled_by_store(&self, call: &ruby_prism::CallNode<'pr>, state: &mut State) {
        let method = call.name();
        if !matches!(method.as_slice(), b"<<" | b"push" | b"append" | b"unshift" | b"prepend")
            || call.block().is_some()
            || call.is_safe_navigation()
        {
            return;
        }
        let Some(array) = call.receiver() else { return };
        if !matches!(array, Node::LocalVariableReadNode { .. } | Node::InstanceVariableReadNode { .. })
            || self.index.core_redefined_on("Array", &name(method))
        {
            return;
        }
        let stored: Vec<Node<'pr>> = call.arguments().map(|a| a.arguments().iter().collect()).unwrap_or_default();
        let plain = |arg: &Node<'_>| {
            !matches!(arg, Node::SplatNode { .. } | Node::KeywordHashNode { .. } | Node::BlockArgumentNode { .. })
        };
        if stored.is_empty() || !stored.iter().all(plain) {
            return;
        }
        let Some(held) = self.recorded(&array).and_then(|t| self.plain_array_element(t)) else { return };
        let element = union(
            std::iter::once(held)
                .chain(stored.iter().map(|arg| self.recorded(arg).cloned().unwrap_or_else(Type::untyped))),
        );
        let Some(flow) = state.as_mut() else { return };
        let text = crate::syntax::text(&array.location());
        note_elements(flow, &text, element.forget_mutable());
    }

    /// Did an emptiness test leave this variable with elements, and does no
    /// code since may have taken them (see `note_nonempty`)?
    pub(super) fn known_filled(&self, node: &Node<'pr>, state: &State) -> bool {
        holds_an_array(node)
            && state.as_ref().is_some_and(|flow| {
                flow.reads.contains_key(&filled_key(&crate::syntax::decoded(node.location().as_slice())))
            })
    }

    /// A core `Hash` (not a subclass) whose emptiness tests and pair
    /// picks are the core's.
    fn plain_hash(&self, ty: &Type) -> bool {
        matches!(ty, Type::Nominal { class, args } if &**class == "Hash" && args.len() == 2)
            && !["empty?", "any?", "none?", "size", "length", "count"]
                .iter()
                .chain(FILLED_PICKS)
                .any(|m| self.index.core_redefined_on("Hash", m))
    }

    /// Is `method` on `ty` a core pick that gives nil only for no
    /// elements, on a core Array or Hash?
    pub(super) fn picks_from_filled(&self, ty: &Type, method: &str) -> bool {
        FILLED_PICKS.contains(&method)
            && ((self.plain_array_element(ty).is_some() && !self.index.core_redefined_on("Array", method))
                || (self.plain_hash(ty) && !self.index.core_redefined_on("Hash", method)))
    }

    /// Is `ty` a core `Array` whose `[]` is the core's (so `a[0]` of one
    /// with elements is one)?
    pub(super) fn indexes_filled_array(&self, ty: &Type) -> bool {
        !self.index.core_redefined_on("Array", "[]") && self.plain_array_element(ty).is_some()
    }

    /// The element type of a core `Array` (not a subclass, whose methods
    /// may be its own), when `empty?` and the element reads are the core's.
    fn plain_array_element(&self, ty: &Type) -> Option<Type> {
        let Type::Nominal { class, args } = ty else { return None };
        if &**class != "Array" || args.len() != 1 {
            return None;
        }
        let redefined = ["empty?", "any?", "none?"]
            .iter()
            .chain(ELEMENT_READS)
            .chain(ELEMENT_TAKES)
            .any(|m| self.index.core_redefined_on("Array", m));
        (!redefined).then(|| args[0].clone())
    }

    fn answers_with_reader(&self, class: &str, method: &str) -> bool {
        use super::index::Side;
        if !self.kept_below(class, method) {
            return false;
        }
        match self.lookup(class, Side::Instance, method) {
            super::Callee::Reader(_) => true,
            super::Callee::Rbs(_) => self.env.is_attribute_reader(class, method) && !self.index.core_redefined(method),
            _ => false,
        }
    }
}

/// What an emptiness test is followed on: a local, an ivar, or a constant
/// (`exit if ARGV.empty?`, then `ARGV[0]`), read as written.
fn holds_an_array(node: &Node<'_>) -> bool {
    matches!(
        node,
        Node::LocalVariableReadNode { .. } | Node::InstanceVariableReadNode { .. } | Node::ConstantReadNode { .. }
    )
}

/// `x` of `x.to_s` (a plain call on a variable), or of `x.to_s.strip`
/// (which leaves `nil.to_s`, "", empty).
fn to_s_subject<'pr>(node: &Node<'pr>) -> Option<Node<'pr>> {
    let plain = |c: &ruby_prism::CallNode<'pr>| c.arguments().is_none() && c.block().is_none();
    let call = node.as_call_node().filter(plain)?;
    let call = match &*name(call.name()) {
        "strip" | "lstrip" | "rstrip" => call.receiver()?.as_call_node().filter(plain)?,
        _ => call,
    };
    (name(call.name()) == "to_s").then(|| call.receiver()).flatten().filter(is_variable)
}

/// The core methods [`to_s_subject`]'s chain calls on a string.
const TO_S_CHAIN: &[&str] = &["to_s", "strip", "lstrip", "rstrip"];

impl Inferrer<'_, '_> {
    /// May the project have given another body to what `x.to_s` (then
    /// `strip`) and `test` run when x is nil? Only NilClass's `to_s` and
    /// String's own methods run then.
    fn to_s_test_redefined(&self, test: &str) -> bool {
        self.index.core_redefined_on("NilClass", "to_s")
            || TO_S_CHAIN.iter().chain([&test]).any(|m| self.index.core_redefined_on("String", m))
    }
}

/// A test of a variable's size that tells whether it is empty (`a.size >
/// 0`, `a.length == 0`, `a.size == 2`, `a.count.positive?`,
/// `a.size.zero?`): the variable, the count asked of it, and whether it
/// has elements when the test is true (else when it is false).
fn size_test<'pr>(call: &ruby_prism::CallNode<'pr>) -> Option<(Node<'pr>, &'static str, bool)> {
    let size_of = |node: &Node<'pr>| -> Option<(Node<'pr>, &'static str)> {
        let size = node.as_call_node()?;
        let plain = size.arguments().is_none() && size.block().is_none() && !size.is_safe_navigation();
        let counted = match size.name().as_slice() {
            b"size" => "size",
            b"length" => "length",
            b"count" => "count",
            _ => return None,
        };
        let array = size.receiver()?;
        (plain && holds_an_array(&array)).then_some((array, counted))
    };
    let receiver = call.receiver()?;
    let method = call.name();
    let arguments: Vec<Node<'pr>> = call.arguments().map(|a| a.arguments().iter().collect()).unwrap_or_default();
    if call.block().is_some() || call.is_safe_navigation() {
        return None;
    }
    match (method.as_slice(), arguments.as_slice()) {
        (b"zero?", []) => size_of(&receiver).map(|(array, counted)| (array, counted, false)),
        (b"positive?" | b"nonzero?", []) => size_of(&receiver).map(|(array, counted)| (array, counted, true)),
        (operator, [bound]) => {
            let bound: i32 = bound.as_integer_node()?.value().try_into().ok()?;
            let nonempty_when = match operator {
                b">" if bound >= 0 => true,
                b">=" | b"==" if bound >= 1 => true,
                b"!=" if bound == 0 => true,
                b"==" | b"<=" if bound == 0 => false,
                b"<" if bound == 1 => false,
                _ => return None,
            };
            size_of(&receiver).map(|(array, counted)| (array, counted, nonempty_when))
        }
        _ => None,
    }
}

/// Picks of an Array or a Hash that give nil (or a pair of nils) only
/// when it has no element: `words.max_by(&:size)`, `a.minmax`,
/// `counts.first`. Asked of the receiver as it was before a block ran: a
/// block that empties it still leaves the element it was given first.
const FILLED_PICKS: &[&str] = &["max_by", "min_by", "minmax", "minmax_by", "first"];

/// The array read as `text` has elements, of `element`: its element reads
/// and takes give one, and it counts as filled.
fn note_elements(flow: &mut super::flow::Flow, text: &str, element: Type) {
    for read in ELEMENT_READS.iter().chain(ELEMENT_TAKES) {
        flow.reads.insert(format!("{text}.{read}"), element.clone());
    }
    flow.reads.insert(filled_key(text), element);
}

/// The key under which an emptiness test notes that `text` has elements.
fn filled_key(text: &str) -> String {
    format!("{text}.<filled>")
}

/// An Array's reads that give nil only when it is empty.
const ELEMENT_READS: &[&str] = &["first", "last", "min", "max", "sample"];

/// An Array's calls that take out an element, nil only when it is empty:
/// the first one after an emptiness test gives one (a work queue's
/// `until q.empty?; q.shift`), and leaves the array maybe empty.
const ELEMENT_TAKES: &[&str] = &["shift", "pop"];

/// Is this the key of an element take (`queue.shift`)?
pub(super) fn is_element_take(key: &str) -> bool {
    ELEMENT_TAKES.iter().any(|take| key.strip_suffix(take).is_some_and(|rest| rest.ends_with('.')))
}

/// What an attribute read looks like: a plain name called on a local or
/// an instance variable, without arguments, block or `&.`.
fn reader_shape(node: &Node<'_>) -> bool {
    let Some(call) = node.as_call_node() else { return false };
    let method = call.name();
    let method = method.as_slice();
    let plain_name = method.first().is_some_and(|c| c.is_ascii_lowercase() || *c == b'_')
        && method.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_');
    plain_name
        && call.arguments().is_none()
        && call.block().is_none()
        && !call.is_safe_navigation()
        && call.receiver().is_some_and(|receiver| {
            matches!(receiver, Node::LocalVariableReadNode { .. } | Node::InstanceVariableReadNode { .. })
        })
}

/// A read that gives the same value until other code runs: `[]` with
/// literal or local keys on a constant, a local or an instance variable
/// (`ENV["HOME"]`, `opts[:key]`, `@table[name]`). Its source text is the key
/// a guard's narrowing is kept under (see `Flow::reads`).
pub fn stable_read(node: &Node<'_>) -> Option<String> {
    let call = node.as_call_node()?;
    if call.name().as_slice() != b"[]" || call.block().is_some() || call.is_safe_navigation() {
        return None;
    }
    let receiver = call.receiver()?;
    let arguments: Vec<Node<'_>> = call.arguments()?.arguments().iter().collect();
    stable_operands(&receiver, &arguments).then(|| crate::syntax::text(&node.location()))
}

/// A receiver and keys a stable read may have: a constant, a local or an
/// instance variable; one or two literal or local keys.
fn stable_operands(receiver: &Node<'_>, arguments: &[Node<'_>]) -> bool {
    let stable_receiver = match receiver {
        Node::ConstantReadNode { .. } | Node::LocalVariableReadNode { .. } | Node::InstanceVariableReadNode { .. } => {
            true
        }
        Node::ConstantPathNode { .. } => crate::syntax::constant_path_text(receiver).is_some(),
        _ => false,
    };
    let stable_key = |argument: &Node<'_>| {
        matches!(
            argument,
            Node::SymbolNode { .. }
                | Node::IntegerNode { .. }
                | Node::LocalVariableReadNode { .. }
                | Node::StringNode { .. }
        )
    };
    stable_receiver && !arguments.is_empty() && arguments.len() <= 2 && arguments.iter().all(stable_key)
}

/// `h[k]`'s text, as `stable_read` keys it, when `h.key?(k)` is a guard
/// on it.
fn read_text(receiver: &Node<'_>, key: &Node<'_>) -> Option<String> {
    if !stable_operands(receiver, std::slice::from_ref(key)) {
        return None;
    }
    let text = |n: &Node<'_>| crate::syntax::text(&n.location());
    Some(format!("{}[{}]", text(receiver), text(key)))
}

/// Classes whose methods touch nothing but their receiver: a call on one
/// (without a block) cannot change what a hash or `ENV` holds.
pub(super) const INERT: &[&str] = &[
    "String",
    "Symbol",
    "Integer",
    "Float",
    "Rational",
    "Complex",
    "NilClass",
    "TrueClass",
    "FalseClass",
    "Regexp",
    "MatchData",
];

/// Kernel functions that, given only core values, run no code of the
/// program: printing (while `$stdout` is Ruby's own; see
/// `index::OUTPUT_FUNCTIONS`) and conversions. (`warn` calls
/// `Warning.warn`, which programs replace.)
const QUIET_FUNCTIONS: &[&str] = &[
    "puts", "print", "p", "pp", "warn", "printf", "format", "sprintf", "Integer", "Float", "String", "Rational",
    "Complex",
];

/// Is `method`, called on `self` with `args`, one of [`QUIET_FUNCTIONS`]
/// given only values of the [`INERT`] classes?
pub fn quiet_function(method: &str, args: &[super::calls::Arg]) -> bool {
    QUIET_FUNCTIONS.contains(&method)
        && args.iter().all(|arg| match arg {
            super::calls::Arg::Value(ty) => ty.members().iter().all(|member| {
                !member.has_unknown() && Inferrer::class_of(member).is_some_and(|class| INERT.contains(&&*class))
            }),
            _ => false,
        })
}

/// Does evaluating this node (not itself a stable read) run code that may
/// change a stable read, or write a variable its text may name? Reads,
/// literals, the nodes that only combine others (whose parts are judged on
/// their own) and a core value's own methods (`ENV["X"].empty?`) do not.
pub fn disturbs_reads(node: &Node<'_>, receiver_type: Option<&Type>) -> bool {
    match node {
        Node::CallNode { .. } => {
            let Some(call) = node.as_call_node() else { return true };
            let method = crate::syntax::name_text(call.name());
            let inert_class = |member: &Type| Inferrer::class_of(member).is_some_and(|class| INERT.contains(&&*class));
            // An Array or Hash of such values, asked (not changed): its
            // elements run no code either (`bt.join("\n")`); nor does a
            // Range of them (`r.end`).
            let inert_container = |member: &Type| match member {
                Type::Nominal { class, args } if matches!(&**class, "Array" | "Hash" | "Range") && !args.is_empty() => {
                    args.iter().all(|arg| arg.members().iter().all(inert_class))
                        && !super::calls::mutates_receiver(&method)
                }
                _ => false,
            };
            let inert = call.block().is_none()
                && receiver_type
                    .is_some_and(|ty| ty.members().iter().all(|member| inert_class(member) || inert_container(member)));
            !inert
        }
        Node::SuperNode { .. } | Node::ForwardingSuperNode { .. } | Node::YieldNode { .. } => true,
        Node::CallOperatorWriteNode { .. }
        | Node::CallAndWriteNode { .. }
        | Node::CallOrWriteNode { .. }
        | Node::IndexOperatorWriteNode { .. }
        | Node::IndexAndWriteNode { .. }
        | Node::IndexOrWriteNode { .. }
        | Node::MultiWriteNode { .. }
        | Node::LocalVariableWriteNode { .. }
        | Node::LocalVariableOperatorWriteNode { .. }
        | Node::LocalVariableOrWriteNode { .. }
        | Node::LocalVariableAndWriteNode { .. }
        | Node::InstanceVariableWriteNode { .. }
        | Node::InstanceVariableOperatorWriteNode { .. }
        | Node::InstanceVariableOrWriteNode { .. }
        | Node::InstanceVariableAndWriteNode { .. }
        | Node::ConstantWriteNode { .. }
        | Node::ConstantPathWriteNode { .. }
        | Node::GlobalVariableWriteNode { .. }
        | Node::ClassVariableWriteNode { .. }
        | Node::MatchWriteNode { .. } => true,
        _ => false,
    }
}

/// A value whose methods the core answers with no project code: one of
/// the inert classes, or an Array or Hash of them.
fn inert_value(ty: &Type) -> bool {
    match ty {
        Type::Nominal { class, args } if matches!(&**class, "Array" | "Hash") => {
            args.iter().all(|arg| arg.members().iter().all(inert_value))
        }
        other => Inferrer::class_of(other).is_some_and(|class| INERT.contains(&&*class)),
    }
}

/// The one statement inside `( ... )`.
fn single_statement<'pr>(node: &Node<'pr>) -> Option<Node<'pr>> {
    let body = node.as_parentheses_node()?.body()?;
    let statements = body.as_statements_node()?;
    if statements.body().len() != 1 {
        return None;
    }
    statements.body().iter().next()
}

fn narrow_local(state: &mut State, local: &str, narrow: impl Fn(&Type) -> Type) {
    let Some(flow) = state.as_mut() else { return };
    if flow.volatile.contains(local) {
        return;
    }
    let current = flow.local(local);
    let narrowed = narrow(&current);
    if narrowed == Type::Bot {
        *state = None;
    } else {
        flow.narrow(local, narrowed);
    }
}
