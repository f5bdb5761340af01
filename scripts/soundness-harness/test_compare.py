"""Checks of compare.py's reading of types (run by scripts/test)."""
import unittest

import compare


def value(*ancestors, inspect=None, size=None):
    described = {"ancestors": list(ancestors)}
    if inspect is not None:
        described["inspect"] = inspect
    if size is not None:
        described["size"] = size
    return described


INT = lambda n: value("Integer", "Numeric", "Object", inspect=str(n))
NIL = value("NilClass", "Object", inspect="nil")
STR = lambda s: value("String", "Object", inspect=f'"{s}"')
ARRAY = lambda n: value("Array", "Enumerable", "Object", size=n)


class Judging(unittest.TestCase):
    def verdict(self, inferred, *values):
        return compare.judge(inferred, list(values))[0]

    def test_optional_and_unions(self):
        self.assertEqual(self.verdict("String?", STR("a"), NIL), "precise")
        self.assertEqual(self.verdict("String", NIL), "unsound")
        self.assertEqual(self.verdict("Integer | String", INT(1), STR("x")), "precise")
        self.assertEqual(self.verdict("(Integer | String)?", NIL), "precise")
        self.assertEqual(self.verdict("untyped?", NIL), "untyped")
        self.assertEqual(self.verdict("1 | untyped", STR("x")), "untyped")

    def test_literals_are_exact(self):
        self.assertEqual(self.verdict("1 | 2", INT(2)), "precise")
        self.assertEqual(self.verdict("1 | 2", INT(3)), "unsound")
        self.assertEqual(self.verdict('""', STR("x")), "unsound")
        self.assertEqual(self.verdict("non-negative-int", INT(-1)), "unsound")
        self.assertEqual(self.verdict("int<0, 5>", INT(5)), "precise")
        self.assertEqual(self.verdict("bot", INT(1)), "unsound")
        nan = value("Float", "Numeric", "Object", inspect="NaN")
        self.assertEqual(self.verdict("NaN", nan), "precise")
        self.assertEqual(self.verdict("1.5", nan), "unsound")

    def test_tuples_check_their_size_and_generics_their_class(self):
        self.assertEqual(self.verdict("[1, 2]", ARRAY(2)), "precise")
        self.assertEqual(self.verdict("[1, 2]", ARRAY(3)), "unsound")
        self.assertEqual(self.verdict("Array[Integer]", ARRAY(3)), "precise")
        self.assertEqual(self.verdict("Enumerator[Integer, [1, 2]] | [1, 2]",
                                      value("Enumerator", "Enumerable", "Object")), "precise")
        self.assertEqual(self.verdict("Array[Integer]", value("Enumerator", "Object")), "unsound")
        self.assertEqual(self.verdict("Numeric", INT(1)), "precise")

    def test_elements_are_checked_as_far_as_recorded(self):
        def holding(*elements):
            return dict(ARRAY(len(elements)), elements=list(elements))

        self.assertEqual(self.verdict("Array[Integer]", holding(INT(1), INT(2))), "precise")
        self.assertEqual(self.verdict("Array[Integer]", holding(INT(1), STR("x"))), "unsound")
        self.assertEqual(self.verdict("Array[Integer?]", holding(INT(1), NIL)), "precise")
        self.assertEqual(self.verdict("[1, String]", holding(INT(1), STR("x"))), "precise")
        self.assertEqual(self.verdict("[1, String]", holding(INT(2), STR("x"))), "unsound")
        self.assertEqual(self.verdict("Array[Array[String]]", holding(holding(STR("a"), INT(3)))), "unsound")
        self.assertEqual(self.verdict("Array[untyped]", holding(STR("a"))), "precise")
        # An array described without its elements is judged by its class.
        self.assertEqual(self.verdict("Array[Integer]", ARRAY(3)), "precise")
        table = dict(value("Hash", "Object"), keys=[value("Symbol", "Object", inspect=":a")], values=[STR("v")])
        self.assertEqual(self.verdict("Hash[Symbol, String]", table), "precise")
        self.assertEqual(self.verdict("Hash[Symbol, Integer]", table), "unsound")
        self.assertEqual(self.verdict("Hash[String, String]", table), "unsound")

    def test_class_objects(self):
        klass = {"module": "URI::HTTP", "ancestors": ["URI::HTTP", "URI::Generic", "Object"], "is_class": True}
        self.assertEqual(self.verdict("singleton(URI::Generic)", klass), "precise")
        self.assertEqual(self.verdict("singleton(String)", klass), "unsound")
        self.assertEqual(self.verdict("Class", klass), "precise")

    def test_signature_parameters(self):
        self.assertEqual(compare.positional_params("def m: (::String, ?Integer? n, *untyped, k: Symbol) -> void"),
                         ["::String", "Integer?"])
        self.assertEqual(compare.positional_params("def self.m: ([Integer, String], Hash[Symbol, Integer]) -> 1"),
                         ["[Integer, String]", "Hash[Symbol, Integer]"])
        # A private method's line, and a union ending in nil (not a name).
        self.assertEqual(compare.positional_params("private def m: (String | nil, Integer | bool b) -> 1"),
                         ["String | nil", "Integer | bool"])
        self.assertEqual(self.verdict("::String", STR("a")), "precise")


if __name__ == "__main__":
    unittest.main()
