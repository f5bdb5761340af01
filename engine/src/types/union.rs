//! Building unions: flattened, `bot` dropped, `top` absorbing, literals
//! absorbed by their class, deduplicated and sorted by display.

use super::{display_key, Literal, Name, Type};

/// More literal members than this and a union forgets the values.
const MAX_LITERAL_MEMBERS: usize = 12;

/// The union of some types, normalised.
pub fn union(types: impl IntoIterator<Item = Type>) -> Type {
    // One type is its own union: a union type is only ever built here, so
    // it is normalised already, and normalising is idempotent. (Most calls
    // are a value with no `break` values to join.) The types are taken one
    // by one, and none after a `top`, as the loop below takes them: an
    // iterator that infers as it goes must infer no more than it did.
    let mut types = types.into_iter();
    let first = match types.next() {
        None => return Type::Bot,
        Some(Type::Top) => return Type::Top,
        Some(first) => first,
    };
    let Some(second) = types.next() else { return first };
    let mut members = Vec::new();
    for ty in [first, second].into_iter().chain(types) {
        match ty {
            Type::Top => return Type::Top,
            Type::Bot => {}
            Type::Union(inner) => members.extend(inner.iter().cloned()),
            other => members.push(other),
        }
    }
    union_of_members(members)
}

/// The body of [`union`], apart from the loop that takes the members:
/// `union` is generic and called with some twenty kinds of iterator, and
/// each used to carry its own 7 KB copy of all this, crowding the
/// instruction cache on the hottest path of inference.
#[inline(never)]
fn union_of_members(mut members: Vec<Type>) -> Type {
    if members.iter().any(|m| matches!(m, Type::Top)) {
        return Type::Top;
    }
    // One member is its own union (nothing to absorb, hold or sort).
    if members.len() <= 1 {
        return members.pop().unwrap_or(Type::Bot);
    }
    if members.iter().filter(|m| matches!(m, Type::Constant(_))).count() > MAX_LITERAL_MEMBERS {
        members = members.into_iter().map(widen_literals).collect();
    }
    // A literal or range is redundant next to its whole class.
    let bare: Vec<Name> = members
        .iter()
        .filter_map(|m| match m {
            Type::Nominal { class, args } if args.is_empty() => Some(class.clone()),
            _ => None,
        })
        .collect();
    if !bare.is_empty() {
        members.retain(|m| match m {
            Type::Constant(literal) => !bare.iter().any(|c| &**c == literal.class_name()),
            Type::IntRange { .. } => !bare.iter().any(|c| &**c == "Integer"),
            _ => true,
        });
    }
    // Equal members never hold one another, and all but the first go in
    // the end: dropping them now keeps the holding check below from
    // comparing thousands of copies (a table literal's widened values).
    if members.len() > 4 {
        let mut seen: rustc_hash::FxHashSet<Type> = rustc_hash::FxHashSet::default();
        members.retain(|m| seen.insert(m.clone()));
    }
    // An exact array or hash is redundant next to a nominal one holding
    // it; of two that hold each other, the first stays.
    let is_container = |m: &Type| matches!(m, Type::Nominal { class, .. } if matches!(&**class, "Array" | "Hash"));
    // Only containers can hold another member: visiting just them keeps a
    // union of thousands of tuples (a table literal) linear in its size.
    let containers: Vec<usize> = (0..members.len()).filter(|&j| is_container(&members[j])).collect();
    if !containers.is_empty() {
        let mut dropped = vec![false; members.len()];
        for i in 0..members.len() {
            for &j in &containers {
                if i == j || dropped[j] || !holds(&members[j], &members[i]) {
                    continue;
                }
                if !holds(&members[i], &members[j]) || j < i {
                    dropped[i] = true;
                    break;
                }
            }
        }
        let mut index = 0;
        members.retain(|_| {
            index += 1;
            !dropped[index - 1]
        });
    }
    // Sorted by display: the keys borrow from the members where they can,
    // so the members are sorted by index and taken after.
    let keys: Vec<std::borrow::Cow<'_, str>> = members.iter().map(display_key).collect();
    let mut order: Vec<usize> = (0..members.len()).collect();
    order.sort_by(|&a, &b| keys[a].cmp(&keys[b]));
    order.dedup_by(|a, b| keys[*a] == keys[*b]);
    drop(keys);
    let mut slots: Vec<Option<Type>> = members.into_iter().map(Some).collect();
    let mut sorted = order.into_iter().filter_map(|i| slots[i].take());
    match (sorted.next(), sorted.next()) {
        (None, _) => Type::Bot,
        (Some(only), None) => only,
        (Some(first), Some(second)) => Type::Union([first, second].into_iter().chain(sorted).collect()),
    }
}

/// Does the nominal container type `outer` include every value of `inner`
/// (a tuple or shape whose elements it already covers)?
fn holds(outer: &Type, inner: &Type) -> bool {
    let Type::Nominal { class, args } = outer else { return false };
    let covers = |arg: Option<&Type>, element: &Type| match arg {
        None | Some(Type::Dynamic(_)) | Some(Type::Top) => true,
        Some(arg) => {
            let widened = widen_literals(element.clone());
            widened.members().iter().all(|w| arg.members().contains(w) || arg.members().contains(element))
        }
    };
    match (&**class, inner) {
        // `Array[A] | Array[A | B]`: the wider one holds every value.
        (_, Type::Nominal { class: inner_class, args: inner_args })
            if inner_class == class && inner_args.len() == args.len() && inner != outer =>
        {
            args.iter().zip(inner_args.iter()).all(|(arg, inner_arg)| match arg {
                Type::Dynamic(_) | Type::Top => true,
                _ => inner_arg.members().iter().all(|m| arg.members().contains(m)),
            })
        }
        ("Array", Type::Tuple(elements)) => elements.iter().all(|e| covers(args.first(), e)),
        ("Hash", Type::Shape(shape)) => {
            covers(args.first(), &Type::nominal("Symbol"))
                && shape.fields.iter().all(|f| covers(args.get(1), &f.ty))
                && !shape.open
        }
        _ => false,
    }
}

/// Where two control-flow paths meet.
pub fn join(a: &Type, b: &Type) -> Type {
    if a == b || already_holds(a, b) {
        return a.clone();
    }
    if already_holds(b, a) {
        return b.clone();
    }
    union([a.clone(), b.clone()])
}

/// Is `union([whole, part])` surely `whole` itself? It is when `whole` is
/// a union and every member of `part` is one of its members: a union's
/// members hold none of one another and sort as they stand, so only the
/// literal count (past which literals widen) could change the result.
/// Flow joins ask this at every merge; it spares them the sort by display.
fn already_holds(whole: &Type, part: &Type) -> bool {
    let Type::Union(members) = whole else { return false };
    let literals = |types: &[Type]| types.iter().filter(|m| matches!(m, Type::Constant(_))).count();
    let parts = part.members();
    literals(members) + literals(parts) <= MAX_LITERAL_MEMBERS && parts.iter().all(|p| members.contains(p))
}

/// Position-wise join of two argument lists of the same length (what
/// blocks are given); `None` when the lengths differ.
pub fn join_positions(current: Option<Vec<Type>>, next: &[Type]) -> Option<Vec<Type>> {
    match current {
        None => Some(next.to_vec()),
        Some(current) if current.len() == next.len() => {
            Some(current.iter().zip(next).map(|(a, b)| join(a, b)).collect())
        }
        Some(_) => None,
    }
}

/// Forgets literal values but keeps classes (`1 | 2` → `Integer`,
/// `[1, "a"]` → `Array[Integer | String]`); `nil`, `true` and `false` stay.
pub fn widen_literals(ty: Type) -> Type {
    match ty {
        Type::Constant(Literal::Nil | Literal::True | Literal::False) => ty,
        Type::Constant(literal) => Type::nominal(literal.class_name()),
        Type::IntRange { .. } => Type::nominal("Integer"),
        Type::Tuple(elements) => {
            let element =
                if elements.is_empty() { Type::untyped() } else { union(elements.into_iter().map(widen_literals)) };
            Type::generic("Array", vec![element])
        }
        Type::Shape(shape) => {
            if shape.fields.is_empty() {
                return Type::generic("Hash", vec![Type::untyped(), Type::untyped()]);
            }
            let value = union(shape.fields.into_iter().map(|f| widen_literals(f.ty)));
            let value = if shape.open { Type::untyped() } else { value };
            Type::generic("Hash", vec![Type::nominal("Symbol"), value])
        }
        Type::Union(members) => union(members.iter().cloned().map(widen_literals)),
        other => other,
    }
}

impl Type {
    /// What a value of this type may become once others can mutate it:
    /// strings, arrays and hashes lose their exact contents; immutable
    /// literals (numbers, symbols, nil, booleans) keep them. An array or a
    /// hash loses its element types too: whoever else holds it (an alias,
    /// a callee, a constant's readers) may put anything in (`b = a; b <<
    /// "x"` leaves `a = [1]` holding a String).
    pub fn forget_mutable(&self) -> Type {
        match self {
            Type::Constant(Literal::Str(_)) => Type::nominal("String"),
            Type::Tuple(_) => Type::generic("Array", vec![Type::untyped()]),
            Type::Shape(_) => Type::generic("Hash", vec![Type::untyped(), Type::untyped()]),
            Type::Union(members) => union(members.iter().map(Type::forget_mutable)),
            other => other.clone(),
        }
    }

    /// What an element taken out of a container, or bound to a signature's
    /// type variable, may become: its exact contents go, its element types
    /// stay (`[[1, "a"]].first` is `Array[Integer | String]`). This is the
    /// trust a signature's generics already ask for (`Array[Array[Integer]]`
    /// says what its arrays hold); a variable others may hold gets
    /// `forget_mutable` instead.
    pub fn forget_exact(&self) -> Type {
        match self {
            Type::Constant(Literal::Str(_)) => Type::nominal("String"),
            Type::Tuple(_) | Type::Shape(_) => widen_literals(self.clone()),
            Type::Union(members) => union(members.iter().map(Type::forget_exact)),
            other => other.clone(),
        }
    }

    /// Keeps a container's own shape but forgets the exact contents of
    /// what it holds: an element taken out can be mutated by anyone.
    pub fn settle_elements(&self) -> Type {
        match self {
            Type::Tuple(elements) => Type::Tuple(elements.iter().map(Type::forget_exact).collect()),
            Type::Shape(shape) => {
                let mut shape = shape.clone();
                for field in &mut shape.fields {
                    field.ty = field.ty.forget_exact();
                }
                Type::Shape(shape)
            }
            Type::Union(members) => union(members.iter().map(Type::settle_elements)),
            other => other.clone(),
        }
    }

    /// Does this type claim exact contents of a mutable object?
    pub fn is_mutable_literal(&self) -> bool {
        self.members().iter().any(|m| matches!(m, Type::Constant(Literal::Str(_)) | Type::Tuple(_) | Type::Shape(_)))
    }

    /// Does this type say what a mutable object holds: an exact string,
    /// array or hash, or an Array or Hash of known elements? A mutation
    /// through another reference to it would make that untrue.
    pub fn has_mutable_contents(&self) -> bool {
        self.is_mutable_literal()
            || self.members().iter().any(|m| match m {
                Type::Nominal { class, args } => {
                    matches!(&**class, "Array" | "Hash" | "Set")
                        && args.iter().any(|a| !matches!(a, Type::Dynamic(None)))
                }
                _ => false,
            })
    }

    /// Does a value of this type hold objects whose contents it describes
    /// (`[[1]]`, `Array[Array[Integer]]`, `{k: Hash[Symbol, String]}`)? A
    /// reference to one of them, taken out, may change them unseen.
    pub fn has_nested_mutable_contents(&self) -> bool {
        self.members().iter().any(|m| match m {
            Type::Tuple(elements) => elements.iter().any(Type::has_mutable_contents),
            Type::Shape(shape) => shape.fields.iter().any(|f| f.ty.has_mutable_contents()),
            Type::Nominal { class, args } if matches!(&**class, "Array" | "Hash" | "Set") => {
                args.iter().any(Type::has_mutable_contents)
            }
            _ => false,
        })
    }

    /// A container whose elements others hold too: the elements keep only
    /// their classes (`Array[Array[Integer]]` is `Array[Array[untyped]]`).
    pub fn forget_nested_contents(&self) -> Type {
        union(self.members().iter().map(|member| match member {
            Type::Tuple(elements) => Type::Tuple(elements.iter().map(Type::forget_contents).collect()),
            Type::Shape(shape) => {
                let mut shape = shape.clone();
                for field in &mut shape.fields {
                    field.ty = field.ty.forget_contents();
                }
                Type::Shape(shape)
            }
            Type::Nominal { class, args } if matches!(&**class, "Array" | "Hash" | "Set") => {
                Type::generic(class, args.iter().map(Type::forget_contents).collect())
            }
            other => other.clone(),
        }))
    }

    /// What a value others may mutate may hold: its exact contents and its
    /// element types go (`Array[Integer]` is `Array[untyped]`).
    pub fn forget_contents(&self) -> Type {
        union(self.members().iter().map(|member| match member.forget_mutable() {
            Type::Nominal { class, .. } if matches!(&*class, "Array" | "Set") => {
                Type::generic(&class, vec![Type::untyped()])
            }
            Type::Nominal { class, .. } if &*class == "Hash" => {
                Type::generic("Hash", vec![Type::untyped(), Type::untyped()])
            }
            other => other,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::display;

    #[test]
    fn unions_flatten_dedupe_sort_and_absorb() {
        let u = union([Type::nominal("String"), Type::int(1), union([Type::nil(), Type::int(1)]), Type::Bot]);
        assert_eq!(display(&u), "1 | String | nil");
        assert_eq!(union([Type::int(1), Type::nominal("Integer")]), Type::nominal("Integer"));
        assert_eq!(union([Type::int(1), Type::Top]), Type::Top);
        assert_eq!(union(Vec::<Type>::new()), Type::Bot);
        assert_eq!(union([Type::int(2), Type::int(2)]), Type::int(2));
    }

    #[test]
    fn exact_containers_fold_into_nominal_ones_that_hold_them() {
        let array = Type::generic("Array", vec![Type::nominal("Integer")]);
        assert_eq!(union([Type::Tuple(vec![Type::int(1)]), array.clone()]), array);
        assert_eq!(union([Type::Tuple(vec![]), Type::generic("Array", vec![Type::untyped()])]).members().len(), 1);
        let strings = Type::generic("Array", vec![Type::nominal("String")]);
        assert_eq!(union([Type::Tuple(vec![Type::int(1)]), strings]).members().len(), 2);
        // Two that hold each other: one stays, never neither.
        let loose = Type::generic("Array", vec![Type::untyped()]);
        let mixed = Type::generic("Array", vec![union([Type::nominal("String"), Type::untyped()])]);
        let joined = union([mixed.clone(), loose.clone(), Type::nil()]);
        assert_eq!(joined.members().len(), 2, "{}", display(&joined));
        assert_eq!(union([loose.clone(), mixed]).members().len(), 1);
        assert_eq!(union([loose.clone(), loose.clone()]), loose);
    }

    /// Unions of every kind of member, up to and past the literal count
    /// that widens.
    fn samples() -> Vec<Type> {
        let singles = vec![
            Type::nil(),
            Type::Constant(Literal::True),
            Type::int(1),
            Type::int(2),
            Type::string("a"),
            Type::nominal("String"),
            Type::nominal("Integer"),
            Type::untyped(),
            Type::Bot,
            Type::IntRange { min: Some(0), max: None },
            Type::Tuple(vec![Type::int(1)]),
            Type::generic("Array", vec![Type::nominal("Integer")]),
            Type::generic("Array", vec![Type::untyped()]),
            Type::generic("Array", vec![union([Type::nominal("String"), Type::untyped()])]),
            Type::Singleton("String".into()),
        ];
        let mut samples = singles.clone();
        for (i, a) in singles.iter().enumerate() {
            for b in &singles[i..] {
                samples.push(union([a.clone(), b.clone()]));
                samples.push(union([a.clone(), b.clone(), Type::nil()]));
            }
        }
        samples.push(union((0..12).map(Type::int)));
        samples.push(union((0..11).map(Type::int).chain([Type::nil()])));
        samples.push(union((5..9).map(Type::int)));
        samples
    }

    /// `join` skips the union where the result is surely one side: it must
    /// give what the union gives, over every sample.
    #[test]
    fn join_is_the_union_of_its_sides() {
        let samples = samples();
        // Equal sides join to themselves (a union of one), as ever.
        for a in &samples {
            for b in samples.iter().filter(|b| *b != a) {
                assert_eq!(join(a, b), union([a.clone(), b.clone()]), "{} with {}", display(a), display(b));
            }
        }
    }

    /// `union` hands back a single type as it is: that holds only while
    /// normalising a union again changes nothing.
    #[test]
    fn a_union_normalised_again_is_itself() {
        for u in samples() {
            assert_eq!(union_of_members(u.members().to_vec()), u, "{}", display(&u));
            assert_eq!(union([u.clone()]), u);
        }
    }

    /// A lazy iterator may infer as it goes: nothing after a `top` is taken.
    #[test]
    fn nothing_after_top_is_taken() {
        for top_at in 0..3 {
            let mut taken = 0;
            let types = (0..4).map(|i| {
                taken += 1;
                if i == top_at {
                    Type::Top
                } else {
                    Type::int(i as i64)
                }
            });
            assert_eq!(union(types), Type::Top);
            assert_eq!(taken, top_at + 1);
        }
    }

    #[test]
    fn too_many_literals_widen_to_their_class() {
        let u = union((0..20).map(Type::int));
        assert_eq!(u, Type::nominal("Integer"));
    }

    #[test]
    fn mutable_literals_are_forgotten_but_immutable_ones_kept() {
        let t = union([Type::string("a"), Type::int(1), Type::Tuple(vec![Type::int(1), Type::string("x")])]);
        assert_eq!(display(&t.forget_mutable()), "1 | Array[untyped] | String");
        let shape = union([Type::Shape(crate::types::Shape { fields: vec![], open: false }), Type::nil()]);
        assert_eq!(display(&shape.forget_mutable()), "Hash[untyped, untyped]?");
    }
}
