"""Repeats of a patient's names in the rest of a note: found without their accents (``Lopez``
after ``Ana García-López``), and a name that is also a common English word (``Will``) only where
it is written as a name (with its case, or after a title), never the plain word (``he will call``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.deid import Surrogator, propagate
from crfdeid.deid.redact import redact
from crfdeid.document import Document, make_span


def _doc(text: str, *names: str) -> Document:
    return Document("1", text, [make_span(text.index(n), text.index(n) + len(n), "PATIENT") for n in names])


def _found(doc: Document) -> list[str]:
    return [doc.surface(sp) for sp in propagate(doc).spans]


@pytest.mark.parametrize("text, name, repeats", [
    ("Sra. Ana García-López ingresa. Lopez, hija; GARCIA llamó.", "Ana García-López", ["Lopez", "GARCIA"]),
    ("Pt Ana Garcia-Lopez. Seen with López and GARCÍA-LÓPEZ.", "Ana Garcia-Lopez", ["López", "GARCÍA", "LÓPEZ"]),
    ("Zoë Brontë seen. zoe bronte again; Bronte called.", "Zoë Brontë", ["zoe bronte", "Bronte"]),
    ("Łukasz Müller seen; Muller called.", "Łukasz Müller", ["Muller"]),
])
def test_a_name_is_found_again_without_its_accents(text, name, repeats):
    assert _found(_doc(text, name)) == [name, *repeats]


def test_the_accentless_spelling_does_not_survive_in_surrogate_output():
    doc = _doc("Sra. Ana García-López ingresa. Lopez, hija; López llamó.", "Ana García-López")
    out = Surrogator(seed=3).surrogate(propagate(doc)).text
    assert not any(part in out for part in ("Ana", "García", "Garcia", "López", "Lopez")), out


@pytest.mark.parametrize("text, names, kept, replaced", [
    ("Will seen today; he will call back. Will agrees.", ["Will"], ["he will call"], ["Will agrees"]),
    ("WILL seen today; he will call; WILL agrees.", ["WILL"], ["he will call"], ["WILL agrees"]),
    ("Will Quenby seen; he will call. Mr. will came", ["Will Quenby"], ["he will call"], ["Mr. will"]),
    ("Hope Tarrow seen; we hope so. Hope called.", ["Hope Tarrow"], ["we hope so"], ["Hope called"]),
    ("pt will seen. she said will is better", ["will"], [], ["said will"]),  # written in lower case: as annotated
])
def test_a_name_that_is_a_common_word_is_replaced_only_where_written_as_a_name(text, names, kept, replaced):
    out = redact(propagate(_doc(text, *names))).text
    assert all(k in out for k in kept), out
    assert not any(r in out for r in replaced), out


@pytest.mark.parametrize("name", ["Quenby", "Smith", "John"])  # no common word; more often a name than a word
def test_a_name_that_is_no_plain_word_is_found_in_any_case(name):
    text = f"{name} seen; {name.lower()} called; {name.upper()} agrees."
    assert _found(_doc(text, name)) == [name, name.lower(), name.upper()]


def test_he_will_call_keeps_its_verb_in_surrogate_output():
    out = Surrogator(seed=5).surrogate(propagate(_doc("Will seen. he will call back.", "Will"))).text
    assert out.endswith("he will call back.") and not out.startswith("Will"), out


@pytest.mark.parametrize("after, leaks, harmless", [
    ("Pt Edmond Price. he will call.", 0, 1),   # the verb, left as the repeat rule leaves it
    ("Pt Edmond Price. Will will call.", 1, 1),  # the name written as the name: a leak
])
def test_the_release_check_counts_a_name_that_is_a_word_as_the_word(after, leaks, harmless):
    """The release check agrees with the repeat rule: a patient ``Will`` and ``he will call``."""
    from crfdeid.deid.check import check
    orig = Document("n1", "Pt Will Hale. he will call.", [make_span(3, 7, "PATIENT"), make_span(8, 12, "PATIENT")])
    new = Document("n1", after, [make_span(3, 9, "PATIENT"), make_span(10, 15, "PATIENT")])
    rep = check([(orig, new)])
    assert (rep.leaks, rep.harmless_repeats) == (leaks, harmless)


_PIECES = st.text(alphabet="ab1éÉ٣_-'", min_size=3, max_size=5)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, min_size=1, max_size=6),
       st.lists(st.tuples(st.integers(0, 5), st.sampled_from(["", " ", "_", "a", "1", "é", "-", "\n", "b ab"])),
                max_size=14))
def test_occurrences_found_by_prefix_or_by_word_start_alike(strings, layout):
    """A note's few PHI strings are found with ``str.find``, many by one pass over the word starts:
    the same starts either way (inside words, after underscores, accents, other scripts' digits,
    overlaps)."""
    from crfdeid.deid import spans

    text = "".join(strings[i % len(strings)] + glue for i, glue in layout)
    low = text.lower()
    phis = {s for s in strings if s[:1].isalnum() and s[-1:].isalnum()}
    by_find = spans._occurrences(low, phis, 3)
    was = spans._FIND_PREFIXES
    try:
        spans._FIND_PREFIXES = -1  # every note: the pass over the word starts
        assert spans._occurrences(low, phis, 3) == by_find
    finally:
        spans._FIND_PREFIXES = was


@pytest.mark.parametrize("text, repeats", [
    # a unit's account: its place word before a telephone number is the unit's label, not a name (check43)
    ("Infirmary 0124 421 7763. Logged by mthomas.infirmary at 11:40.", []),
    ("Admin desk. Entered by ward3.admin.", []),
    # a person's account: its surname is looked for again where written with a capital
    ("Kowalska called back. Login anna.kowalska.", ["Kowalska"]),
])
def test_a_user_names_place_and_plain_words_are_not_names(text, repeats):
    login = text.split()[-1].rstrip(".")
    start = text.rindex(login)
    doc = Document("1", text, [make_span(start, start + len(login), "USERNAME")])
    assert sorted(_found(doc)) == sorted([login, *repeats])
