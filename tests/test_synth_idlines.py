"""The ``specialty_ids`` and ``operative_ids`` styles: national numbers of python-stdnum's catalogue, numbers of
other kinds by their labels, organisations and addresses of many countries, beside clinical look-alikes."""

from __future__ import annotations

import importlib
import random
import re

import pytest
from synth_kit import check_deterministic_and_aligned, check_templates

from crfdeid.synth import generate
from crfdeid.synth.idlines import code, locales, national, places, schemes
from crfdeid.synth.idlines_templates import LINES, NUMBERS, ORGS
from crfdeid.synth.specialty import EXTRA_SLOTS
from crfdeid.synth.specialty_vocab import VOCAB
from crfdeid.synth.world import SLOTS

OWN = {"nid", "addr", "otown", *ORGS, "job", "hp", "hp_line", "mrn_line", "lic_line", "dev_line", "ref_line",
       "device_word", "contact"}


@pytest.fixture(scope="module")
def notes():
    return generate(200, seed=13, style="specialty_ids")


@pytest.mark.parametrize("style", ["specialty_ids", "operative_ids"])
def test_deterministic_and_aligned(style):
    """The same notes for the seed (through ``synth:`` too), other for another; spans valid and token-aligned;
    no slot or alternative left unfilled (``>`` stays: HGVS variants of the base style write it)."""
    check_deterministic_and_aligned(style, generate(120, seed=13, style=style), ascii_only=False,
                                    unfilled=r"[{}]|<[A-Za-z_0-9]+>|\$[hlstf]")


def test_templates_name_known_slots():
    check_templates(LINES, OWN | set(VOCAB) | set(EXTRA_SLOTS) | set(SLOTS))


@pytest.mark.parametrize("style", ["specialty", "operative"])
def test_the_same_notes_with_lines_added(style):
    """The ``_ids`` notes are the base style's notes (same patients and ids) with identifier lines added;
    a patient's later notes draw on after those lines."""
    base, more = generate(60, seed=13, style=style), generate(60, seed=13, style=f"{style}_ids")
    assert [d.doc_id for d in base] == [d.doc_id for d in more]
    assert len(more[0].text.splitlines()) > len(base[0].text.splitlines())  # the first note: same draws before
    assert sum(len(d.spans) for d in more) > sum(len(d.spans) for d in base)


def test_every_scheme_number_passes_its_stdnum_module():
    """Each number of ``id_schemes.tsv`` is valid by the python-stdnum module it was drawn for."""
    rows = schemes()
    assert len(rows) >= 80
    for module_name, subtype, words, numbers in rows:
        module = importlib.import_module(module_name)
        assert subtype in ("IDNUM", "SSN") and words and len(numbers) >= 5
        for number in numbers:
            assert module.is_valid(number), (module_name, number)


def test_a_corrupted_number_fails_its_check():
    """The check digits are real: changing the last digit of most numbers makes stdnum reject them."""
    rejected = total = 0
    for module_name, _, _, numbers in schemes():
        module = importlib.import_module(module_name)
        number = numbers[0]
        i = max(i for i, c in enumerate(number) if c.isdigit())
        bad = number[:i] + str((int(number[i]) + 1) % 10) + number[i + 1:]
        total += 1
        rejected += not module.is_valid(bad)
    assert rejected >= 0.7 * total  # a few schemes check a date or a range only


def test_national_numbers_in_notes_are_labelled_and_valid(notes):
    """A catalogue number written in a note is a span of its own (IDNUM or SSN), beside its label (before it or,
    since ids15, after it)."""
    known: dict = {}
    for m, _, words, numbers in schemes():
        for n in numbers:
            known.setdefault(n, []).append((m, words))
    seen = 0
    for doc in notes:
        for s in doc.spans:
            surface = doc.text[s.start:s.end]
            if surface in known and s.subtype in ("IDNUM", "SSN"):
                near = doc.text[max(0, s.start - 80):s.end + 80].lower()  # a note may be recased whole
                # the first letters of a label (the notes' misspellings may change a later one)
                assert any(w.lower()[:5] in near for _, words in known[surface] for w in words), doc.doc_id
                assert any(importlib.import_module(m).is_valid(surface) for m, _ in known[surface])
                seen += 1
    assert seen >= 50


def test_spans_are_where_the_text_is(notes):
    """Organisations, addresses and numbers of the new lines: each span's text is the drawn value, trimmed."""
    kinds = {s.subtype for d in notes for s in d.spans}
    assert {"ORGANIZATION", "HEALTHPLAN", "LICENSE", "DEVICE", "IDNUM", "STREET", "ZIP"} <= kinds
    for doc in notes:
        for s in doc.spans:
            surface = doc.text[s.start:s.end]
            assert surface and surface == surface.strip() and "\n" not in surface, doc.doc_id


def test_look_alikes_stay_plain(notes):
    """Drugs, brands and measures written beside the new numbers are never inside a span."""
    pattern = re.compile(r"(?:Implant|Mesh|Lens|Stent|Graft): (\S[^,]*?) \d")
    found = 0
    for doc in notes:
        for m in pattern.finditer(doc.text):
            assert not any(s.start < m.end(1) and m.start(1) < s.end for s in doc.spans), doc.doc_id
            found += 1
    assert found >= 3


def test_code_layouts_and_places():
    rng = random.Random(3)
    for subtype, (layouts, labels) in NUMBERS.items():
        for layout in layouts:
            value = code(rng, layout)
            assert len(value) == len(layout) and value.strip() == value, (subtype, layout)
        assert labels
    assert len(locales()) >= 40
    assert places("pl_PL", "firm") and places("de_DE", "suffix")
    pieces = national(rng)
    (subtype, number), = [x for x in pieces if isinstance(x, tuple)]
    assert subtype in ("IDNUM", "SSN") and number and any(isinstance(x, str) and x.strip() for x in pieces)
