//! Branches and loops: `if`/`unless`/`case`, `while`/`until`/`for`,
//! `begin`/`rescue`/`ensure`, and the bounded fixpoint loops and blocks
//! share.

use ruby_prism::Node;

use super::flow::{join_all, join_states, Flow, State};
use super::{Frame, Inferrer, JumpKind, JumpTarget};
use crate::syntax::{copy_statements, name};
use crate::types::{join, union, widen_literals, Type};

/// Rounds of a loop body before literals are widened to their classes,
/// and before whatever still changes becomes `untyped`.
const WIDEN_AFTER: usize = 2;
const GIVE_UP_AFTER: usize = 5;

/// Loops (and blocks, and retried bodies) nested deeper than this are
/// walked once with every local unknown, so nesting cannot multiply the
/// rounds without bound; likewise once a file has spent its budget.
const MAX_NESTED_LOOPS: usize = 6;
pub(super) const LOOP_ROUND_BUDGET: usize = 200_000;

/// What a class's `===` being true says of the value matched.
pub(super) enum CaseEquality {
    /// The core's `Module#===`: it is an instance of the class.
    IsA,
    /// `SystemCallError.===` (every `Errno::X`) compares error numbers:
    /// it is a `SystemCallError`.
    SystemCall,
    /// The class's own `self.===` (or one it inherits): nothing.
    Own,
}

impl<'pr> Inferrer<'pr, '_> {
    pub fn if_node(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Type {
        // The conditions this is an `elsif` of (none for an `if` nested
        // anywhere inside it).
        let mut chain = std::mem::take(&mut self.elsif_chain);
        let Some(branch) = node.as_if_node() else { return Type::untyped() };
        let condition = self.condition(&branch.predicate(), state, frame);
        let mut then_state = condition.truthy;
        let then_type = self.statements(branch.statements(), &mut then_state, frame);
        let mut else_state = condition.falsy;
        chain.push(branch.predicate());
        let else_type = match branch.subsequent() {
            Some(subsequent) => {
                if subsequent.as_if_node().is_some() {
                    self.elsif_chain = chain;
                } else {
                    self.settle_disjunction(&chain, &mut else_state);
                }
                let ty = self.else_like(&subsequent, &mut else_state, frame);
                self.elsif_chain.clear();
                ty
            }
            None => {
                if else_state.is_some() {
                    Type::nil()
                } else {
                    Type::Bot
                }
            }
        };
        *state = join_states(&then_state, &else_state);
        union([then_type, else_type])
    }

    pub fn unless_node(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Type {
        let Some(branch) = node.as_unless_node() else { return Type::untyped() };
        let condition = self.condition(&branch.predicate(), state, frame);
        let mut then_state = condition.falsy;
        let then_type = self.statements(branch.statements(), &mut then_state, frame);
        let mut else_state = condition.truthy;
        let else_type = match branch.else_clause() {
            Some(clause) => self.else_like(&clause.as_node(), &mut else_state, frame),
            None => {
                if else_state.is_some() {
                    Type::nil()
                } else {
                    Type::Bot
                }
            }
        };
        *state = join_states(&then_state, &else_state);
        union([then_type, else_type])
    }

    /// In the `else` of an `if`/`elsif` chain every condition was falsy:
    /// `if !a && !b ... elsif a ... else` runs with `b` truthy, which the
    /// joined flows of the `&&` no longer say. Where one condition is such
    /// a conjunction of negated reads and all of its reads but one are
    /// the whole condition of another, that one is narrowed truthy. Only
    /// for chains of reads that run nothing (see [`pure_condition`]).
    fn settle_disjunction(&self, chain: &[Node<'pr>], state: &mut State) {
        if chain.len() < 2 || state.is_none() || !chain.iter().all(pure_condition) || self.index.core_redefined("!") {
            return;
        }
        let falsy: Vec<String> = chain.iter().filter(|c| is_plain_read(c)).map(read_text).collect();
        for condition in chain {
            let Some(negated) = negated_conjuncts(condition) else { continue };
            let mut open = negated.iter().filter(|read| !falsy.contains(&read_text(read)));
            if let (Some(only), None) = (open.next(), open.next()) {
                self.narrow_node(only, state, Type::truthy_part);
            }
        }
    }

    /// An `else` clause or an `elsif` (an IfNode).
    fn else_like(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Type {
        match node.as_else_node() {
            Some(clause) => {
                let ty = self.statements(clause.statements(), state, frame);
                self.record(node, &ty);
                ty
            }
            None => self.expr(node, state, frame),
        }
    }

    pub fn logical(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Type {
        let branches = self.condition(node, state, frame);
        *state = join_states(&branches.truthy, &branches.falsy);
        branches.ty
    }

    pub fn case_node(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Type {
        let Some(case) = node.as_case_node() else { return Type::untyped() };
        let subject = case.predicate();
        if let Some(subject) = &subject {
            self.expr(subject, state, frame);
        }
        let mut remaining = state.clone();
        let mut exits: Vec<State> = Vec::new();
        let mut values = Vec::new();
        for clause in case.conditions().iter() {
            let Some(when) = clause.as_when_node() else { continue };
            let mut matched: State = None;
            for condition in when.conditions().iter() {
                match &subject {
                    Some(subject) => {
                        let tested = self.expr(&condition, &mut remaining, frame);
                        let (hit, miss) = self.when_narrowing(subject, &condition, &tested, &remaining);
                        matched = join_states(&matched, &hit);
                        remaining = miss;
                    }
                    None => {
                        let branches = self.condition(&condition, &mut remaining, frame);
                        matched = join_states(&matched, &branches.truthy);
                        remaining = branches.falsy;
                    }
                }
            }
            let ty = self.statements(when.statements(), &mut matched, frame);
            self.record(&clause, &ty);
            values.push(ty);
            exits.push(matched);
        }
        match case.else_clause() {
            Some(clause) => {
                let ty = self.else_like(&clause.as_node(), &mut remaining, frame);
                values.push(ty);
            }
            None if remaining.is_some() => values.push(Type::nil()),
            None => {}
        }
        exits.push(remaining);
        *state = join_all(exits);
        union(values)
    }

    /// `when C` against a variable subject: the flows where `C === subject`
    /// held and where it did not.
    fn when_narrowing(
        &self,
        subject: &Node<'pr>,
        condition: &Node<'pr>,
        tested: &Type,
        state: &State,
    ) -> (State, State) {
        let is_variable = matches!(subject, Node::LocalVariableReadNode { .. } | Node::InstanceVariableReadNode { .. });
        let mut hit = state.clone();
        let mut miss = state.clone();
        if !is_variable || matches!(condition, Node::SplatNode { .. }) {
            return (hit, miss);
        }
        match tested {
            Type::Singleton(class) => {
                let equality = self.case_equality(class);
                self.narrow_node(subject, &mut hit, |t| self.case_split(&equality, t, class).0);
                self.narrow_node(subject, &mut miss, |t| self.case_split(&equality, t, class).1);
            }
            Type::Constant(crate::types::Literal::Nil) => {
                self.narrow_node(subject, &mut hit, Type::nil_part);
                self.narrow_node(subject, &mut miss, Type::without_nil);
            }
            _ => {}
        }
        (hit, miss)
    }

    /// What `class === x` (`when`, `in`, `rescue`) being true says of x.
    pub(super) fn case_equality(&self, class: &str) -> CaseEquality {
        match self.lookup(class, super::index::Side::Singleton, "===") {
            super::Callee::Rbs(found) => match &*found.owner {
                "Module" | "Class" | "Kernel" | "BasicObject" => CaseEquality::IsA,
                "SystemCallError" => CaseEquality::SystemCall,
                _ => CaseEquality::Own,
            },
            _ => CaseEquality::Own,
        }
    }

    /// x narrowed where `class === x` held, and where it did not, by what
    /// the class's `===` is (see [`Self::case_equality`]).
    pub(super) fn case_split(&self, equality: &CaseEquality, ty: &Type, class: &str) -> (Type, Type) {
        match equality {
            CaseEquality::IsA => (self.narrow_to_class(ty, class), self.remove_class(ty, class)),
            CaseEquality::SystemCall => (self.narrow_to_class(ty, "SystemCallError"), ty.clone()),
            CaseEquality::Own => (ty.clone(), ty.clone()),
        }
    }

    pub fn case_match_node(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Type {
        let Some(case) = node.as_case_match_node() else { return Type::untyped() };
        let predicate = case.predicate();
        let mut subject = match &predicate {
            Some(subject) => self.expr(subject, state, frame),
            None => Type::untyped(),
        };
        let mut exits = Vec::new();
        let mut values = Vec::new();
        for clause in case.conditions().iter() {
            let Some(arm) = clause.as_in_node() else { continue };
            let pattern = arm.pattern();
            // `in String`, `in nil`: the arm sees the subject narrowed, and
            // later arms see it without what this one took.
            let tested = match &pattern {
                Node::ConstantReadNode { .. } | Node::ConstantPathNode { .. } | Node::NilNode { .. } => {
                    let mut scratch = state.clone();
                    Some(self.expr(&pattern, &mut scratch, frame))
                }
                _ => None,
            };
            let (hit_type, miss_type) = match &tested {
                Some(Type::Singleton(class)) => self.case_split(&self.case_equality(class), &subject, class),
                Some(Type::Constant(crate::types::Literal::Nil)) => (subject.nil_part(), subject.without_nil()),
                _ => (subject.clone(), subject.clone()),
            };
            let (mut matched, missed) = match (&predicate, &tested) {
                (Some(variable), Some(tested)) => self.when_narrowing(variable, &pattern, tested, state),
                _ => (state.clone(), state.clone()),
            };
            self.pattern(&pattern, &hit_type, &mut matched, frame);
            let ty = self.statements(arm.statements(), &mut matched, frame);
            self.record(&clause, &ty);
            values.push(ty);
            exits.push(matched);
            if tested.is_some() {
                *state = missed;
                subject = miss_type;
                if state.is_none() {
                    subject = Type::Bot;
                }
                continue;
            }
            // A pattern may bind before failing: later arms see its locals.
            let mut tried = state.clone();
            self.bind_pattern_locals(&pattern, &mut tried);
            *state = join_states(state, &tried);
        }
        if let Some(clause) = case.else_clause() {
            let mut rest = state.clone();
            let ty = self.else_like(&clause.as_node(), &mut rest, frame);
            values.push(ty);
            exits.push(rest);
        }
        // Without `else`, no match raises NoMatchingPatternError.
        *state = join_all(exits);
        union(values)
    }

    /// Walks a pattern: its expressions get types, its captures bind.
    pub fn pattern(&mut self, pattern: &Node<'pr>, subject: &Type, state: &mut State, frame: &Frame) {
        match pattern {
            Node::LocalVariableTargetNode { .. } => {
                if let Some(target) = pattern.as_local_variable_target_node() {
                    self.assign_local(&name(target.name()), subject, state);
                }
                self.record(pattern, subject);
            }
            Node::CapturePatternNode { .. } => {
                if let Some(capture) = pattern.as_capture_pattern_node() {
                    self.pattern(&capture.value(), subject, state, frame);
                    // `in Even => w`: a class's `===` of its own says
                    // nothing of the class of what it let through.
                    let narrowed = match self.recorded(&capture.value()).cloned() {
                        Some(Type::Singleton(class)) => self.case_split(&self.case_equality(&class), subject, &class).0,
                        _ => Type::untyped(),
                    };
                    let target = capture.target();
                    self.assign_local(&name(target.name()), &narrowed, state);
                    self.record(&target.as_node(), &narrowed);
                }
                self.record(pattern, &Type::untyped());
            }
            Node::IfNode { .. } | Node::UnlessNode { .. } => {
                // `in pattern if guard`
                let (inner, guard) = match (pattern.as_if_node(), pattern.as_unless_node()) {
                    (Some(guarded), _) => (guarded.statements(), guarded.predicate()),
                    (_, Some(guarded)) => (guarded.statements(), guarded.predicate()),
                    _ => return,
                };
                if let Some(statements) = inner {
                    for inner in statements.body().iter() {
                        self.pattern(&inner, subject, state, frame);
                    }
                }
                self.expr(&guard, state, frame);
                self.record(pattern, &Type::untyped());
            }
            _ => {
                self.bind_pattern_locals(pattern, state);
                let mut visitor = PatternValues { inferrer: self, state, frame };
                ruby_prism::Visit::visit(&mut visitor, pattern);
                if self.recorded(pattern).is_none() {
                    self.record(pattern, &Type::untyped());
                }
            }
        }
    }

    /// Every local a pattern can bind, as unknown.
    fn bind_pattern_locals(&mut self, pattern: &Node<'pr>, state: &mut State) {
        let mut names = Vec::new();
        collect_pattern_locals(pattern, &mut names);
        for local in names {
            self.assign_local(&local, &Type::untyped(), state);
        }
    }

    pub fn while_node(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Type {
        let (predicate, statements, until, body_first) = if let Some(w) = node.as_while_node() {
            (w.predicate(), w.statements(), false, w.is_begin_modifier())
        } else if let Some(u) = node.as_until_node() {
            (u.predicate(), u.statements(), true, u.is_begin_modifier())
        } else {
            return Type::untyped();
        };
        let entry = state.clone();
        let mut exit: State = None;
        let mut break_values = Vec::new();
        let mut condition_fails = false;
        // A `redo` enters the body again without the condition: once one
        // ran, the body starts from the head too (its flow joins the head).
        let mut redone = false;
        self.fixpoint(&entry, |this, head| {
            this.jumps.push(JumpTarget { kind: JumpKind::Loop, breaks: Vec::new(), nexts: Vec::new(), redone: false });
            let unguarded = if redone { head.clone() } else { None };
            let mut current = head;
            if body_first {
                this.statements(copy_statements(&statements), &mut current, frame);
            }
            let branches = this.condition(&predicate, &mut current, frame);
            let (run, stop) = if until { (branches.falsy, branches.truthy) } else { (branches.truthy, branches.falsy) };
            let mut run = if body_first { run } else { join_states(&run, &unguarded) };
            if !body_first {
                this.statements(copy_statements(&statements), &mut run, frame);
            }
            let target = this.jumps.pop().expect("pushed above");
            redone |= target.redone;
            let nexts = target.nexts.into_iter().map(|(_, f)| Some(f));
            let end = join_all(std::iter::once(run).chain(nexts));
            condition_fails = stop.is_some();
            exit = join_all(std::iter::once(stop).chain(target.breaks.iter().map(|(_, f)| Some(f.clone()))));
            break_values = target.breaks.into_iter().map(|(t, _)| t).collect::<Vec<_>>();
            end
        });
        *state = exit;
        // A loop whose condition fails ends with nil; a `break` with its value.
        let normal = if condition_fails { Type::nil() } else { Type::Bot };
        union(std::iter::once(normal).chain(break_values))
    }

    pub fn for_node(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Type {
        let Some(for_loop) = node.as_for_node() else { return Type::untyped() };
        let collection = self.expr(&for_loop.collection(), state, frame);
        let element = element_type(&collection);
        let index = for_loop.index();
        let statements = for_loop.statements();
        let entry = state.clone();
        let mut break_flows: Vec<State> = Vec::new();
        let mut break_values = Vec::new();
        let head = self.fixpoint(&entry, |this, head| {
            this.jumps.push(JumpTarget { kind: JumpKind::Loop, breaks: Vec::new(), nexts: Vec::new(), redone: false });
            let mut current = head;
            this.assign_target(&index, &element, &mut current, frame);
            this.statements(copy_statements(&statements), &mut current, frame);
            let target = this.jumps.pop().expect("pushed above");
            let nexts = target.nexts.into_iter().map(|(_, f)| Some(f));
            break_flows = target.breaks.iter().map(|(_, f)| Some(f.clone())).collect();
            break_values = target.breaks.into_iter().map(|(t, _)| t).collect();
            join_all(std::iter::once(current).chain(nexts))
        });
        *state = join_all(std::iter::once(head).chain(break_flows));
        union(std::iter::once(collection).chain(break_values))
    }

    /// Runs `body` from the loop head until the head stops changing:
    /// head = entry joined with wherever the body ends. Literals widen to
    /// their classes after a few rounds; locals still changing after that
    /// become `untyped`. The last round walked is the one recorded.
    pub fn fixpoint(&mut self, entry: &State, mut body: impl FnMut(&mut Self, State) -> State) -> State {
        if self.loop_depth >= MAX_NESTED_LOOPS || self.loop_rounds >= LOOP_ROUND_BUDGET {
            // Deep nesting or a spent budget: one walk where every local is
            // unknown holds for any number of rounds, and costs one walk.
            let mut head = entry.clone();
            if let Some(flow) = head.as_mut() {
                for ty in flow.locals.values_mut() {
                    *ty = Type::untyped();
                }
                flow.ivars.clear();
            }
            self.loop_rounds += 1;
            self.loop_depth += 1;
            let end = body(self, head.clone());
            self.loop_depth -= 1;
            let mut exit = join_states(&head, &end);
            widen_changed(&head, &mut exit, |_| Type::untyped());
            return exit;
        }
        self.loop_depth += 1;
        let head = self.fixpoint_rounds(entry, &mut body);
        self.loop_depth -= 1;
        head
    }

    fn fixpoint_rounds(&mut self, entry: &State, body: &mut impl FnMut(&mut Self, State) -> State) -> State {
        let mut head = entry.clone();
        for round in 0..GIVE_UP_AFTER {
            self.loop_rounds += 1;
            let end = body(self, head.clone());
            let mut next = join_states(entry, &end);
            if round >= WIDEN_AFTER {
                widen_changed(&head, &mut next, widen_literals);
            }
            if next == head {
                return head;
            }
            head = next;
        }
        let end = body(self, head.clone());
        let mut next = join_states(entry, &end);
        widen_changed(&head, &mut next, |_| Type::untyped());
        if next != head {
            body(self, next.clone());
        }
        next
    }

    pub fn begin_node(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Type {
        let Some(begin) = node.as_begin_node() else { return Type::untyped() };
        let rescue = begin.rescue_clause();
        let else_clause = begin.else_clause();
        let ensure = begin.ensure_clause();
        if rescue.is_none() && ensure.is_none() && else_clause.is_none() {
            return self.statements(begin.statements(), state, frame);
        }
        let entry = state.clone();
        let mut value = Type::Bot;
        let mut exits: Vec<State> = Vec::new();
        let mut exceptional: State = None;
        // What leaves the body by `return`, `break` or `next` so far: the
        // `ensure` runs after, and may change what those values hold.
        let returned = self.returns.last().map_or(0, Vec::len);
        let jumped: Vec<(usize, usize)> = self.jumps.iter().map(|j| (j.breaks.len(), j.nexts.len())).collect();
        // `retry` runs the body again with the rescue's flow: a loop.
        self.fixpoint(&entry, |this, start| {
            let mut current = start.clone();
            this.assignment_logs.push(Vec::new());
            this.retries.push(Vec::new());
            let body_type = this.statements(begin.statements(), &mut current, frame);
            let log = this.assignment_logs.pop().unwrap_or_default();
            // An exception can come from anywhere in the body: the rescue
            // sees each local as it was at the start or after any assignment.
            let rescue_entry = start.clone().map(|mut flow| {
                // Writes of literals that open the body cannot raise: they
                // ran before anything else could.
                for (local, ty) in this.opening_literal_writes(&begin) {
                    flow.locals.entry(local).or_insert(ty);
                }
                flow.left_anywhere(&log)
            });
            if let Some(outer) = this.assignment_logs.last_mut() {
                outer.extend(log);
            }
            let (normal_type, normal_state) = match &else_clause {
                Some(clause) => {
                    let ty = this.else_like(&clause.as_node(), &mut current, frame);
                    (ty, current)
                }
                None => (body_type, current),
            };
            value = if normal_state.is_some() { normal_type } else { Type::Bot };
            exits = vec![normal_state];
            let mut clause = rescue.as_ref().and_then(|r| r.as_node().as_rescue_node());
            while let Some(rescue_node) = clause {
                let mut rescued = rescue_entry.clone();
                let exception = this.rescued_exception(&rescue_node, &mut rescued, frame);
                if let Some(reference) = rescue_node.reference() {
                    this.assign_target(&reference, &exception, &mut rescued, frame);
                    this.note_raised_backtrace(&reference, &exception, &mut rescued);
                }
                let ty = this.statements(rescue_node.statements(), &mut rescued, frame);
                this.record(&rescue_node.as_node(), &ty);
                value = union([value.clone(), ty]);
                exits.push(rescued);
                clause = rescue_node.subsequent();
            }
            exceptional = rescue_entry;
            let retry_flows = this.retries.pop().unwrap_or_default();
            join_all(retry_flows.into_iter().map(Some))
        });
        let mut after = join_all(exits);
        if let Some(ensure) = ensure {
            // `ensure` also runs while an exception passes through.
            let mut ensured = join_states(&after, &exceptional);
            let ty = self.statements(ensure.statements(), &mut ensured, frame);
            self.record(&ensure.as_node(), &ty);
            after = if after.is_some() { ensured } else { None };
            // It runs after the value is made (`s = +"a"; s ensure s << "b"`
            // gives "ab"): a value it may reach loses its contents.
            if ensure.statements().is_some_and(|s| may_mutate(&s.as_node())) {
                value = value.forget_contents();
                if let Some(returns) = self.returns.last_mut() {
                    for ty in returns.iter_mut().skip(returned) {
                        *ty = ty.forget_contents();
                    }
                }
                for (target, (breaks, nexts)) in self.jumps.iter_mut().zip(jumped) {
                    for (ty, _) in target.breaks.iter_mut().skip(breaks).chain(target.nexts.iter_mut().skip(nexts)) {
                        *ty = ty.forget_contents();
                    }
                }
            }
        }
        *state = after;
        value
    }

    /// `rescue => e`: an exception that was raised has its backtrace
    /// (Ruby fills it in even for `raise E, msg, nil`), so `e.backtrace`
    /// is an Array until code that may change it runs.
    fn note_raised_backtrace(&self, reference: &Node<'pr>, exception: &Type, state: &mut State) {
        let Some(target) = reference.as_local_variable_target_node() else { return };
        let Some(flow) = state.as_mut() else { return };
        if !exception.members().iter().all(|m| self.backtrace_is_the_cores(m)) {
            return;
        }
        let key = format!("{}.backtrace", name(target.name()));
        flow.reads.insert(key, Type::generic("Array", vec![Type::nominal("String")]));
    }

    /// Is `node` a question the core answers about an exception, running
    /// no project code (`e.message`, `e.class`, with `to_s` the core's):
    /// what guards narrowed stays narrowed past it.
    pub(super) fn asks_exception(&self, node: &Node<'pr>, receiver: &Type) -> bool {
        const QUESTIONS: &[&str] =
            &["message", "full_message", "to_s", "inspect", "class", "cause", "backtrace", "backtrace_locations"];
        let Some(call) = node.as_call_node() else { return false };
        let method = name(call.name());
        if !QUESTIONS.contains(&method.as_str()) || call.block().is_some() || call.arguments().is_some() {
            return false;
        }
        let cores = |class: &str, method: &str| {
            let found = self.lookup(class, super::index::Side::Instance, method);
            matches!(found, super::Callee::Rbs(found) if matches!(&*found.owner, "Exception" | "Kernel" | "Object"))
        };
        receiver.members().iter().all(|member| match member {
            Type::Nominal { class, .. } => {
                self.backtrace_is_the_cores(member)
                    && cores(class, &method)
                    && cores(class, "to_s")
                    && self.defined_nowhere_below(member, &method)
                    && self.defined_nowhere_below(member, "to_s")
            }
            _ => false,
        })
    }

    /// Is `backtrace` of a value of this type Exception's own?
    pub(super) fn backtrace_is_the_cores(&self, ty: &Type) -> bool {
        let Type::Nominal { class, .. } = ty else { return false };
        let found = self.lookup(class, super::index::Side::Instance, "backtrace");
        // The object may be of a subclass with a `backtrace` of its own.
        matches!(found, super::Callee::Rbs(found) if &*found.owner == "Exception")
            && self.defined_nowhere_below(ty, "backtrace")
    }

    /// `x = []`, `y = 0`... at the very start of a `begin` body: locals
    /// bound before any statement that could raise, with their types.
    fn opening_literal_writes(&self, begin: &ruby_prism::BeginNode<'pr>) -> Vec<(String, Type)> {
        let Some(statements) = begin.statements() else { return Vec::new() };
        let mut writes = Vec::new();
        for statement in statements.body().iter() {
            let Some(write) = statement.as_local_variable_write_node() else { break };
            let value = write.value();
            if !cannot_raise(&value) {
                break;
            }
            let Some(ty) = self.recorded(&value).cloned() else { break };
            writes.push((name(write.name()), ty.settle_elements()));
        }
        writes
    }

    /// The exception a `rescue` clause binds.
    fn rescued_exception(&mut self, rescue: &ruby_prism::RescueNode<'pr>, state: &mut State, frame: &Frame) -> Type {
        let exceptions: Vec<Node<'pr>> = rescue.exceptions().iter().collect();
        if exceptions.is_empty() {
            return Type::nominal("StandardError");
        }
        let mut types = Vec::new();
        for exception in &exceptions {
            let ty = self.expr(exception, state, frame);
            types.push(match ty {
                // `rescue` matches with `===`: a class's own takes anything.
                Type::Singleton(class) => match self.case_equality(&class) {
                    CaseEquality::IsA => self.instance_of(&class),
                    CaseEquality::SystemCall => Type::nominal("SystemCallError"),
                    CaseEquality::Own => Type::untyped(),
                },
                _ => Type::untyped(),
            });
        }
        union(types)
    }

    pub fn rescue_modifier(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Type {
        let Some(modifier) = node.as_rescue_modifier_node() else { return Type::untyped() };
        let entry = state.clone();
        self.assignment_logs.push(Vec::new());
        let value = self.expr(&modifier.expression(), state, frame);
        let log = self.assignment_logs.pop().unwrap_or_default();
        let mut rescued = entry;
        if let Some(flow) = rescued.as_mut() {
            flow.ivars.clear();
            flow.forget_implied();
            for ty in flow.locals.values_mut() {
                *ty = ty.forget_mutable();
            }
            for (local, ty) in &log {
                let before = flow.locals.get(local).cloned().unwrap_or_else(Type::nil);
                flow.locals.insert(local.clone(), join(&before, ty));
            }
        }
        if let Some(outer) = self.assignment_logs.last_mut() {
            outer.extend(log);
        }
        let fallback = self.expr(&modifier.rescue_expression(), &mut rescued, frame);
        *state = join_states(state, &rescued);
        union([value, fallback])
    }
}

/// What iterating over a collection yields (`for x in coll`).
pub fn element_type(collection: &Type) -> Type {
    match collection {
        Type::Tuple(elements) if !elements.is_empty() => union(elements.iter().cloned().map(widen_literals)),
        Type::Nominal { class, args } if matches!(&**class, "Array" | "Range" | "Set") && args.len() == 1 => {
            args[0].clone()
        }
        Type::Nominal { class, args } if &**class == "Hash" && args.len() == 2 => Type::Tuple(args.to_vec()),
        _ => Type::untyped(),
    }
}

/// Locals whose type still changed between rounds get `widen`ed.
fn widen_changed(previous: &State, next: &mut State, widen: impl Fn(Type) -> Type) {
    let (Some(previous), Some(next)) = (previous, next.as_mut()) else { return };
    let next_flow: &mut Flow = next;
    for (local, ty) in next_flow.locals.iter_mut() {
        if previous.locals.get(local) != Some(ty) {
            *ty = widen(ty.clone());
        }
    }
    let changed: Vec<String> =
        next_flow.ivars.iter().filter(|(k, v)| previous.ivars.get(*k) != Some(*v)).map(|(k, _)| k.clone()).collect();
    for ivar in changed {
        next_flow.ivars.remove(&ivar);
    }
}

fn collect_pattern_locals(node: &Node<'_>, out: &mut Vec<String>) {
    struct Collector<'o> {
        out: &'o mut Vec<String>,
    }
    impl<'pr> ruby_prism::Visit<'pr> for Collector<'_> {
        fn visit_branch_node_enter(&mut self, _node: Node<'pr>) {
            crate::stack_guard::ensure_room();
        }
        fn visit_local_variable_target_node(&mut self, node: &ruby_prism::LocalVariableTargetNode<'pr>) {
            self.out.push(name(node.name()));
        }
    }
    ruby_prism::Visit::visit(&mut Collector { out }, node);
}

/// Gives types to the expressions inside a pattern (pinned values,
/// constants, literals) and to the pattern nodes themselves.
struct PatternValues<'i, 'pr, 'a, 's> {
    inferrer: &'i mut Inferrer<'pr, 'a>,
    state: &'s mut State,
    frame: &'s Frame,
}

impl<'pr> ruby_prism::Visit<'pr> for PatternValues<'_, 'pr, '_, '_> {
    fn visit_branch_node_enter(&mut self, node: Node<'pr>) {
        crate::stack_guard::ensure_room();
        if self.inferrer.recorded(&node).is_none() {
            self.inferrer.record(&node, &Type::untyped());
        }
    }
    fn visit_leaf_node_enter(&mut self, node: Node<'pr>) {
        match node {
            Node::LocalVariableTargetNode { .. } | Node::ImplicitRestNode { .. } => {}
            _ => {
                let mut copy = self.state.clone();
                self.inferrer.expr(&node, &mut copy, self.frame);
            }
        }
    }
    fn visit_pinned_expression_node(&mut self, node: &ruby_prism::PinnedExpressionNode<'pr>) {
        self.inferrer.expr(&node.expression(), self.state, self.frame);
        self.inferrer.record(&node.as_node(), &Type::untyped());
    }
    fn visit_local_variable_target_node(&mut self, node: &ruby_prism::LocalVariableTargetNode<'pr>) {
        // Bound by `bind_pattern_locals`; what it captures is unknown here.
        self.inferrer.record(&node.as_node(), &Type::untyped());
    }
    fn visit_pinned_variable_node(&mut self, node: &ruby_prism::PinnedVariableNode<'pr>) {
        self.inferrer.expr(&node.variable(), self.state, self.frame);
        self.inferrer.record(&node.as_node(), &Type::untyped());
    }
    fn visit_constant_path_node(&mut self, node: &ruby_prism::ConstantPathNode<'pr>) {
        self.inferrer.expr(&node.as_node(), self.state, self.frame);
    }
    fn visit_range_node(&mut self, node: &ruby_prism::RangeNode<'pr>) {
        self.inferrer.expr(&node.as_node(), self.state, self.frame);
    }
    fn visit_array_node(&mut self, node: &ruby_prism::ArrayNode<'pr>) {
        self.inferrer.expr(&node.as_node(), self.state, self.frame);
    }
}

/// A literal whose evaluation cannot raise: numbers, symbols, nil and
/// booleans, plain strings, and arrays and hashes of those.
fn cannot_raise(node: &Node<'_>) -> bool {
    match node {
        Node::IntegerNode { .. }
        | Node::FloatNode { .. }
        | Node::SymbolNode { .. }
        | Node::NilNode { .. }
        | Node::TrueNode { .. }
        | Node::FalseNode { .. }
        | Node::StringNode { .. } => true,
        Node::ArrayNode { .. } => node.as_array_node().is_some_and(|a| a.elements().iter().all(|e| cannot_raise(&e))),
        Node::HashNode { .. } => node.as_hash_node().is_some_and(|h| {
            h.elements().iter().all(|e| {
                e.as_assoc_node().is_some_and(|assoc| cannot_raise(&assoc.key()) && cannot_raise(&assoc.value()))
            })
        }),
        _ => false,
    }
}

/// What a guard lets through of a value (`Type::truthy_part`, ...).
pub type Narrowing = fn(&Type) -> Type;

/// `@x = v` followed by a guard that raises unless `@x` holds something:
/// `@x || raise(...)`, `@x or raise ...`, `raise ... unless @x`, `raise ...
/// if @x.nil?`. Gives what the guard lets through (in `initialize`, the
/// object exists only if it passed).
pub fn raise_guard(write: &Node<'_>, next: &Node<'_>) -> Option<Narrowing> {
    let ivar = name(write.as_instance_variable_write_node()?.name());
    let reads_it = |n: &Node<'_>| n.as_instance_variable_read_node().is_some_and(|r| name(r.name()) == ivar);
    let raises = |n: &Node<'_>| {
        n.as_call_node().is_some_and(|c| c.receiver().is_none() && matches!(name(c.name()).as_str(), "raise" | "fail"))
    };
    let only = |statements: Option<ruby_prism::StatementsNode<'_>>| {
        let statements = statements?;
        let body: Vec<Node<'_>> = statements.body().iter().collect();
        (body.len() == 1).then(|| raises(&body[0]))
    };
    if let Some(or) = next.as_or_node() {
        return (reads_it(&or.left()) && raises(&or.right())).then_some(Type::truthy_part as Narrowing);
    }
    if let Some(unless) = next.as_unless_node() {
        let raising = unless.else_clause().is_none() && only(unless.statements()) == Some(true);
        return (raising && reads_it(&unless.predicate())).then_some(Type::truthy_part as Narrowing);
    }
    if let Some(guard) = next.as_if_node() {
        let raising = guard.subsequent().is_none() && only(guard.statements()) == Some(true);
        let nil_test = guard.predicate().as_call_node().is_some_and(|c| {
            name(c.name()) == "nil?" && c.arguments().is_none() && c.receiver().is_some_and(|r| reads_it(&r))
        });
        return (raising && nil_test).then_some(Type::without_nil as Narrowing);
    }
    None
}

/// Could running `node` change an object some value holds: does it call
/// anything (a method, an operator or index write, `super`, `yield`)?
fn may_mutate(node: &Node<'_>) -> bool {
    crate::syntax::walk::all_nodes(node).iter().any(|node| {
        matches!(
            node,
            Node::CallNode { .. }
                | Node::CallOperatorWriteNode { .. }
                | Node::CallOrWriteNode { .. }
                | Node::CallAndWriteNode { .. }
                | Node::IndexOperatorWriteNode { .. }
                | Node::IndexOrWriteNode { .. }
                | Node::IndexAndWriteNode { .. }
                | Node::SuperNode { .. }
                | Node::ForwardingSuperNode { .. }
                | Node::YieldNode { .. }
                | Node::InterpolatedStringNode { .. }
                | Node::InterpolatedSymbolNode { .. }
                | Node::InterpolatedXStringNode { .. }
                | Node::XStringNode { .. }
        )
    })
}

/// A local, an instance variable, or a stable read (`m[2]`, `opts[:a]`).
fn is_plain_read(node: &Node<'_>) -> bool {
    matches!(node, Node::LocalVariableReadNode { .. } | Node::InstanceVariableReadNode { .. })
        || super::narrow::stable_read(node).is_some()
}

/// How a read is written, to match the same read elsewhere in a chain.
fn read_text(node: &Node<'_>) -> String {
    crate::syntax::text(&node.location())
}

/// `!a && !b && ...` (parenthesized or not): the negated reads.
fn negated_conjuncts<'pr>(node: &Node<'pr>) -> Option<Vec<Node<'pr>>> {
    crate::stack_guard::ensure_room();
    let node = crate::syntax::unparenthesize(crate::syntax::node_clone(node));
    match &node {
        Node::AndNode { .. } => {
            let and = node.as_and_node()?;
            let mut reads = negated_conjuncts(&and.left())?;
            reads.extend(negated_conjuncts(&and.right())?);
            Some(reads)
        }
        Node::CallNode { .. } => {
            let call = node.as_call_node()?;
            let receiver = call.receiver()?;
            (call.name().as_slice() == b"!" && call.arguments().is_none() && is_plain_read(&receiver))
                .then(|| vec![receiver])
        }
        _ => None,
    }
}

/// A condition that runs no code of the program: reads, `!`, `&&`, `||`.
fn pure_condition(node: &Node<'_>) -> bool {
    crate::stack_guard::ensure_room();
    let node = crate::syntax::unparenthesize(crate::syntax::node_clone(node));
    match &node {
        Node::AndNode { .. } => {
            node.as_and_node().is_some_and(|n| pure_condition(&n.left()) && pure_condition(&n.right()))
        }
        Node::OrNode { .. } => {
            node.as_or_node().is_some_and(|n| pure_condition(&n.left()) && pure_condition(&n.right()))
        }
        Node::CallNode { .. } if !is_plain_read(&node) => node.as_call_node().is_some_and(|call| {
            call.name().as_slice() == b"!"
                && call.arguments().is_none()
                && call.receiver().is_some_and(|r| pure_condition(&r))
        }),
        _ => is_plain_read(&node),
    }
}
