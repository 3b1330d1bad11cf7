"""Regular expressions compiled on first use (crfdeid.text.patterns): the same as compiled ones."""

from __future__ import annotations

import copy
import pickle
import re

import regex

from crfdeid.recognizers import rules, safeharbor
from crfdeid.text.patterns import LazyPattern

TEXT = "Seen by Dr. Lee on 7/22/2098, MRN 00482913, phone 617-555-0199, age 94, lee@example.org."


def test_a_lazy_pattern_finds_what_the_compiled_one_finds():
    for compile in (re.compile, regex.compile):
        lazy = LazyPattern(compile, r"(?P<n>\d+)/(\d+)", re.I)
        assert "finditer" not in vars(lazy)  # nothing compiled before it is used
        rx = compile(r"(?P<n>\d+)/(\d+)", re.I)
        assert [m.span() for m in lazy.finditer(TEXT)] == [m.span() for m in rx.finditer(TEXT)]
        assert lazy.match(TEXT, 19).group("n") == "7" and lazy.groupindex == rx.groupindex
        assert lazy.pattern == rx.pattern and lazy.flags == rx.flags and lazy.source == rx.pattern


def test_a_lazy_pattern_copies_and_pickles_as_its_source():
    lazy = LazyPattern(regex.compile, r"\d+")
    lazy.search("1")  # compiled: the copies still hold only the source
    for other in (copy.copy(lazy), copy.deepcopy(lazy), pickle.loads(pickle.dumps(lazy))):
        assert isinstance(other, LazyPattern) and other.source == r"\d+" and other.search("a 12").group() == "12"


def test_every_rule_and_form_compiles_and_finds_what_it_did():
    """Each rule and Safe Harbor form: the group the rule overlay takes without compiling it is
    the compiled pattern's, and its matches are those of the pattern compiled at once."""
    for name, (_, rx) in rules.RULES.items():
        assert isinstance(rx, LazyPattern), name
        compiled = regex.compile(rx.source, rx._args[2])
        assert rules._group(rx) == ("phi" if "phi" in compiled.groupindex else 0), name
        assert [m.span() for m in rx.finditer(TEXT)] == [m.span() for m in compiled.finditer(TEXT)], name
    for name, (_, rx, _, _) in safeharbor.FORMS.items():
        assert isinstance(rx, LazyPattern), name
        compile, source, flags = rx._args
        assert [m.span() for m in rx.finditer(TEXT)] == [m.span() for m in compile(source, flags).finditer(TEXT)]
