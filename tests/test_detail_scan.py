"""The skipping scanners of the detail parser (``transpiler/parser/detail/scan.py``): the regex
analysis they rest on answers safely, and a scanner is refused where skipping could read other
tokens than the lexer (issue 16)."""

from __future__ import annotations

from transpiler.parser.detail import scan as detail_scan

BLANKS = frozenset(" \t\r\n")


def test_first_chars_of_plain_patterns():
    assert detail_scan.first_chars(r"[ \t\r\n]+") == BLANKS
    assert detail_scan.first_chars(r"\/\/[^\n\r]*") == {"/"}
    assert detail_scan.first_chars(r"(?:a|b)?c") == {"a", "b", "c"}
    assert detail_scan.first_chars(r"(?:x)*y") == {"x", "y"}


def test_first_chars_unknown_or_empty_matches_are_none():
    assert detail_scan.first_chars(r"\s+") is None  # a category: not read as a set
    assert detail_scan.first_chars(r"a*") is None  # may match the empty string
    assert detail_scan.first_chars(r"(?i)a") is None
    assert detail_scan.first_chars(r".x") is None


def test_may_start_with_is_safe():
    assert not detail_scan.may_start_with(r"%[\w$.\-]+", BLANKS)
    assert not detail_scan.may_start_with(r"(?![ ])[a-z]+", BLANKS)
    assert detail_scan.may_start_with(r"\s*x", BLANKS)
    assert detail_scan.may_start_with(r"[^a]", BLANKS)
    assert detail_scan.may_start_with(r"(?:)", BLANKS)  # the empty match: unsure, so True
    assert detail_scan.may_start_with(r"\W", BLANKS)
    assert not detail_scan.may_start_with(r"\w+", BLANKS)
    assert detail_scan.may_start_with(r"(?i)x", BLANKS)


def test_scanner_skips_ignored_text_then_reads_the_lexers_first_match():
    patterns = {"WS": r"[ \t]+", "C": r"//[^\n]*", "A": r"ab", "B": r"a[a-z]*"}
    scan = detail_scan.scanner(["A", "WS", "B", "C"], patterns, frozenset({"WS", "C"}))
    m = scan("  // c\n", 0)
    assert m.lastgroup is None and m.end() == 6  # the comment ends at the line break, which is not ignored
    m = scan(" \t//x", 0)
    assert m.lastgroup is None and m.end() == 5
    m = scan("  abc", 0)
    assert (m.lastgroup, m.group(m.lastgroup), m.end()) == ("A", "ab", 4)
    m = scan("  ?", 0)
    assert m.lastgroup is None and m.end() == 2


def test_no_scanner_when_a_terminal_may_start_like_an_ignored_one():
    patterns = {"WS": r"[ ]+", "SPACED": r" x", "A": r"a"}
    assert detail_scan.scanner(["SPACED", "WS", "A"], patterns, frozenset({"WS"})) is None
    assert detail_scan.scanner(["A"], patterns, frozenset({"WS"})) is None  # nothing ignored
    assert detail_scan.scanner(["WS"], patterns, frozenset({"WS"})) is None  # nothing else
