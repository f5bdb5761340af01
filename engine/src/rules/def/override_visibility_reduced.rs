use crate::diagnostic::{EvidenceTier, Severity};
use crate::rules::def::visibility::{self, Visibility};
use crate::rules::{Finding, RuleContext, RuleInfo};

pub static RULE: RuleInfo = RuleInfo {
    id: "def.override-visibility-reduced",
    aliases: &["override-visibility-reduced"],
    summary: "A method that overrides a project ancestor's method with narrower visibility (public to private or protected): callers of the parent's contract break.",
    fires_when: &[
        "a class of this file names a superclass of this file (directly or up the chain) that defines the same instance method",
        "the override is private where the ancestor's is public or protected, or protected where it is public; reported at the override's name",
    ],
    does_not_fire_when: &[
        "the ancestor is not defined in this file (its visibility is unknown), or the method is new",
        "the override keeps or widens the visibility",
        "the visibility is changed by a computed call (`send(:private, ...)`)",
    ],
    example: "class A\n  def m = 1\nend\nclass C < A\n  private\n  def m = 2\nend",
    authored: Severity::Warning,
    by_profile: [None, Some(Severity::Warning), Some(Severity::Error)],
    evidence: EvidenceTier::High,
    since: "0.1.0",
    check,
};

fn rank(visibility: Visibility) -> u8 {
    match visibility {
        Visibility::Public => 2,
        Visibility::Protected => 1,
        Visibility::Private => 0,
    }
}

fn check(cx: &RuleContext<'_, '_>, out: &mut Vec<Finding>) {
    let classes = cx.visibilities();
    for (name, class) in classes {
        for (method, defined) in &class.methods {
            // `initialize` and friends are private by nature.
            if matches!(method.as_str(), "initialize" | "initialize_copy" | "respond_to_missing?" | "method_missing") {
                continue;
            }
            let mut parent = class.superclass.clone();
            let mut seen = vec![name.clone()];
            while let Some(written) = parent.take() {
                let Some(found) = resolve(classes, name, &written) else { break };
                if seen.contains(&found) {
                    break;
                }
                seen.push(found.clone());
                let ancestor = &classes[&found];
                if let Some(inherited) = ancestor.methods.get(method) {
                    if rank(defined.visibility) < rank(inherited.visibility) {
                        out.push(Finding::new(
                            &RULE,
                            defined.name_offset,
                            format!(
                                "`{method}` is {} here but {} in {found}, which {name} inherits from",
                                defined.visibility.as_str(),
                                inherited.visibility.as_str()
                            ),
                        ));
                    }
                    break;
                }
                parent = ancestor.superclass.clone();
            }
        }
    }
}

/// A superclass as written, resolved among this file's classes: nested in
/// the subclass's namespaces first, then at the top level.
fn resolve(
    classes: &rustc_hash::FxHashMap<String, visibility::ClassMethods>,
    from: &str,
    written: &str,
) -> Option<String> {
    if let Some(absolute) = written.strip_prefix("::") {
        return classes.contains_key(absolute).then(|| absolute.to_string());
    }
    let mut scope: Vec<&str> = from.split("::").collect();
    scope.pop();
    loop {
        let candidate = if scope.is_empty() { written.to_string() } else { format!("{}::{written}", scope.join("::")) };
        if classes.contains_key(&candidate) {
            return Some(candidate);
        }
        scope.pop()?;
    }
}
