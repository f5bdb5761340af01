use super::site::{guarded_elsewhere, receiver_class, shown, surely_missing, trusted_receiver};
use crate::diagnostic::{EvidenceTier, Severity};
use crate::infer::Callee;
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::syntax::unparenthesize;
use crate::types::Type;
use ruby_prism::Node;

pub static RULE: RuleInfo = RuleInfo {
    id: "call.possible-nil-receiver",
    aliases: &["possible-nil-receiver"],
    summary: "A method called on a value that may be nil, where nil lacks the method: NoMethodError on the nil path.",
    fires_when: &[
        "the receiver's type at the call, after narrowing, is `T | nil`: every other member is one known class that has the method",
        "whatever the nil's source: a signature's optional return (`ENV[\"HOME\"]`, `String#byteslice`, `Array#first`, `String#index`), a literal `nil`, a conditional without `else`, a loop's value, a block parameter with no block given, a local read in `rescue` or `ensure` that the body may have raised before setting (which exception, and so from where, is not followed), an instance variable no write or guard proves set where it is read (`@x` unset until another method runs), a constant whatever guards it (`return unless CONST`: any code, an implicit `to_s` or `each` included, may set it again, and a guard is not followed to it)",
        "NilClass does not have the method (nor does the project or a standard library add it), and the call is not `&.`",
    ],
    does_not_fire_when: &[
        "the call is in a conditional on the Ruby running (`if RUBY_VERSION >= \"1.9\"`, `case RUBY_ENGINE`): each branch is written for some Ruby, maybe not the one the signatures describe",
        "the call is in a branch a literal condition never takes (`if false`, `true ? a : b`, `false && x`), which never runs (flow.unreachable-branch reports the branch)",
        "a guard narrowed nil away before the call: `if x`, `unless x.nil?`, `return/next/break/raise unless x`, `x or raise`, `x || return`, `x && x.m`, `x.nil? ? a : x.m`, `is_a?`/`kind_of?`/`instance_of?`, `case x when String`, `case x in String`, `if (m = re.match(s))`, `x ||= ...`; an emptiness test (`a.empty?`, `a.any?`, `a.size > 0`, `a.length.zero?`) before `a.first`, `a.last`, `a.min`, `a.max` or `a.sample` of an Array variable, until code that may change it runs; or the call is `x&.m`",
        "nil has the method (`to_s`, `inspect`, `nil?`, ...), or some member of the type is untyped or lacks the method too",
        "the nil comes from the last match (`$1`, `$&`, `$~`, `Regexp.last_match(1)`, a group's place such as `$~.offset(1)`, a local copied from them, or a ternary or `case` whose every branch is one of these or cannot be nil), or a `StringScanner`'s (`s.matched`, `s[1]`, `s.pre_match`, `s.post_match`): a match the code checked sets them",
        "the receiver is a reader or other method of `self`, a class variable or a global (whose nil may be only \"before some other method ran\"), or a reader of a class other files reopen or subclass",
        "the file probes the method with `respond_to?` or rescues NoMethodError around the call",
        "the file loads (itself or through the project files it requires) a library outside the project and Ruby's standard library: a gem may add or change methods of any class",
        "the file is loaded after a core extension library (ActiveSupport, a `core_ext` feature) and the method is one such libraries give every object, nil too (`blank?`, `present?`, `presence`, `try`, `in?`, `to_param`, ...)",
    ],
    example: "def m\n  s = String.new\n  p = s.byteslice(0, 2)\n  p.upcase\nend",
    authored: Severity::Error,
    by_profile: [Some(Severity::Warning), Some(Severity::Error), Some(Severity::Error)],
    evidence: EvidenceTier::High,
    since: "0.1.0",
    check,
};

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    if cx.hazards().refines {
        return;
    }
    for call in cx.calls_for_this_ruby() {
        if call.is_safe_navigation() {
            continue;
        }
        let Some(receiver) = call.explicit_receiver() else { continue };
        if !nil_source_is_sure(receiver) {
            continue;
        }
        let Some(ty) = cx.type_of(receiver) else { continue };
        let Type::Union(members) = ty else { continue };
        let others: Vec<&Type> = members.iter().filter(|m| **m != Type::nil()).collect();
        if others.len() == members.len() || others.is_empty() {
            continue;
        }
        // What callers pass for a `nil`-default parameter is unknown, but
        // its `nil` is sure: the caller that passes nothing gets it.
        let defaulted = is_nil_default_parameter(cx, receiver)
            && others.iter().all(|m| matches!(m, Type::Dynamic(_)) || has_method(cx, m, &call.method));
        if !defaulted && !others.iter().all(|member| has_method(cx, member, &call.method)) {
            continue;
        }
        if copies_match_global(cx, receiver)
            || reads_copied_match(cx, receiver)
            || nil_only_from_match(cx, receiver)
            || reads_scanner_match(cx, receiver)
            || reads_another_files_state(cx, receiver)
        {
            continue;
        }
        if !trusted_receiver(cx, receiver, ty)
            || !surely_missing(cx, &Type::nil(), &call.method)
            || guarded_elsewhere(cx, call)
        {
            continue;
        }
        let receiver_type = shown(ty);
        let message = if defaulted {
            format!("`{}` is called on a parameter whose default is nil; nil has no `{}`", call.method, call.method)
        } else {
            format!("`{}` is called on {receiver_type}, which may be nil; nil has no `{}`", call.method, call.method)
        };
        out.push(Finding::new(&RULE, call.anchor, message).on_call(&receiver_type, &call.method));
    }
}

/// Is the receiver a call answered by another file's method (`e.args`), or
/// an attribute reader of a class that other files reopen or subclass?
/// Its `nil` may be only "before the object's initializer ran" in code
/// this file cannot see.
fn reads_another_files_state(cx: &RuleContext<'_, '_>, receiver: &Node<'_>) -> bool {
    let receiver = unparenthesize(crate::syntax::node_clone(receiver));
    let Some(call) = receiver.as_call_node() else { return false };
    let Some(inner) = call.receiver() else { return false };
    let Some(inner_type) = cx.type_of(&inner) else { return false };
    let Some((class, side)) = receiver_class(inner_type) else { return false };
    let method = crate::syntax::name(call.name());
    match cx.inference().lookup(&class, side, &method) {
        Callee::External(_) => true,
        // A reader answers the ivar's type; as for `@x`, only a class no
        // other file reopens or subclasses shows every write to it.
        Callee::Reader(_) => cx.project.is_spread(&class) || cx.project.has_subclasses(&class),
        _ => false,
    }
}

/// Is the method found for this (non-nil) member of the receiver type?
fn has_method(cx: &RuleContext<'_, '_>, member: &Type, method: &str) -> bool {
    let Some((class, side)) = receiver_class(member) else { return false };
    !matches!(cx.inference().lookup(&class, side, method), Callee::Missing { .. })
}

/// Is the receiver's `nil` one this file's code shows? Not for the
/// last-match globals (`$1`, `$&`: a successful match the code relies on
/// sets them), nor for a reader or other method of `self`, a class
/// variable or a global: which of a class's methods run first, and what
/// subclasses and other files store, is not known here. (An ivar's read
/// is typed with what proves it set, so its nil is sure.)
fn nil_source_is_sure(receiver: &Node<'_>) -> bool {
    let receiver = unparenthesize(crate::syntax::node_clone(receiver));
    if is_match_global(&receiver) {
        return false;
    }
    match receiver {
        Node::GlobalVariableReadNode { .. } | Node::ClassVariableReadNode { .. } => false,
        Node::CallNode { .. } => receiver
            .as_call_node()
            .is_some_and(|call| call.receiver().is_some_and(|r| !matches!(r, Node::SelfNode { .. }))),
        _ => true,
    }
}

/// Is the receiver a read of a parameter of its method whose default is
/// `nil` (`def m(x = nil)`, `def m(x: nil)`)?
fn is_nil_default_parameter(cx: &RuleContext<'_, '_>, receiver: &Node<'_>) -> bool {
    let Some(read) = receiver.as_local_variable_read_node() else { return false };
    if read.depth() != 0 {
        return false;
    }
    let local = read.name();
    let offset = receiver.location().start() as usize;
    let scope = enclosing_def(cx.nodes(), offset);
    let Some(def) = cx
        .nodes()
        .iter()
        .filter(|node| matches!(node, Node::DefNode { .. }))
        .find(|node| node.location().start() as usize == scope.start)
        .and_then(|node| node.as_def_node())
    else {
        return false;
    };
    let Some(parameters) = def.parameters() else { return false };
    // Reassigned on every path before the read (a statement of a body
    // that holds the read), it holds what was written, not the default.
    let rewritten = cx.nodes().iter().filter_map(|node| node.as_statements_node()).any(|statements| {
        let span = statements.location();
        scope.contains(&(span.start() as usize))
            && (span.start() as usize..span.end() as usize).contains(&offset)
            && statements.body().iter().any(|statement| {
                (statement.location().end() as usize) <= offset && writes_local(&statement, local.as_slice())
            })
    });
    if rewritten {
        return false;
    }
    let nil_default =
        |named: &[u8], value: Node<'_>| named == local.as_slice() && matches!(value, Node::NilNode { .. });
    parameters
        .optionals()
        .iter()
        .any(|p| p.as_optional_parameter_node().is_some_and(|p| nil_default(p.name().as_slice(), p.value())))
        || parameters.keywords().iter().any(|p| {
            p.as_optional_keyword_parameter_node().is_some_and(|p| nil_default(p.name().as_slice(), p.value()))
        })
}

/// Is the receiver a local whose latest write before the read (in the same
/// method) copies a last-match global (`name = $1`, `a, b = $1, $2`)? Or
/// one some write copies so, every other write before the read giving it
/// what cannot be nil (`x = $1`, then `x = "z"` in an `if` whose `else`
/// reads it)?
fn copies_match_global(cx: &RuleContext<'_, '_>, receiver: &Node<'_>) -> bool {
    let Some(read) = receiver.as_local_variable_read_node() else { return false };
    let local = read.name();
    let local = local.as_slice();
    let offset = receiver.location().start() as usize;
    let scope = enclosing_def(cx.nodes(), offset);
    let mut writes: Vec<&Node<'_>> = cx
        .nodes()
        .iter()
        .filter(|node| {
            scope.contains(&(node.location().start() as usize)) && (node.location().end() as usize) <= offset
        })
        .filter(|node| writes_local(node, local))
        .collect();
    writes.sort_by_key(|node| node.location().start());
    fn value_of<'pr>(write: &Node<'pr>) -> Option<Node<'pr>> {
        match (write.as_local_variable_write_node(), write.as_multi_write_node()) {
            (Some(single), _) => Some(single.value()),
            (_, Some(multi)) => Some(multi.value()),
            _ => None,
        }
    }
    // (A scanner's group read, `name = s[1]`, is such a copy too.)
    let copies = |value: &Node<'_>| is_match_global(value) || reads_scanner_match(cx, value);
    let copying = |write: &Node<'_>| {
        value_of(write).is_some_and(|value| {
            copies(&value) || value.as_array_node().is_some_and(|array| array.elements().iter().any(|e| copies(&e)))
        })
    };
    let Some(latest) = writes.last() else { return false };
    if copying(latest) {
        return true;
    }
    let never_nil = |write: &Node<'_>| {
        write
            .as_local_variable_write_node()
            .is_some_and(|single| cx.type_of(&single.value()).is_some_and(|ty| !ty.may_be_nil() && !ty.is_untyped()))
    };
    writes.iter().any(|w| copying(w)) && writes.iter().all(|w| copying(w) || never_nil(w))
}

/// Is the receiver a group of a local copied from the last match (`m =
/// $~`, then `m[:k]`, `m.begin(1)`), read as the last match's own is?
fn reads_copied_match(cx: &RuleContext<'_, '_>, receiver: &Node<'_>) -> bool {
    let receiver = unparenthesize(crate::syntax::node_clone(receiver));
    let Some(call) = receiver.as_call_node() else { return false };
    matches!(call.name().as_slice(), b"[]" | b"offset" | b"begin" | b"end")
        && call.receiver().is_some_and(|copy| copies_match_global(cx, &copy))
}

/// Is every nil the receiver may give a last match's (`(c ? $1 : "x")`,
/// `case n when 6 then $1 else raise end`)? Each branch's value is one,
/// or cannot be nil.
fn nil_only_from_match(cx: &RuleContext<'_, '_>, receiver: &Node<'_>) -> bool {
    fn value_of<'pr>(statements: Option<ruby_prism::StatementsNode<'pr>>) -> Option<Node<'pr>> {
        statements.and_then(|s| s.body().iter().last())
    }
    // A branch that raises has no value (its type is `bot`).
    let branch = |node: Option<Node<'_>>| match node {
        Some(node) => {
            is_match_global(&node)
                || copies_match_global(cx, &node)
                || nil_only_from_match(cx, &node)
                || cx.type_of(&node).is_some_and(|ty| !ty.may_be_nil())
        }
        None => false,
    };
    let receiver = unparenthesize(crate::syntax::node_clone(receiver));
    match &receiver {
        // `(x = $1).upcase`, `(h[k] = $1).downcase`: the value assigned.
        Node::LocalVariableWriteNode { .. } => {
            receiver.as_local_variable_write_node().is_some_and(|w| branch(Some(w.value())))
        }
        Node::InstanceVariableWriteNode { .. } => {
            receiver.as_instance_variable_write_node().is_some_and(|w| branch(Some(w.value())))
        }
        Node::CallNode { .. } => receiver.as_call_node().is_some_and(|call| {
            call.name().as_slice() == b"[]=" && branch(call.arguments().and_then(|a| a.arguments().iter().last()))
        }),
        Node::IfNode { .. } => receiver.as_if_node().is_some_and(|node| {
            let otherwise = match node.subsequent() {
                Some(Node::ElseNode { .. }) => {
                    node.subsequent().and_then(|e| e.as_else_node()).map(|e| value_of(e.statements()))
                }
                Some(elsif) => Some(Some(elsif)),
                None => None,
            };
            branch(value_of(node.statements())) && otherwise.is_some_and(branch)
        }),
        Node::UnlessNode { .. } => receiver.as_unless_node().is_some_and(|node| {
            let otherwise = node.else_clause().map(|e| value_of(e.statements()));
            branch(value_of(node.statements())) && otherwise.is_some_and(branch)
        }),
        Node::CaseNode { .. } => receiver.as_case_node().is_some_and(|node| {
            let whens = node
                .conditions()
                .iter()
                .all(|when| when.as_when_node().is_some_and(|when| branch(value_of(when.statements()))));
            whens && node.else_clause().is_some_and(|e| branch(value_of(e.statements())))
        }),
        _ => false,
    }
}

/// Is the receiver a `StringScanner`'s last match (`s.matched`, `s[1]`)?
/// Like `$~`, it is nil only when the scan the code just made failed, and
/// code reads it where that scan succeeded (`when s.scan(/<tt>/) then
/// s.matched`), which no narrowing of `s` itself can show.
fn reads_scanner_match(cx: &RuleContext<'_, '_>, receiver: &Node<'_>) -> bool {
    let receiver = unparenthesize(crate::syntax::node_clone(receiver));
    let Some(call) = receiver.as_call_node() else { return false };
    let method = crate::syntax::name(call.name());
    let reads_match = matches!(method.as_str(), "matched" | "pre_match" | "post_match" | "[]");
    // A scanner, or an object of a subclass (`self[2]` in `class Lexer <
    // StringScanner`), whose method of the name is StringScanner's own.
    reads_match
        && call.receiver().is_some_and(|scanner| {
            let Some(class) = cx.type_of(&scanner).and_then(Type::class_name) else { return false };
            class == "StringScanner"
                || matches!(cx.inference().lookup(class, crate::infer::Side::Instance, &method),
                    Callee::Rbs(found) if &*found.owner == "StringScanner")
        })
}

fn writes_local(node: &Node<'_>, local: &[u8]) -> bool {
    match node {
        Node::LocalVariableWriteNode { .. }
        | Node::LocalVariableOrWriteNode { .. }
        | Node::LocalVariableOperatorWriteNode { .. } => crate::syntax::local_name(node) == Some(local),
        _ => node.as_multi_write_node().is_some_and(|multi| {
            multi
                .lefts()
                .iter()
                .any(|t| t.as_local_variable_target_node().is_some_and(|t| t.name().as_slice() == local))
        }),
    }
}

/// What the last successful match set: `$1`, `$&`, `$~[2]`,
/// `Regexp.last_match(1)`, `$~.offset(1)`.
fn is_match_global(node: &Node<'_>) -> bool {
    match node {
        Node::NumberedReferenceReadNode { .. } | Node::BackReferenceReadNode { .. } => true,
        Node::GlobalVariableReadNode { .. } => {
            node.as_global_variable_read_node().is_some_and(|g| g.name().as_slice() == b"$~")
        }
        Node::CallNode { .. } => {
            let Some(call) = node.as_call_node() else { return false };
            let method = call.name();
            match (method.as_slice(), call.receiver()) {
                (b"last_match", Some(receiver)) => crate::syntax::constant_path_text(&receiver)
                    .is_some_and(|written| written.trim_start_matches("::") == "Regexp"),
                // Its groups and their places: `seq_start, seq_stop = $~.offset(1)`.
                (b"[]" | b"offset" | b"begin" | b"end", Some(receiver)) => is_match_global(&receiver),
                // A copy of a group, nil when the group is (highline's
                // `replace = Regexp.last_match(1).dup`).
                (b"dup" | b"clone" | b"itself", Some(receiver)) if call.arguments().is_none() => {
                    is_match_global(&receiver)
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// The byte range of the innermost `def` around an offset, else the file.
fn enclosing_def(nodes: &[Node<'_>], offset: usize) -> std::ops::Range<usize> {
    nodes
        .iter()
        .filter(|node| matches!(node, Node::DefNode { .. }))
        .map(|node| node.location().start() as usize..node.location().end() as usize)
        .filter(|range| range.contains(&offset))
        .min_by_key(|range| range.len())
        .unwrap_or(0..usize::MAX)
}
