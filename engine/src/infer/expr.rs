//! The expression walk: one arm per Prism node kind. Control flow lives in
//! `control`, calls in `calls`, definitions in `methods`.

use ruby_prism::Node;

use super::blocks::BlockPlan;
use super::flow::{Flow, State};
use super::literals::{integer_value, range_type, splat_type, string_type, symbol_type};
use super::{Frame, Inferrer, JumpKind};
use crate::stack_guard::ensure_room;
use crate::syntax::name;
use crate::types::{join, union, Literal, Type};

impl<'pr> Inferrer<'pr, '_> {
    /// Evaluates one expression in `state`, records its type and returns it.
    pub fn expr(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Type {
        ensure_room();
        if state.is_none() {
            return self.dead(node, frame);
        }
        let mut ty = self.expr_inner(node, state, frame);
        if let Some(flow) = state.as_mut() {
            let rows = node.as_local_variable_write_node().and_then(|write| {
                let rows =
                    super::literal_rows::fresh_rows(&write.value(), self.types.get(&super::key_of(&write.value())))?;
                Some((super::literal_rows::rows_key(&crate::syntax::decoded(write.name().as_slice())), rows))
            });
            if !flow.reads.is_empty() {
                // A read a guard narrowed gives what the guard let through.
                match self.stable_read_key(node) {
                    Some(text) => {
                        if let Some(narrowed) = flow.reads.get(&text) {
                            ty = narrowed.clone();
                        }
                        // `q.shift` took the element out: the array may be
                        // empty now.
                        if super::narrow::is_element_take(&text) {
                            flow.forget_reads();
                        }
                    }
                    // `x = ...` changes only the reads that name `x`.
                    None if node.as_local_variable_write_node().is_some() => {
                        let local = node.as_local_variable_write_node().expect("matched").name();
                        flow.forget_reads_naming(&crate::syntax::decoded(local.as_slice()));
                    }
                    None if self.quiet_calls.contains(&super::key_of(node)) => {}
                    None => {
                        let receiver = node.as_call_node().and_then(|c| c.receiver());
                        let receiver_type = receiver.as_ref().and_then(|r| self.types.get(&super::key_of(r)));
                        let asks_exception = receiver_type.is_some_and(|ty| self.asks_exception(node, ty));
                        let disturbs = !asks_exception && super::narrow::disturbs_reads(node, receiver_type);
                        if disturbs || self.runs_code_implicitly(node) {
                            flow.forget_reads();
                        }
                    }
                }
            }
            // `rows = [[1, "a"]]`: the rows as written, kept as reads are.
            if let Some((key, rows)) = rows {
                flow.reads.insert(key, rows);
            }
        }
        if let Some(call) = node.as_call_node() {
            self.note_filled_by_store(&call, state);
        }
        if ty == Type::Bot {
            // Nothing after an expression that never completes runs.
            *state = None;
        }
        self.record(node, &ty);
        ty
    }

    /// Walks code no path reaches. Its nodes get types computed with
    /// nothing known about locals; nothing found there flows anywhere.
    pub fn dead(&mut self, node: &Node<'pr>, frame: &Frame) -> Type {
        let mut scratch: State = Some(Flow::default());
        self.dead += 1;
        let ty = self.expr_inner(node, &mut scratch, frame);
        self.dead -= 1;
        self.record(node, &ty);
        ty
    }

    /// A statement list: the last statement's value, `nil` when empty.
    pub fn statements(
        &mut self,
        statements: Option<ruby_prism::StatementsNode<'pr>>,
        state: &mut State,
        frame: &Frame,
    ) -> Type {
        let Some(statements) = statements else { return Type::nil() };
        let mut last = Type::nil();
        let body: Vec<Node<'pr>> = statements.body().iter().collect();
        for (at, statement) in body.iter().enumerate() {
            if frame.method.as_deref() == Some("initialize") {
                if let Some(narrow) = body.get(at + 1).and_then(|next| super::control::raise_guard(statement, next)) {
                    self.guarded_write = Some((statement.location().start() as usize, narrow));
                }
            }
            last = self.expr(statement, state, frame);
        }
        let ty = if state.is_none() { Type::Bot } else { last };
        self.record(&statements.as_node(), &ty);
        ty
    }

    /// A body that may be a statement list or a single node.
    pub fn body(&mut self, body: Option<Node<'pr>>, state: &mut State, frame: &Frame) -> Type {
        match body {
            None => Type::nil(),
            Some(node) => match node.as_statements_node() {
                Some(statements) => self.statements(Some(statements), state, frame),
                None => self.expr(&node, state, frame),
            },
        }
    }

    pub(super) fn expr_inner(&mut self, node: &Node<'pr>, state: &mut State, frame: &Frame) -> Type {
        match node {
            // Literals.
            Node::IntegerNode { .. } => {
                node.as_integer_node().and_then(|n| integer_value(&n)).map_or(Type::nominal("Integer"), Type::int)
            }
            Node::FloatNode { .. } => node.as_float_node().map_or(Type::nominal("Float"), |f| Type::float(f.value())),
            Node::RationalNode { .. } => Type::nominal("Rational"),
            Node::ImaginaryNode { .. } => {
                if let Some(imaginary) = node.as_imaginary_node() {
                    self.expr(&imaginary.numeric(), state, frame);
                }
                Type::nominal("Complex")
            }
            Node::StringNode { .. } => match node.as_string_node() {
                Some(s) => string_type(s.unescaped(), s.is_forced_binary_encoding(), self.utf8_source),
                None => Type::nominal("String"),
            },
            Node::SymbolNode { .. } => match node.as_symbol_node() {
                Some(s) => symbol_type(s.unescaped(), self.utf8_source),
                None => Type::nominal("Symbol"),
            },
            Node::XStringNode { .. } => Type::nominal("String"),
            Node::NilNode { .. } => Type::nil(),
            Node::TrueNode { .. } => Type::Constant(Literal::True),
            Node::FalseNode { .. } => Type::Constant(Literal::False),
            Node::SelfNode { .. } => frame.self_type.clone(),
            Node::SourceFileNode { .. } => Type::nominal("String"),
            Node::SourceLineNode { .. } => Type::nominal("Integer"),
            Node::SourceEncodingNode { .. } => Type::nominal("Encoding"),
            Node::RegularExpressionNode { .. } => Type::nominal("Regexp"),
            Node::MatchLastLineNode { .. } => union([Type::nominal("Integer"), Type::nil()]),
            Node::InterpolatedStringNode { .. } => {
                let Some(string) = node.as_interpolated_string_node() else { return Type::nominal("String") };
                self.interpolated(string.parts(), state, frame, true)
            }
            Node::InterpolatedXStringNode { .. } => {
                let Some(string) = node.as_interpolated_x_string_node() else { return Type::nominal("String") };
                self.interpolated(string.parts(), state, frame, false);
                Type::nominal("String")
            }
            Node::InterpolatedSymbolNode { .. } => {
                let Some(symbol) = node.as_interpolated_symbol_node() else { return Type::nominal("Symbol") };
                self.interpolated(symbol.parts(), state, frame, false);
                Type::nominal("Symbol")
            }
            Node::InterpolatedRegularExpressionNode { .. } => {
                if let Some(regexp) = node.as_interpolated_regular_expression_node() {
                    self.interpolated(regexp.parts(), state, frame, false);
                }
                Type::nominal("Regexp")
            }
            Node::InterpolatedMatchLastLineNode { .. } => {
                if let Some(regexp) = node.as_interpolated_match_last_line_node() {
                    self.interpolated(regexp.parts(), state, frame, false);
                }
                union([Type::nominal("Integer"), Type::nil()])
            }
            Node::EmbeddedStatementsNode { .. } => {
                let Some(embedded) = node.as_embedded_statements_node() else { return Type::untyped() };
                let value = self.statements(embedded.statements(), state, frame);
                // `"#{o}"` calls `o.to_s`: a project object's (or an unknown
                // one's) may write this object's ivars.
                let own_to_s = value.members().iter().any(|m| m.has_unknown() || self.is_project_object(m));
                if let (true, Some(flow)) = (own_to_s, state.as_mut()) {
                    flow.ivars.clear();
                }
                value
            }
            Node::EmbeddedVariableNode { .. } => {
                let Some(embedded) = node.as_embedded_variable_node() else { return Type::untyped() };
                self.expr(&embedded.variable(), state, frame)
            }
            Node::ArrayNode { .. } => self.array(node, state, frame),
            Node::HashNode { .. } => {
                let Some(hash) = node.as_hash_node() else { return Type::untyped() };
                self.hash(hash.elements(), state, frame)
            }
            Node::KeywordHashNode { .. } => {
                let Some(hash) = node.as_keyword_hash_node() else { return Type::untyped() };
                self.hash(hash.elements(), state, frame)
            }
            Node::RangeNode { .. } => {
                let Some(range) = node.as_range_node() else { return Type::untyped() };
                let left = range.left().map(|l| self.expr(&l, state, frame));
                let right = range.right().map(|r| self.expr(&r, state, frame));
                range_type(left, right)
            }
            Node::ParenthesesNode { .. } => {
                let Some(parens) = node.as_parentheses_node() else { return Type::untyped() };
                self.body(parens.body(), state, frame)
            }
            Node::StatementsNode { .. } => self.statements(node.as_statements_node(), state, frame),
            Node::ImplicitNode { .. } => {
                let Some(implicit) = node.as_implicit_node() else { return Type::untyped() };
                self.expr(&implicit.value(), state, frame)
            }

            // Variables.
            Node::LocalVariableReadNode { .. } => {
                let Some(read) = node.as_local_variable_read_node() else { return Type::untyped() };
                self.read_local(&name(read.name()), node, state)
            }
            Node::ItLocalVariableReadNode { .. } => self.read_local("it", node, state),
            Node::LocalVariableWriteNode { .. } => {
                let Some(write) = node.as_local_variable_write_node() else { return Type::untyped() };
                let value = self.expr(&write.value(), state, frame);
                let shared = self.alias_of(&write.value(), &value, state);
                self.assign_local(&name(write.name()), &shared, state);
                value
            }
            Node::LocalVariableTargetNode { .. } => {
                // Reached only outside an assignment we model: unknown.
                let Some(target) = node.as_local_variable_target_node() else { return Type::untyped() };
                self.assign_local(&name(target.name()), &Type::untyped(), state);
                Type::untyped()
            }
            Node::LocalVariableOperatorWriteNode { .. } => {
                let Some(write) = node.as_local_variable_operator_write_node() else { return Type::untyped() };
                let local = name(write.name());
                let current = state.as_ref().map_or(Type::untyped(), |f| f.local(&local));
                let value = self.expr(&write.value(), state, frame);
                let result = self.invoke(&current, &name(write.binary_operator()), vec![value], state, frame);
                self.assign_local(&local, &result, state);
                result
            }
            Node::LocalVariableOrWriteNode { .. } => {
                let Some(write) = node.as_local_variable_or_write_node() else { return Type::untyped() };
                let local = name(write.name());
                let current = state.as_ref().map_or(Type::untyped(), |f| {
                    if f.locals.contains_key(&local) || f.volatile.contains(&local) {
                        f.local(&local)
                    } else {
                        Type::nil()
                    }
                });
                let result = self.or_write(&current, &write.value(), state, frame);
                self.assign_local(&local, &result, state);
                result
            }
            Node::LocalVariableAndWriteNode { .. } => {
                let Some(write) = node.as_local_variable_and_write_node() else { return Type::untyped() };
                let local = name(write.name());
                let current = state.as_ref().map_or(Type::untyped(), |f| f.local(&local));
                let result = self.and_write(&current, &write.value(), state, frame);
                self.assign_local(&local, &result, state);
                result
            }
            Node::InstanceVariableReadNode { .. } => {
                let Some(read) = node.as_instance_variable_read_node() else { return Type::untyped() };
                let ivar = name(read.name());
                self.read_ivar(&ivar, node, state, frame)
            }
            Node::InstanceVariableWriteNode { .. } => {
                let Some(write) = node.as_instance_variable_write_node() else { return Type::untyped() };
                let value = self.expr(&write.value(), state, frame);
                let shared = self.alias_of(&write.value(), &value, state);
                let guarded = self.guarded_write.take_if(|(at, _)| *at == node.location().start() as usize);
                match guarded {
                    // The field holds what the guard lets through; here,
                    // before the guard, the ivar holds the value as written.
                    Some((_, narrow)) => {
                        self.assign_ivar_noting(&name(write.name()), &shared, &narrow(&shared), state, frame)
                    }
                    None => self.assign_ivar(&name(write.name()), &shared, state, frame),
                }
                value
            }
            Node::InstanceVariableTargetNode { .. } => {
                let Some(target) = node.as_instance_variable_target_node() else { return Type::untyped() };
                self.assign_ivar(&name(target.name()), &Type::untyped(), state, frame);
                Type::untyped()
            }
            Node::InstanceVariableOperatorWriteNode { .. } => {
                let Some(write) = node.as_instance_variable_operator_write_node() else { return Type::untyped() };
                let ivar = name(write.name());
                let current = self.ivar_type(&ivar, state, frame);
                let value = self.expr(&write.value(), state, frame);
                let result = self.invoke(&current, &name(write.binary_operator()), vec![value], state, frame);
                self.assign_ivar(&ivar, &result, state, frame);
                result
            }
            Node::InstanceVariableOrWriteNode { .. } => {
                let Some(write) = node.as_instance_variable_or_write_node() else { return Type::untyped() };
                let ivar = name(write.name());
                let current = self.ivar_type(&ivar, state, frame);
                let result = self.or_write(&current, &write.value(), state, frame);
                self.assign_ivar_via(&ivar, &write.value(), &result, state, frame);
                result
            }
            Node::InstanceVariableAndWriteNode { .. } => {
                let Some(write) = node.as_instance_variable_and_write_node() else { return Type::untyped() };
                let ivar = name(write.name());
                let current = self.ivar_type(&ivar, state, frame);
                let result = self.and_write(&current, &write.value(), state, frame);
                self.assign_ivar_via(&ivar, &write.value(), &result, state, frame);
                result
            }
            Node::ClassVariableReadNode { .. } => Type::untyped(),
            Node::ClassVariableTargetNode { .. } => Type::untyped(),
            Node::ClassVariableWriteNode { .. } => {
                let Some(write) = node.as_class_variable_write_node() else { return Type::untyped() };
                let value = self.expr(&write.value(), state, frame);
                // Any code may reach the object through the variable now.
                self.escape(&write.value(), state);
                value
            }
            Node::ClassVariableOperatorWriteNode { .. } => {
                let Some(write) = node.as_class_variable_operator_write_node() else { return Type::untyped() };
                let value = self.expr(&write.value(), state, frame);
                self.invoke(&Type::untyped(), &name(write.binary_operator()), vec![value], state, frame)
            }
            Node::ClassVariableOrWriteNode { .. } => {
                let Some(write) = node.as_class_variable_or_write_node() else { return Type::untyped() };
                let value = self.expr(&write.value(), state, frame);
                self.escape(&write.value(), state);
                join(&Type::untyped(), &value)
            }
            Node::ClassVariableAndWriteNode { .. } => {
                let Some(write) = node.as_class_variable_and_write_node() else { return Type::untyped() };
                self.expr(&write.value(), state, frame);
                self.escape(&write.value(), state);
                Type::untyped()
            }
            Node::GlobalVariableReadNode { .. } => {
                let Some(read) = node.as_global_variable_read_node() else { return Type::untyped() };
                self.global_type(&name(read.name()))
            }
            Node::GlobalVariableTargetNode { .. } => Type::untyped(),
            Node::GlobalVariableWriteNode { .. } => {
                let Some(write) = node.as_global_variable_write_node() else { return Type::untyped() };
                let value = self.expr(&write.value(), state, frame);
                // Any code may reach the object through the global now.
                self.escape(&write.value(), state);
                value
            }
            Node::GlobalVariableOperatorWriteNode { .. } => {
                let Some(write) = node.as_global_variable_operator_write_node() else { return Type::untyped() };
                let current = self.global_type(&name(write.name()));
                let value = self.expr(&write.value(), state, frame);
                self.invoke(&current, &name(write.binary_operator()), vec![value], state, frame)
            }
            Node::GlobalVariableOrWriteNode { .. } => {
                let Some(write) = node.as_global_variable_or_write_node() else { return Type::untyped() };
                let current = self.global_type(&name(write.name()));
                self.or_write(&current, &write.value(), state, frame)
            }
            Node::GlobalVariableAndWriteNode { .. } => {
                let Some(write) = node.as_global_variable_and_write_node() else { return Type::untyped() };
                let current = self.global_type(&name(write.name()));
                self.and_write(&current, &write.value(), state, frame)
            }
            Node::BackReferenceReadNode { .. } | Node::NumberedReferenceReadNode { .. } => {
                union([Type::nominal("String"), Type::nil()])
            }

            // Constants.
            Node::ConstantReadNode { .. } | Node::ConstantPathNode { .. } => self.constant_read(node, state, frame),
            // Any code may reach the object through the constant now
            // (`LIST = y; LIST << 3` grows `y`), as through a global.
            Node::ConstantWriteNode { .. } => {
                let Some(write) = node.as_constant_write_node() else { return Type::untyped() };
                let value = self.expr(&write.value(), state, frame);
                self.escape(&write.value(), state);
                value
            }
            Node::ConstantPathWriteNode { .. } => {
                let Some(write) = node.as_constant_path_write_node() else { return Type::untyped() };
                self.constant_path_parent(&write.target(), state, frame);
                let value = self.expr(&write.value(), state, frame);
                self.escape(&write.value(), state);
                value
            }
            Node::ConstantOrWriteNode { .. } => {
                let Some(write) = node.as_constant_or_write_node() else { return Type::untyped() };
                let value = self.expr(&write.value(), state, frame);
                join(&Type::untyped(), &value)
            }
            Node::ConstantAndWriteNode { .. } => {
                let Some(write) = node.as_constant_and_write_node() else { return Type::untyped() };
                self.expr(&write.value(), state, frame);
                Type::untyped()
            }
            Node::ConstantOperatorWriteNode { .. } => {
                let Some(write) = node.as_constant_operator_write_node() else { return Type::untyped() };
                self.expr(&write.value(), state, frame);
                Type::untyped()
            }
            Node::ConstantPathOrWriteNode { .. } => {
                let Some(write) = node.as_constant_path_or_write_node() else { return Type::untyped() };
                self.constant_path_parent(&write.target(), state, frame);
                let value = self.expr(&write.value(), state, frame);
                join(&Type::untyped(), &value)
            }
            Node::ConstantPathAndWriteNode { .. } => {
                let Some(write) = node.as_constant_path_and_write_node() else { return Type::untyped() };
                self.constant_path_parent(&write.target(), state, frame);
                self.expr(&write.value(), state, frame);
                Type::untyped()
            }
            Node::ConstantPathOperatorWriteNode { .. } => {
                let Some(write) = node.as_constant_path_operator_write_node() else { return Type::untyped() };
                self.constant_path_parent(&write.target(), state, frame);
                self.expr(&write.value(), state, frame);
                Type::untyped()
            }
            Node::ConstantTargetNode { .. } | Node::ConstantPathTargetNode { .. } => Type::untyped(),
            Node::ShareableConstantNode { .. } => {
                let Some(shareable) = node.as_shareable_constant_node() else { return Type::untyped() };
                self.expr(&shareable.write(), state, frame)
            }

            // Calls.
            Node::CallNode { .. } => match node.as_call_node() {
                Some(call) => self.call(&call, state, frame),
                None => Type::untyped(),
            },
            Node::CallOperatorWriteNode { .. }
            | Node::CallOrWriteNode { .. }
            | Node::CallAndWriteNode { .. }
            | Node::IndexOperatorWriteNode { .. }
            | Node::IndexOrWriteNode { .. }
            | Node::IndexAndWriteNode { .. } => self.call_write(node, state, frame),
            Node::CallTargetNode { .. } | Node::IndexTargetNode { .. } => Type::untyped(),
            Node::SuperNode { .. } | Node::ForwardingSuperNode { .. } => self.super_call(node, state, frame),
            Node::YieldNode { .. } => {
                let mut given = Some(Vec::new());
                if let Some(arguments) = node.as_yield_node().and_then(|y| y.arguments()) {
                    for argument in arguments.arguments().iter() {
                        let ty = self.expr(&argument, state, frame);
                        self.escape(&argument, state);
                        match (&argument, given.as_mut()) {
                            (
                                Node::SplatNode { .. }
                                | Node::KeywordHashNode { .. }
                                | Node::BlockArgumentNode { .. }
                                | Node::ForwardingArgumentsNode { .. },
                                _,
                            ) => given = None,
                            // A fresh array or hash is the block's alone: only
                            // its exact contents are forgotten, not its elements'
                            // types (anything else yielded may be held elsewhere).
                            (Node::ArrayNode { .. } | Node::HashNode { .. }, Some(types)) => {
                                types.push(crate::types::widen_literals(ty))
                            }
                            (_, Some(types)) => types.push(ty),
                            (_, None) => {}
                        }
                    }
                }
                self.note_block_run(given);
                // Past a `yield` a block was given: the method's `&block`
                // holds it (`yield 0; block.call(1)`).
                let kept = self.yields.last().filter(|c| c.block_kept).and_then(|c| c.block.clone());
                if let Some(flow) = state.as_mut() {
                    flow.ivars.clear();
                    if let Some(block) = kept {
                        let given = flow.local(&block).without_nil();
                        flow.bind(&block, given);
                    }
                }
                Type::untyped()
            }
            Node::SplatNode { .. } => {
                let Some(splat) = node.as_splat_node() else { return Type::untyped() };
                match splat.expression() {
                    Some(expression) => {
                        let ty = self.expr(&expression, state, frame);
                        self.escape(&expression, state);
                        splat_type(&ty)
                    }
                    None => Type::untyped(),
                }
            }
            Node::BlockArgumentNode { .. } => {
                let Some(argument) = node.as_block_argument_node() else { return Type::untyped() };
                match argument.expression() {
                    Some(expression) => self.expr(&expression, state, frame),
                    None => Type::untyped(),
                }
            }
            Node::AssocNode { .. } => {
                let Some(assoc) = node.as_assoc_node() else { return Type::untyped() };
                self.expr(&assoc.key(), state, frame);
                self.expr(&assoc.value(), state, frame)
            }
            Node::AssocSplatNode { .. } => {
                let Some(splat) = node.as_assoc_splat_node() else { return Type::untyped() };
                match splat.value() {
                    Some(value) => self.expr(&value, state, frame),
                    None => Type::untyped(),
                }
            }
            Node::ArgumentsNode { .. } => {
                if let Some(arguments) = node.as_arguments_node() {
                    for argument in arguments.arguments().iter() {
                        self.expr(&argument, state, frame);
                    }
                }
                Type::untyped()
            }
            Node::ForwardingArgumentsNode { .. } => Type::untyped(),

            // Jumps.
            Node::ReturnNode { .. } => {
                let Some(ret) = node.as_return_node() else { return Type::Bot };
                let value = self.jump_value(ret.arguments(), state, frame);
                if self.dead == 0 && state.is_some() {
                    if let Some(returns) = self.returns.last_mut() {
                        returns.push(value);
                    }
                }
                *state = None;
                Type::Bot
            }
            Node::BreakNode { .. } => {
                let Some(jump) = node.as_break_node() else { return Type::Bot };
                let value = self.jump_value(jump.arguments(), state, frame);
                self.jump(true, value, state);
                Type::Bot
            }
            Node::NextNode { .. } => {
                let Some(jump) = node.as_next_node() else { return Type::Bot };
                let value = self.jump_value(jump.arguments(), state, frame);
                self.jump(false, value, state);
                Type::Bot
            }
            Node::RedoNode { .. } => {
                // Back to the start of the body: a `next` that gives nothing,
                // whose flow the loop also takes into its body unguarded.
                if let (Some(target), 0, true) = (self.jumps.last_mut(), self.dead, state.is_some()) {
                    target.redone = true;
                }
                self.jump(false, Type::Bot, state);
                Type::Bot
            }
            Node::RetryNode { .. } => {
                if let (Some(flow), Some(retries), 0) = (state.as_ref(), self.retries.last_mut(), self.dead) {
                    retries.push(flow.clone());
                }
                *state = None;
                Type::Bot
            }

            // Control flow.
            Node::IfNode { .. } => self.if_node(node, state, frame),
            Node::UnlessNode { .. } => self.unless_node(node, state, frame),
            Node::AndNode { .. } | Node::OrNode { .. } => self.logical(node, state, frame),
            Node::CaseNode { .. } => self.case_node(node, state, frame),
            Node::CaseMatchNode { .. } => self.case_match_node(node, state, frame),
            Node::WhileNode { .. } | Node::UntilNode { .. } => self.while_node(node, state, frame),
            Node::ForNode { .. } => self.for_node(node, state, frame),
            Node::BeginNode { .. } => self.begin_node(node, state, frame),
            Node::RescueModifierNode { .. } => self.rescue_modifier(node, state, frame),
            Node::FlipFlopNode { .. } => {
                if let Some(flip) = node.as_flip_flop_node() {
                    for side in [flip.left(), flip.right()].into_iter().flatten() {
                        self.expr(&side, state, frame);
                    }
                }
                Type::bool()
            }
            Node::DefinedNode { .. } => {
                let Some(defined) = node.as_defined_node() else { return Type::untyped() };
                // `defined?` does not evaluate its operand; walk a copy for types.
                let mut copy = state.clone();
                self.expr(&defined.value(), &mut copy, frame);
                union([Type::nominal("String"), Type::nil()])
            }
            Node::MatchPredicateNode { .. } => {
                let Some(matching) = node.as_match_predicate_node() else { return Type::untyped() };
                let value = self.expr(&matching.value(), state, frame);
                self.pattern(&matching.pattern(), &value, state, frame);
                Type::bool()
            }
            Node::MatchRequiredNode { .. } => {
                let Some(matching) = node.as_match_required_node() else { return Type::untyped() };
                let value = self.expr(&matching.value(), state, frame);
                self.pattern(&matching.pattern(), &value, state, frame);
                Type::nil()
            }
            Node::MatchWriteNode { .. } => {
                let Some(matching) = node.as_match_write_node() else { return Type::untyped() };
                let ty = self.call(&matching.call(), state, frame);
                self.record(&matching.call().as_node(), &ty);
                for target in matching.targets().iter() {
                    let captured = union([Type::nominal("String"), Type::nil()]);
                    self.assign_target(&target, &captured, state, frame);
                }
                ty
            }
            Node::MultiWriteNode { .. } => {
                let Some(write) = node.as_multi_write_node() else { return Type::untyped() };
                let value = self.expr(&write.value(), state, frame);
                self.escape(&write.value(), state);
                // `a, b = o` asks `o.to_ary`, which may be the project's
                // and write the object's ivars.
                if super::calls::may_be_project_value(&value) {
                    if let Some(flow) = state.as_mut() {
                        flow.ivars.clear();
                    }
                }
                let lefts: Vec<Node<'pr>> = write.lefts().iter().collect();
                let rights: Vec<Node<'pr>> = write.rights().iter().collect();
                self.destructure_into(&value, &lefts, write.rest(), &rights, state, frame);
                value
            }
            Node::MultiTargetNode { .. } => Type::untyped(),

            // Definitions.
            Node::DefNode { .. } => {
                // `def s.size`: that object's methods are its own now.
                if let Some(receiver) = node.as_def_node().and_then(|d| d.receiver()) {
                    self.forget_object(&receiver, state);
                }
                self.def_node(node, frame)
            }
            Node::ClassNode { .. } | Node::ModuleNode { .. } => self.class_node(node, state, frame),
            Node::SingletonClassNode { .. } => self.singleton_class_node(node, state, frame),
            Node::LambdaNode { .. } => self.lambda(node, state, frame),
            Node::BlockNode { .. } => {
                // A block reached on its own (not through its call).
                if let Some(block) = node.as_block_node() {
                    let plan = BlockPlan {
                        yielded: None,
                        self_type: None,
                        self_unknown: true,
                        another_self: false,
                        stored: true,
                        fed_back: Vec::new(),
                        value_dropped: false,
                        thrown_out: false,
                        runs_before_return: false,
                    };
                    self.block(&block, plan, state, frame);
                }
                Type::nominal("Proc")
            }
            Node::AliasMethodNode { .. } => {
                if let Some(alias) = node.as_alias_method_node() {
                    self.expr(&alias.new_name(), state, frame);
                    self.expr(&alias.old_name(), state, frame);
                }
                Type::nil()
            }
            Node::AliasGlobalVariableNode { .. } => {
                if let Some(alias) = node.as_alias_global_variable_node() {
                    self.expr(&alias.new_name(), state, frame);
                    self.expr(&alias.old_name(), state, frame);
                }
                Type::nil()
            }
            Node::UndefNode { .. } => {
                if let Some(undef) = node.as_undef_node() {
                    for method in undef.names().iter() {
                        self.expr(&method, state, frame);
                    }
                }
                Type::nil()
            }
            Node::PreExecutionNode { .. } => {
                if let Some(pre) = node.as_pre_execution_node() {
                    self.statements(pre.statements(), state, frame);
                }
                Type::nil()
            }
            Node::PostExecutionNode { .. } => {
                if let Some(post) = node.as_post_execution_node() {
                    let mut later = state.clone();
                    self.statements(post.statements(), &mut later, frame);
                }
                Type::nil()
            }
            Node::ProgramNode { .. } => Type::untyped(),

            // Parameters and patterns are typed where they are bound.
            _ => {
                let mut visitor = ChildTypes { inferrer: self, state, frame };
                ruby_prism::Visit::visit(&mut visitor, node);
                Type::untyped()
            }
        }
    }

    pub(super) fn jump_value(
        &mut self,
        arguments: Option<ruby_prism::ArgumentsNode<'pr>>,
        state: &mut State,
        frame: &Frame,
    ) -> Type {
        let Some(arguments) = arguments else { return Type::nil() };
        let nodes: Vec<Node<'pr>> = arguments.arguments().iter().collect();
        let mut types = Vec::new();
        for node in &nodes {
            types.push(self.expr(node, state, frame));
        }
        match (nodes.as_slice(), types.as_slice()) {
            ([Node::SplatNode { .. }], [ty]) => ty.clone(),
            ([_], [ty]) => ty.clone(),
            _ => {
                // `return a, *rest`: the splat spreads into the array.
                let mut elements = Vec::new();
                let mut loose = Vec::new();
                for (node, ty) in nodes.iter().zip(types) {
                    match (node, ty) {
                        (Node::SplatNode { .. }, Type::Tuple(inner)) => elements.extend(inner),
                        (Node::SplatNode { .. }, Type::Nominal { class, args })
                            if &*class == "Array" && args.len() == 1 =>
                        {
                            loose.push(args[0].clone())
                        }
                        (Node::SplatNode { .. }, _) => loose.push(Type::untyped()),
                        (_, ty) => elements.push(ty),
                    }
                }
                if loose.is_empty() {
                    Type::Tuple(elements)
                } else {
                    let element =
                        crate::types::union(elements.into_iter().map(crate::types::widen_literals).chain(loose));
                    Type::generic("Array", vec![element])
                }
            }
        }
    }

    /// `break` (out of the loop or the block's call) or `next` (to the
    /// loop's next round or out of the block with a value).
    pub(super) fn jump(&mut self, is_break: bool, value: Type, state: &mut State) {
        let Some(flow) = state.take() else { return };
        if self.dead > 0 {
            return;
        }
        let Some(target) = self.jumps.last_mut() else { return };
        if is_break && target.kind == JumpKind::Lambda {
            // `break` in a lambda returns from it.
            target.nexts.push((value, flow));
        } else if is_break {
            target.breaks.push((value, flow));
        } else {
            target.nexts.push((value, flow));
        }
    }

    pub(super) fn global_type(&self, global: &str) -> Type {
        // The signatures say `IO`, but Ruby takes any object that can
        // `write` (or, for `$stdin`, anything), and tests and CLIs swap in
        // a `StringIO` (Thor's `Shell::Basic#stdout` returned one).
        if REASSIGNABLE_STREAMS.contains(&global) {
            return Type::untyped();
        }
        match self.env.global(global) {
            Some(rtype) => self.rbs_type_plain(rtype),
            None => Type::untyped(),
        }
    }
}

/// Standard streams a program may point at any object.
const REASSIGNABLE_STREAMS: &[&str] = &["$stdout", "$stderr", "$stdin", "$>"];

/// Walks the children of nodes with no value of their own (parameters,
/// patterns), so every expression inside still gets a type.
struct ChildTypes<'i, 'pr, 'a, 's> {
    inferrer: &'i mut Inferrer<'pr, 'a>,
    state: &'s mut State,
    frame: &'s Frame,
}

impl<'pr> ruby_prism::Visit<'pr> for ChildTypes<'_, 'pr, '_, '_> {
    fn visit_branch_node_enter(&mut self, node: Node<'pr>) {
        ensure_room();
        let _ = node;
    }

    fn visit_leaf_node_enter(&mut self, node: Node<'pr>) {
        let _ = node;
    }

    fn visit_optional_parameter_node(&mut self, node: &ruby_prism::OptionalParameterNode<'pr>) {
        self.inferrer.expr(&node.value(), self.state, self.frame);
    }

    fn visit_optional_keyword_parameter_node(&mut self, node: &ruby_prism::OptionalKeywordParameterNode<'pr>) {
        self.inferrer.expr(&node.value(), self.state, self.frame);
    }

    fn visit_pinned_expression_node(&mut self, node: &ruby_prism::PinnedExpressionNode<'pr>) {
        self.inferrer.expr(&node.expression(), self.state, self.frame);
    }

    fn visit_pinned_variable_node(&mut self, node: &ruby_prism::PinnedVariableNode<'pr>) {
        self.inferrer.expr(&node.variable(), self.state, self.frame);
    }

    fn visit_constant_read_node(&mut self, node: &ruby_prism::ConstantReadNode<'pr>) {
        self.inferrer.expr(&node.as_node(), self.state, self.frame);
    }

    fn visit_constant_path_node(&mut self, node: &ruby_prism::ConstantPathNode<'pr>) {
        self.inferrer.expr(&node.as_node(), self.state, self.frame);
    }
}
