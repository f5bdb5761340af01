//! Flow state: what is known about locals and instance variables at one
//! point of a method body. `None` (see [`State`]) means the point is
//! unreachable.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::types::{join, Type};

#[derive(Debug, Clone, PartialEq)]
pub struct Flow {
    pub locals: Shared<HashMap<String, Type>>,
    /// Instance variables assigned in this method and not since disturbed.
    pub ivars: Shared<HashMap<String, Type>>,
    /// Instance variables this method surely assigned on the way here:
    /// calls may change what they hold, but they are set.
    pub ivars_set: Shared<HashSet<String>>,
    /// Locals a block that may run later can reassign: reads are unknown.
    pub volatile: Shared<HashSet<String>>,
    /// Stable reads (`ENV["X"]`, `opts[:k]`; see `narrow::stable_read`) a
    /// guard narrowed, by source text, until code that may change them runs.
    pub reads: Shared<HashMap<String, Type>>,
    /// What a local's truthiness says of another's nil-ness, learnt where
    /// paths meet (`list` assigned only under `if env`: `env && list.size`).
    implied: Shared<Vec<Implication>>,
}

impl Default for Flow {
    /// An empty flow shares its empty tables with every other on the
    /// thread: a walk starts one for every method, class body and
    /// constant, most of its tables stay empty, and a table is copied
    /// when first written anyway. (Six allocations each, before.)
    fn default() -> Flow {
        thread_local! {
            static EMPTY: Flow = Flow {
                locals: Shared::default(),
                ivars: Shared::default(),
                ivars_set: Shared::default(),
                volatile: Shared::default(),
                reads: Shared::default(),
                implied: Shared::default(),
            };
        }
        EMPTY.with(Flow::clone)
    }
}

/// While `local` has not been written since: when `guard` is truthy
/// (`when_truthy`) or falsy, `local` is not nil.
#[derive(Debug, Clone, PartialEq)]
struct Implication {
    guard: String,
    when_truthy: bool,
    local: String,
}

fn surely_truthy(ty: &Type) -> bool {
    *ty != Type::Bot && !ty.may_be_falsy()
}

fn surely_falsy(ty: &Type) -> bool {
    *ty != Type::Bot && !ty.may_be_truthy()
}

/// A table copied only when written: the walk copies a flow at every
/// branch, and most copies are read, joined or dropped unchanged.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Shared<T>(std::rc::Rc<T>);

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> Shared<T> {
    /// The same table, not merely an equal one.
    pub fn same(&self, other: &Shared<T>) -> bool {
        std::rc::Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<A, T: FromIterator<A>> FromIterator<A> for Shared<T> {
    fn from_iter<I: IntoIterator<Item = A>>(items: I) -> Self {
        Shared(std::rc::Rc::new(items.into_iter().collect()))
    }
}

impl<'a, T> IntoIterator for &'a Shared<T>
where
    &'a T: IntoIterator,
{
    type Item = <&'a T as IntoIterator>::Item;
    type IntoIter = <&'a T as IntoIterator>::IntoIter;
    fn into_iter(self) -> Self::IntoIter {
        self.0.as_ref().into_iter()
    }
}

/// A table that can say it is empty and be emptied.
pub trait Table {
    fn is_empty(&self) -> bool;
    fn clear(&mut self);
}

impl<K, V> Table for HashMap<K, V> {
    fn is_empty(&self) -> bool {
        HashMap::is_empty(self)
    }
    fn clear(&mut self) {
        HashMap::clear(self)
    }
}

impl<K> Table for HashSet<K> {
    fn is_empty(&self) -> bool {
        HashSet::is_empty(self)
    }
    fn clear(&mut self) {
        HashSet::clear(self)
    }
}

impl<T: Clone + Table> Shared<T> {
    /// Empties the table, copying nothing when it is empty already (a
    /// write through `DerefMut` copies a shared table first, even one that
    /// changes nothing): most calls clear the ivar facts of a flow that
    /// has none.
    pub fn clear(&mut self) {
        if !Table::is_empty(&*self.0) {
            Table::clear(std::rc::Rc::make_mut(&mut self.0));
        }
    }
}

impl<K: Clone + Eq + std::hash::Hash, V: Clone> Shared<HashMap<K, V>> {
    /// Removes `key`, copying nothing when it is not there (see [`Shared::clear`]).
    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: std::borrow::Borrow<Q>,
        Q: std::hash::Hash + Eq + ?Sized,
    {
        if !self.0.contains_key(key) {
            return None;
        }
        std::rc::Rc::make_mut(&mut self.0).remove(key)
    }
}

impl<K: Clone + Eq + std::hash::Hash> Shared<HashSet<K>> {
    /// Removes `key`, copying nothing when it is not there (see [`Shared::clear`]).
    pub fn remove<Q>(&mut self, key: &Q) -> bool
    where
        K: std::borrow::Borrow<Q>,
        Q: std::hash::Hash + Eq + ?Sized,
    {
        self.0.contains(key) && std::rc::Rc::make_mut(&mut self.0).remove(key)
    }
}

impl<T: Clone> std::ops::DerefMut for Shared<T> {
    fn deref_mut(&mut self) -> &mut T {
        std::rc::Rc::make_mut(&mut self.0)
    }
}

/// The flow at a program point; `None` when no path reaches it.
pub type State = Option<Flow>;

impl Flow {
    /// The flow where a body left at any point rejoins (an exception to
    /// its `rescue`, a `throw` to its `catch`), from this one at its
    /// start: each local as it was then or after any write `log` lists,
    /// what it holds maybe mutated, and no ivar fact.
    pub fn left_anywhere(mut self, log: &[(String, Type)]) -> Flow {
        self.ivars.clear();
        self.forget_implied();
        for ty in self.locals.values_mut() {
            *ty = ty.forget_mutable();
        }
        for (local, ty) in log {
            let before = self.locals.get(local).cloned().unwrap_or_else(Type::nil);
            self.locals.insert(local.clone(), join(&before, &ty.settle_elements()));
        }
        self
    }

    pub fn local(&self, name: &str) -> Type {
        if self.volatile.contains(name) {
            return Type::untyped();
        }
        // A local the walk never saw bound is one it does not understand.
        self.locals.get(name).cloned().unwrap_or_else(Type::untyped)
    }

    /// A write of `name`: what was implied of it, or by it, no longer is.
    pub fn bind(&mut self, name: &str, ty: Type) {
        self.locals.insert(name.to_string(), ty);
        if self.implied.iter().any(|i| i.guard == name || i.local == name) {
            self.implied.retain(|i| i.guard != name && i.local != name);
        }
    }

    /// `name` narrowed (no write): when it is now surely truthy or surely
    /// falsy, the locals that implies are not nil either.
    pub fn narrow(&mut self, name: &str, ty: Type) {
        let truthiness = if surely_truthy(&ty) {
            Some(true)
        } else if surely_falsy(&ty) {
            Some(false)
        } else {
            None
        };
        self.locals.insert(name.to_string(), ty);
        let Some(truthy) = truthiness else { return };
        let implied: Vec<String> = self
            .implied
            .iter()
            .filter(|i| i.guard == name && i.when_truthy == truthy)
            .map(|i| i.local.clone())
            .collect();
        for local in implied {
            if self.volatile.contains(&local) {
                continue;
            }
            if let Some(current) = self.locals.get(&local).cloned() {
                let narrowed = current.without_nil();
                if narrowed != Type::Bot && narrowed != current {
                    self.locals.insert(local, narrowed);
                }
            }
        }
    }

    /// Locals were rewritten wholesale (a block's or a rescue's view of
    /// them): nothing implied stands.
    pub fn forget_implied(&mut self) {
        if !self.implied.is_empty() {
            self.implied.clear();
        }
    }

    /// `local` was assigned: the reads whose text names it (`local.first`,
    /// `h[local]`) may give something else now.
    pub fn forget_reads_naming(&mut self, local: &str) {
        if self.reads.keys().any(|read| names_local(read, local)) {
            self.reads.retain(|read, _| !names_local(read, local));
        }
    }

    /// Code ran that may change what stable reads give.
    pub fn forget_reads(&mut self) {
        if !self.reads.is_empty() {
            self.reads.clear();
        }
    }
}

/// Where two paths meet. A local bound on one path only is `nil` on the
/// other (Ruby hoists locals); instance-variable knowledge must hold on both.
pub fn join_flows(a: &Flow, b: &Flow) -> Flow {
    // Tables both paths share unchanged join to themselves.
    if a.locals.same(&b.locals)
        && a.ivars.same(&b.ivars)
        && a.ivars_set.same(&b.ivars_set)
        && a.volatile.same(&b.volatile)
        && a.reads.same(&b.reads)
        && a.implied.same(&b.implied)
    {
        return a.clone();
    }
    let mut locals = HashMap::with_capacity_and_hasher(a.locals.len().max(b.locals.len()), Default::default());
    for (name, ty) in &a.locals {
        let other = b.locals.get(name).cloned().unwrap_or_else(Type::nil);
        locals.insert(name.clone(), join(ty, &other));
    }
    for (name, ty) in &b.locals {
        if !a.locals.contains_key(name) {
            locals.insert(name.clone(), join(ty, &Type::nil()));
        }
    }
    let ivars = a
        .ivars
        .iter()
        .filter_map(|(name, ty)| b.ivars.get(name).map(|other| (name.clone(), join(ty, other))))
        .collect();
    let volatile = a.volatile.union(&b.volatile).cloned().collect();
    let ivars_set = a.ivars_set.intersection(&b.ivars_set).cloned().collect();
    let reads = a
        .reads
        .iter()
        .filter_map(|(text, ty)| b.reads.get(text).map(|other| (text.clone(), join(ty, other))))
        .collect();
    let implied = join_implied(a, b);
    Flow { locals: Shared(std::rc::Rc::new(locals)), ivars, ivars_set, volatile, reads, implied }
}

/// What stays implied where two paths meet: what holds on both (a path
/// where the guard has the other truthiness, or the local is no nil, holds
/// it too), and what a local whose truthiness tells the paths apart says
/// of the others (`env` truthy on the path that set `list`, nil on the
/// one that did not).
fn join_implied(a: &Flow, b: &Flow) -> Shared<Vec<Implication>> {
    let bound = |flow: &Flow, local: &str| flow.locals.get(local).cloned().unwrap_or_else(Type::nil);
    let holds = |flow: &Flow, fact: &Implication| {
        flow.implied.contains(fact)
            || (!flow.volatile.contains(&fact.local) && !bound(flow, &fact.local).may_be_nil())
            || {
                let guard = bound(flow, &fact.guard);
                if fact.when_truthy {
                    surely_falsy(&guard)
                } else {
                    surely_truthy(&guard)
                }
            }
    };
    let mut out: Vec<Implication> = Vec::new();
    for fact in a.implied.iter().chain(b.implied.iter()) {
        if !out.contains(fact) && holds(a, fact) && holds(b, fact) {
            out.push(fact.clone());
        }
    }
    // A guard surely truthy on one path and surely falsy on the other.
    let guards = a.locals.iter().filter(|(name, _)| !a.volatile.contains(*name) && !b.volatile.contains(*name));
    for (guard, in_a) in guards {
        let Some(in_b) = b.locals.get(guard) else { continue };
        let truthy_in_a = if surely_truthy(in_a) && surely_falsy(in_b) {
            true
        } else if surely_falsy(in_a) && surely_truthy(in_b) {
            false
        } else {
            continue;
        };
        let (truthy_path, other) = if truthy_in_a { (a, b) } else { (b, a) };
        for (local, ty) in truthy_path.locals.iter() {
            if local == guard
                || ty.may_be_nil()
                || truthy_path.volatile.contains(local)
                || other.volatile.contains(local)
            {
                continue;
            }
            if !bound(other, local).may_be_nil() {
                continue;
            }
            let fact = Implication { guard: guard.clone(), when_truthy: true, local: local.clone() };
            if !out.contains(&fact) {
                out.push(fact);
            }
        }
    }
    match (out.is_empty(), a.implied.is_empty(), b.implied.is_empty()) {
        // No table to make (the common case at every join).
        (true, true, _) => a.implied.clone(),
        (true, _, true) => b.implied.clone(),
        _ => Shared(std::rc::Rc::new(out)),
    }
}

pub fn join_states(a: &State, b: &State) -> State {
    match (a, b) {
        (None, None) => None,
        (Some(a), None) => Some(a.clone()),
        (None, Some(b)) => Some(b.clone()),
        (Some(a), Some(b)) => Some(join_flows(a, b)),
    }
}

pub fn join_all(states: impl IntoIterator<Item = State>) -> State {
    states.into_iter().fold(None, |acc, s| join_states(&acc, &s))
}

/// Does the source text `read` use the local variable `local` (as a whole
/// name, not part of `@local`, `$local`, `x.local` or `local_2`)?
fn names_local(read: &str, local: &str) -> bool {
    let is_name = |c: char| c.is_alphanumeric() || c == '_';
    read.match_indices(local).any(|(at, _)| {
        let before = read[..at].chars().next_back();
        let after = read[at + local.len()..].chars().next();
        !before.is_some_and(|c| is_name(c) || matches!(c, '@' | '$' | '.' | ':'))
            && !after.is_some_and(|c| is_name(c) || matches!(c, '?' | '!'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Emptying an empty table or removing what is not there copies no
    /// shared table; removing what is there does. (Every call that may
    /// write ivars clears them, most often in a flow that has none.)
    #[test]
    fn writes_that_change_nothing_copy_no_shared_table() {
        let a = Flow::default();
        let mut b = a.clone();
        b.ivars.clear();
        b.ivars_set.remove("@x");
        b.locals.remove("x");
        assert!(a.ivars.same(&b.ivars) && a.ivars_set.same(&b.ivars_set) && a.locals.same(&b.locals));
        let mut c = b.clone();
        c.locals.insert("x".into(), Type::nil());
        let mut d = c.clone();
        assert_eq!(d.locals.remove("x"), Some(Type::nil()));
        assert!(!c.locals.same(&d.locals) && c.locals.contains_key("x") && !d.locals.contains_key("x"));
        // Two empty flows share their tables from the start.
        assert!(Flow::default().locals.same(&Flow::default().locals));
    }

    #[test]
    fn a_local_bound_on_one_path_is_nil_on_the_other() {
        let mut a = Flow::default();
        a.bind("x", Type::int(1));
        a.ivars.insert("@a".into(), Type::int(1));
        let b = Flow::default();
        let joined = join_flows(&a, &b);
        assert_eq!(crate::types::display(&joined.local("x")), "1?");
        assert!(joined.ivars.is_empty());
        assert_eq!(joined.local("y"), Type::untyped());
    }

    #[test]
    fn a_read_names_a_local_only_as_a_whole_name() {
        assert!(names_local("a.first", "a"));
        assert!(names_local("h[a]", "a"));
        assert!(!names_local("@a.first", "a"));
        assert!(!names_local("ab.first", "a"));
        assert!(!names_local("x.a", "a"));
        assert!(!names_local("h[:a]", "a"));
        assert!(!names_local("a?", "a"));
    }
}
