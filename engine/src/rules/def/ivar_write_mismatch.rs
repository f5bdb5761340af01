use rustc_hash::FxHashMap as HashMap;

use crate::diagnostic::{EvidenceTier, Severity};
use crate::infer::Side;
use crate::rules::{Finding, RuleContext, RuleInfo};
use crate::types::{display, Type};

pub static RULE: RuleInfo = RuleInfo {
    id: "def.ivar-write-mismatch",
    aliases: &["ivar-write-mismatch"],
    summary: "One instance variable of a class assigned values of two unrelated concrete classes: readers cannot rely on its type.",
    fires_when: &[
        "within one class's methods, an instance variable is first assigned a value of one concrete class and later one of another (reported at the first later write of each other class)",
    ],
    does_not_fire_when: &[
        "a write is nil (resetting is fine), untyped or a union",
        "the classes are both true/false, both numbers (Integer, Float, Rational), one inherits from the other (or the relation is unknown), or both inherit from one project class",
        "the writes belong to different classes, or to the class and its singleton side",
    ],
    example: "class C\n  def a = @n = 0\n  def b = @n = \"x\"\nend",
    authored: Severity::Error,
    by_profile: [Some(Severity::Warning), Some(Severity::Warning), Some(Severity::Error)],
    evidence: EvidenceTier::High,
    since: "0.1.0",
    check,
};

/// (class, side, ivar name).
type IvarKey = (String, Side, Vec<u8>);

/// Classes treated as one for this rule.
fn family(class: &str) -> &str {
    match class {
        "TrueClass" | "FalseClass" => "bool",
        "Integer" | "Float" | "Rational" => "number",
        other => other,
    }
}

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    let inference = cx.inference();
    // (class, side, ivar) -> (class, shown type) of the first typed write.
    let mut first: HashMap<IvarKey, (String, String)> = HashMap::default();
    // The project superclasses of a class, nearest first.
    let parents = |class: &str| {
        let mut out: Vec<String> = Vec::new();
        let mut current = inference.index.class(class).map(|c| c.superclass.clone());
        while let Some(crate::infer::Superclass::Known(parent)) = current {
            if out.len() > 64 || inference.index.class(&parent).is_none() {
                break;
            }
            out.push(parent.to_string());
            current = inference.index.class(&parent).map(|c| c.superclass.clone());
        }
        out
    };
    let related = |a: &str, b: &str| {
        family(a) == family(b)
            || inference.relation(a, b) != crate::infer::Relation::IsNot
            || inference.relation(b, a) != crate::infer::Relation::IsNot
            // Siblings under one project superclass (`StdioInputMethod`,
            // `FileInputMethod`): the ivar holds that superclass.
            || parents(a).iter().any(|p| parents(b).contains(p))
    };
    // Each (ivar, class) is reported once, at its first conflicting write.
    let mut reported: rustc_hash::FxHashSet<(IvarKey, String)> = Default::default();
    for node in cx.nodes() {
        let Some(write) = node.as_instance_variable_write_node() else { continue };
        let Some(ty) = cx.type_of(&write.value()) else { continue };
        let class = match ty {
            Type::Constant(_) | Type::Nominal { .. } | Type::Tuple(_) | Type::Shape(_) | Type::IntRange { .. } => {
                match ty.class_name() {
                    Some("NilClass") | None => continue,
                    Some(class) => class,
                }
            }
            _ => continue,
        };
        let offset = node.location().start() as usize;
        let Some(def) = inference
            .index
            .defs
            .iter()
            .filter(|d| (d.node.location().start() as usize..d.node.location().end() as usize).contains(&offset))
            .min_by_key(|d| d.node.location().end() - d.node.location().start())
        else {
            continue;
        };
        let Some((owner, side)) = &def.owner else { continue };
        let key = (owner.to_string(), *side, write.name().as_slice().to_vec());
        let shown = display(ty);
        match first.get(&key) {
            None => {
                first.insert(key, (class.to_string(), shown));
            }
            Some((earlier, earlier_shown))
                if !related(earlier, class) && reported.insert((key.clone(), class.to_string())) =>
            {
                out.push(Finding::new(
                    &RULE,
                    offset,
                    format!(
                        "{} is assigned {shown} here but {earlier_shown} earlier in {owner}",
                        crate::syntax::decoded(write.name().as_slice())
                    ),
                ));
            }
            Some(_) => {}
        }
    }
}
