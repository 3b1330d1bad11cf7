"""Surrogate output, a bar by kind (issue 58 item 3, docs/deid.md "A bar by kind, chosen on older sets and measured on
newer ones"; :mod:`crfdeid.deid.confident_bars`): a day and month alone in a note dated with years, and a name of one
word in one case, get a made-up value only when the tagger is at least 0.99 sure of them, a placeholder otherwise.
Full dates, bare dates of a note that writes no years, capitalised names, names of two words, a rule's spans and spans
the tagger is sure of keep their surrogates. Notes of several countries and casings; every note is made up."""

from __future__ import annotations

import pytest
from deid_kit import tagged

from crfdeid.deid import confident_bars
from crfdeid.deid.redact import redact
from crfdeid.deid.surrogate import Surrogator
from crfdeid.deid.writers import SurrogateWriter
from crfdeid.document import make_span


def written(doc) -> tuple[list[str], int]:
    """What each span became in surrogate output, and the spans counted as not confidently an identifier."""
    s = Surrogator(seed=7)
    out = s.surrogate(doc)
    return [out.surface(sp) for sp in out.spans], s.summary()["not_confident_spans"]


HELD = [  # made-up values on the code before this gate
    pytest.param("Letter dated 14/03/2025. Score today 9/24, improving.", ("9/24", "DATE", 0.97),
                 id="UK letter: a score out of a total"),
    pytest.param("Seen 03/14/2025. Symptoms for 3/12 now, settling.", ("3/12", "DATE", 0.97),
                 id="US note: three months written as a pair"),
    pytest.param("pt spoke with vera about discharge.", ("vera", "PATIENT", 0.97), id="lower case: one word"),
    pytest.param("Review 14/03/2025: VERA reports less pain.", ("VERA", "PATIENT", 0.97), id="capitals: one word"),
    pytest.param("SEEN BY DR OKAFOR TODAY.", ("OKAFOR", "DOCTOR", 0.97), id="capitals: a real name, the gate's price"),
]


@pytest.mark.parametrize("text, phi", HELD)
def test_a_thin_kind_the_tagger_is_less_than_099_sure_of_gets_a_placeholder(text, phi):
    assert written(tagged(text, phi)) == ([f"[**{phi[1]}**]"], 1)


@pytest.mark.parametrize("text, phi", HELD)
def test_the_same_span_the_tagger_is_sure_of_keeps_a_made_up_value(text, phi):
    [new], doubted = written(tagged(text, (phi[0], phi[1], 0.995)))
    assert "[**" not in new and new != phi[0] and doubted == 0


KEPT = [  # the same confidence, kinds with more evidence than the tagger's word
    pytest.param("Clinic 14/03/2025, next review 21/03/2025.", [("14/03/2025", "DATE", 0.97),
                                                                ("21/03/2025", "DATE", 0.97)], id="full dates"),
    pytest.param("Extubated 3/5, home 3/9.", [("3/5", "DATE", 0.97), ("3/9", "DATE", 0.97)],
                 id="a note of bare dates"),
    pytest.param("Seen by Dr Okafor today.", [("Okafor", "DOCTOR", 0.97)], id="a capitalised name"),
    pytest.param("SEEN BY DR ADA OKAFOR TODAY.", [("ADA OKAFOR", "DOCTOR", 0.97)], id="two words in capitals"),
    pytest.param("pt spoke with vera about discharge.", [("vera", "PATIENT", 1.0)], id="a rule's span"),
]


@pytest.mark.parametrize("text, phi", KEPT)
def test_other_kinds_at_the_same_confidence_keep_their_surrogates(text, phi):
    new, doubted = written(tagged(text, *phi))
    assert all("[**" not in n for n in new) and doubted == 0


@pytest.mark.parametrize("text, start, end, sub, confidence, want", [
    ("Clinic 14/03/2025. Pain 3/10 at rest.", 24, 28, "DATE", 0.98, "thin"),
    ("Clinic 14/03/2025. Pain 3/10 at rest.", 24, 28, "DATE", 0.99, None),  # the bar itself is sure enough
    ("Clinic 14/03/2025. Pain 3/10 at rest.", 24, 28, "DATE", None, None),  # a fixed form: no tagger's word
    ("Pain 3/10 at rest.", 5, 9, "DATE", 0.5, None),  # no year in the note: its dates are written bare
    ("kit", 0, 3, "PATIENT", 0.98, "thin"),
    ("kit", 0, 3, "HOSPITAL", 0.98, None),  # places are judged by their own evidence
    ("O'NEIL", 0, 6, "PATIENT", 0.98, None),  # two runs of letters
])
def test_thin_doubt(text, start, end, sub, confidence, want):
    assert confident_bars.thin_doubt(text, make_span(start, end, sub), confidence) == want


def test_the_summary_counts_them_and_redacted_output_is_unchanged(tmp_path):
    text = "Seen 03/14/2025 by Dr Okafor. Symptoms for 3/12 now."
    doc = tagged(text, ("03/14/2025", "DATE", 0.97), ("Okafor", "DOCTOR", 0.97), ("3/12", "DATE", 0.97))
    w = SurrogateWriter(tmp_path, seed=7)
    out = w.transform(doc)
    assert out.text.endswith("Symptoms for [**DATE**] now.") and out.text.count("[**") == 1
    assert "1 span(s) not confidently an identifier of their type" in w.summary()
    assert redact(doc).text == "Seen [**DATE**] by Dr [**DOCTOR**]. Symptoms for [**DATE**] now."
