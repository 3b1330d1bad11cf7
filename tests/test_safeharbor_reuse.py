"""The Safe Harbor layer's matches found while tagging are kept with the tagged note
(``Document.found``) and read again by the surrogate writer: they must be what
:func:`crfdeid.recognizers.safeharbor.matches` gives on the note, and the surrogate
output the same as when the writer searches the note itself. Made-up notes only."""

from __future__ import annotations

from dataclasses import replace

import pytest
from routed_kit import shipped_crf

from crfdeid.deid.writers import SurrogateWriter
from crfdeid.document import Document, Found, make_span
from crfdeid.io import read
from crfdeid.recognizers import safeharbor
from crfdeid.recognizers.steps import FOUND, Note, SafeHarbor

#: Made-up notes holding many of the layer's forms (US, UK, other countries' numbers, dates).
NOTES = [
    "Pt Ann Marlow, Age: 94, MRN 00482913. Seen Tues 9/3 by Dr. Okafor; fax 617-555-0199.\n"
    "Acct: 55821934, email ann.marlow@example.org, Twitter @amarlow_88.\n",
    "Mr John Kerr, NHS number 943 476 5919, 14 Station Road, Leeds LS1 4AB. Tel 0113 496 0000.\n"
    "Reviewed 03/04/2097 in clinic; next visit 12.05.2097. Card 4111 1111 1111 1111 on file.\n",
    "Baby Boy Lindqvist born 2097-07-22, BG Smith noted. IP 192.168.10.4, VIN 1HGCM82633A004352.\n",
    "no digits and no identifier of a fixed form here, only words.\n",
    "MRN\x0000482913 seen \uff17/\uff12\uff12/\uff12\uff10\uff19\uff18 (a control character and fullwidth digits).\n",
]


@pytest.fixture(scope="module")
def model(shipped_model):
    return shipped_crf(shipped_model)


@pytest.fixture(scope="module")
def synth_notes() -> list[Document]:
    """Made-up notes of several styles from the synthetic generator."""
    return list(read("synth:12,5"))


def test_known_matches_are_used_only_for_their_own_text():
    text = NOTES[0]
    found = Found(text, tuple(safeharbor.matches(text)))
    assert safeharbor.matches(text, found) == safeharbor.matches(text)
    other = "Seen " + text  # the same forms at other offsets
    assert safeharbor.matches(other, found) == safeharbor.matches(other) != list(found.matches)


@pytest.mark.parametrize("text", NOTES)
def test_the_step_keeps_what_apply_would_find(text):
    spans = [make_span(4, 8, "PATIENT")]
    note = Note(text)
    step = SafeHarbor()
    out = step(note, spans)
    assert note.memo[FOUND] == Found(text, tuple(safeharbor.matches(text)))
    note_again = Note(text)
    assert out == SafeHarbor()(note_again, spans)
    assert safeharbor.apply(text, spans, matched=safeharbor.matches(text)) == safeharbor.apply(text, spans)


def test_tagged_notes_carry_the_matches_of_their_text(model, synth_notes):
    docs = synth_notes + [Document(f"n{i}", text) for i, text in enumerate(NOTES)]
    for doc, tagged in model.tag_each(docs):
        assert tagged.found is not None
        # the chain reads the note as the tagger does (control characters, other digits replaced)
        expected = Found(tagged.found.text, tuple(safeharbor.matches(tagged.found.text)))
        assert tagged.found == expected
        assert tagged.found.text == doc.text or "\x00" in doc.text
        assert tagged.with_spans(tagged.spans).found is tagged.found


def test_surrogates_are_the_same_with_and_without_the_kept_matches(model, synth_notes):
    docs = synth_notes + [Document(f"n{i}", text, meta={"patient": "p1"}) for i, text in enumerate(NOTES)]
    tagged = [t for _, t in model.tag_each(docs)]
    assert sum(t.found is not None and t.found.text == t.text for t in tagged) >= len(docs) - 1
    kept, searched = SurrogateWriter("-", seed=7), SurrogateWriter("-", seed=7)
    for t in tagged:
        kept.learn(t)
        searched.learn(replace(t, found=None))
    for t in tagged:
        a, b = kept.transform(t), searched.transform(replace(t, found=None))
        assert (a.text, a.spans) == (b.text, b.spans)
    assert kept.surrogator.counts == searched.surrogator.counts
