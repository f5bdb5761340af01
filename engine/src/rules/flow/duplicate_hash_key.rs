use rustc_hash::FxHashMap as HashMap;

use ruby_prism::{visit_hash_node, visit_keyword_hash_node, HashNode, KeywordHashNode, Node, NodeList, Visit};

use crate::diagnostic::{EvidenceTier, Severity};
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::stack_guard::ensure_room;
use crate::syntax::{start, LiteralKey, ParsedFile};

pub static RULE: RuleInfo = RuleInfo {
    id: "flow.duplicate-hash-key",
    aliases: &["duplicate-hash-key"],
    summary: "A hash literal names the same literal key twice; the later value silently replaces the earlier one.",
    fires_when: &[
        "one hash literal (or keyword-argument list) contains two keys with the same literal value: symbols, strings, integers (compared by value, so 16 and 0x10 match), nil, true or false",
        "reported at the second occurrence",
    ],
    does_not_fire_when: &[
        "a key is computed (a variable, a method call, an interpolated string)",
        "equal keys appear in different hash literals",
        "keys differ in kind (\"a\" and :a are different keys)",
    ],
    example: "{ a: 1, a: 2 }",
    authored: Severity::Warning,
    by_profile: [Some(Severity::Info), Some(Severity::Warning), Some(Severity::Error)],
    evidence: EvidenceTier::High,
    since: "0.1.0",
    check,
};

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    let file = cx.parsed;
    let mut finder = DuplicateKeys { file, out };
    finder.visit(&file.root());
}

struct DuplicateKeys<'f, 'a> {
    file: &'f ParsedFile<'a>,
    out: &'f mut Vec<Finding>,
}

impl DuplicateKeys<'_, '_> {
    fn check_elements(&mut self, elements: NodeList<'_>) {
        let mut first_seen: HashMap<LiteralKey, usize> = HashMap::default();
        for element in elements.iter() {
            let Some(assoc) = element.as_assoc_node() else { continue };
            let key: Node<'_> = assoc.key();
            let Some(literal) = LiteralKey::of(&key) else { continue };
            let offset = start(&key.location());
            match first_seen.get(&literal) {
                Some(&earlier) => {
                    let (line, _) = self.file.lines().position(earlier);
                    self.out.push(Finding::new(
                        &RULE,
                        offset,
                        format!(
                            "duplicate key {} in hash literal: the value given at line {line} is overwritten",
                            literal.display()
                        ),
                    ));
                }
                None => {
                    first_seen.insert(literal, offset);
                }
            }
        }
    }
}

impl<'pr> Visit<'pr> for DuplicateKeys<'_, '_> {
    fn visit_branch_node_enter(&mut self, _node: Node<'pr>) {
        ensure_room();
    }

    fn visit_hash_node(&mut self, node: &HashNode<'pr>) {
        self.check_elements(node.elements());
        visit_hash_node(self, node);
    }

    fn visit_keyword_hash_node(&mut self, node: &KeywordHashNode<'pr>) {
        self.check_elements(node.elements());
        visit_keyword_hash_node(self, node);
    }
}
