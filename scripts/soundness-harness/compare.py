"""Compares what Ruby really did (the recorder's JSON lines) with what the
engine infers (`rigor sig-gen --format json`): each method's return, and
each positional parameter sig-gen types, is one of

  unsound  a value Ruby produced is not a member of the inferred type
  precise  the inferred type has no `untyped` member and admits every value
  untyped  the inferred type is, or includes, `untyped`

Types are read as the engine displays them (`String?`, `1 | :a`,
`Array[Integer]`, `[1, 2]`, `singleton(Foo)`, `non-negative-int`...), and
signature parameters as RBS (`::String`, `?Integer`)."""

import math
import re

# ---- reading a displayed (or RBS) type into its members -------------------


def split_top(text, separator):
    """Splits at `separator` outside brackets, braces, parentheses and quotes."""
    parts, depth, current, quote, i = [], 0, "", None, 0
    while i < len(text):
        c = text[i]
        if quote:
            current += c
            if c == "\\" and i + 1 < len(text):
                current += text[i + 1]
                i += 1
            elif c == quote:
                quote = None
        elif c in "\"'":
            quote = c
            current += c
        elif c in "([{<":
            depth += 1
            current += c
        elif c in ")]}>" and not (c == ">" and current.endswith("-")):
            depth -= 1
            current += c
        elif depth == 0 and text.startswith(separator, i):
            parts.append(current)
            current = ""
            i += len(separator)
            continue
        else:
            current += c
        i += 1
    parts.append(current)
    return [p.strip() for p in parts]


def members(text):
    """A type's members as strings; `T?` gives T and nil."""
    text = text.strip()
    out = []
    for part in split_top(text, " | "):
        if part.startswith("(") and part.endswith(")?"):
            out.extend(members(part[1:-2]))
            out.append("nil")
        elif part.endswith("?") and not part.startswith(":") and len(part) > 1:
            out.extend(members(part[:-1]))
            out.append("nil")
        elif part.startswith("(") and part.endswith(")"):
            out.extend(members(part[1:-1]))
        else:
            out.append(part)
    return out


def is_untyped(member):
    return member in ("untyped", "top")


INT_RANGE = re.compile(r"\Aint<(-?\d+|min), (-?\d+|max)>\Z")


def admits(member, value):
    """Is the recorded value a member of this one type member?"""
    ancestors = value.get("ancestors", [])
    literal = value.get("inspect")
    member = member.strip()
    if member.startswith("::"):
        member = member[2:]
    if is_untyped(member):
        return True
    if member == "bot":
        return False
    if member in ("nil", "NilClass"):
        return literal == "nil"
    if member == "true":
        return literal == "true"
    if member == "false":
        return literal == "false"
    if member in ("bool", "boolish"):
        return literal in ("true", "false") or member == "boolish"
    if member.startswith("singleton(") and member.endswith(")"):
        name = member[len("singleton("):-1].lstrip(":")
        return "module" in value and name in value.get("ancestors", [])
    if member in ("non-negative-int", "positive-int") or INT_RANGE.match(member):
        if "Integer" not in ancestors or literal is None:
            return False
        number = int(literal)
        if member == "non-negative-int":
            return number >= 0
        if member == "positive-int":
            return number > 0
        low, high = INT_RANGE.match(member).groups()
        return (low == "min" or number >= int(low)) and (high == "max" or number <= int(high))
    if re.fullmatch(r"-?\d+", member):
        return literal == member and "Integer" in ancestors
    if re.fullmatch(r"-?\d+\.\d+(e[+-]?\d+)?|-?Infinity|NaN", member):
        if "Float" not in ancestors or literal is None:
            return "Float" in ancestors
        seen, inferred = float(literal), float(member)
        return seen == inferred or (math.isnan(seen) and math.isnan(inferred))
    if member.startswith('"'):
        return "String" in ancestors and (literal is None or literal == member)
    if member.startswith(":"):
        return "Symbol" in ancestors and (literal is None or literal == member)
    if member.startswith("["):
        inner = member[1:-1].strip()
        elements = split_top(inner, ",") if inner else []
        if "Array" not in ancestors or value.get("size", len(elements)) != len(elements):
            return False
        # Element by element, as far as the recorder described them.
        return all(admits_all(t, [e]) for t, e in zip(elements, value.get("elements", [])))
    if member.startswith("{"):
        return "Hash" in ancestors
    if member.startswith("^("):
        return "Proc" in ancestors
    name = member.split("[", 1)[0].strip()
    if name in ("self", "instance", "class"):
        return True
    if "module" in value:
        # A class object: `Class`, `Module` or one of their ancestors.
        return name in ("Class", "Module", "Object", "BasicObject", "Kernel") and (
            name != "Class" or value.get("is_class"))
    if name not in ancestors:
        return False
    # `Array[T]` and `Hash[K, V]`: the elements the recorder described.
    arguments = type_arguments(member)
    if name == "Array" and len(arguments) == 1:
        return admits_all(arguments[0], value.get("elements", []))
    if name == "Hash" and len(arguments) == 2:
        return admits_all(arguments[0], value.get("keys", [])) and admits_all(arguments[1], value.get("values", []))
    return True


def type_arguments(member):
    """`Hash[Symbol, Array[String]]` gives `["Symbol", "Array[String]"]`."""
    opened = member.find("[")
    if opened < 0 or not member.endswith("]"):
        return []
    return split_top(member[opened + 1:-1], ",")


def admits_all(inferred, values):
    """Is every recorded value a member of the displayed type `inferred`?"""
    parts = members(inferred)
    return all(any(admits(p, v) for p in parts) for v in values)


def judge(inferred, values):
    """unsound, precise or untyped, and the values the type does not admit."""
    parts = members(inferred)
    if any(is_untyped(p) for p in parts):
        return "untyped", []
    missed = [v for v in values if not any(admits(p, v) for p in parts)]
    return ("unsound" if missed else "precise"), missed


# ---- sig-gen's parameters -----------------------------------------------


TYPE_WORDS = {"nil", "bool", "untyped", "void", "top", "bot", "self", "instance", "class", "boolish"}


def positional_params(rbs):
    """Positional parameter types of `def m: (A, ?B, *C, k: D) -> R`, by
    position; None where the position is not a plain or optional one."""
    if not rbs:
        return []
    rbs = rbs.removeprefix("private ")
    body = rbs.split(":", 1)[1].strip() if rbs.startswith("def ") else rbs
    if not body.startswith("("):
        return []
    depth = 0
    for i, c in enumerate(body):
        depth += c in "([{"
        depth -= c in ")]}"
        if depth == 0:
            inner = body[1:i]
            break
    else:
        return []
    result = []
    for param in split_top(inner, ","):
        if not param or param.startswith(("*", "&")) or re.match(r"\??\w+:\s", param):
            break
        param = param.lstrip("?").strip()
        # `String name`: drop the name.
        # (Not a type keyword after `|`: `String | nil` keeps its nil.)
        named = re.match(r"(.*\S)\s+([a-z_]\w*)\Z", param)
        if named and not named.group(1).endswith(("|", "&")) and named.group(2) not in TYPE_WORDS:
            param = named.group(1)
        result.append(param)
    return result
