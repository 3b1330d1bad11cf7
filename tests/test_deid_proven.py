"""``surrogates: proven`` (issue 58 item 3, docs/deid.md "Eighth round"; :mod:`crfdeid.deid.proven`): a made-up
value only where a fixed form, the tagger's confidence or a listed first name or a title proves the span's type, a
placeholder of its type otherwise; on by default (a bar of 0.95 with the model's word, names evidence on),
``proven=off`` turns it off. Every note is made up."""

from __future__ import annotations

import pytest
from deid_kit import tagged

from crfdeid.deid.surrogate import Surrogator
from crfdeid.deid.writers import SurrogateWriter
from crfdeid.document import Document, Span
from crfdeid.errors import ConfigError


def written(doc: Document, **options) -> list[str]:
    out = Surrogator(seed=7, **options).surrogate(doc)
    return [out.surface(sp) for sp in out.spans]


def realistic(new: str, old: str) -> bool:
    return "[**" not in new and new != old


SURNAME = ("Okafor aware of the plan. Reviewed today.", ("Okafor", "DOCTOR", 0.96))
TITLED = ("Seen by Dr. Okafor today, plan agreed.", ("Okafor", "DOCTOR", 0.8))
FIRST = ("Seen with Emily Quenby at the clinic.", ("Emily Quenby", "PATIENT", 0.8))
DAY_MONTH = ("Follow up after 3/14 with bloods.", ("3/14", "DATE", 0.8))


@pytest.mark.parametrize("note, span, bar", [(*SURNAME, 0.98), (*DAY_MONTH, 0.9)], ids=["surname", "day and month"])
def test_a_span_below_the_bar_with_nothing_else_proving_its_type_gets_a_placeholder(note, span, bar):
    doc = tagged(note, span)
    assert realistic(written(doc, proven="off")[0], span[0])  # off: the shape's evidence lets it through
    assert written(doc, proven=bar) == [f"[**{span[1]}**]"]
    assert realistic(written(doc, proven=span[2])[0], span[0])  # at the bar: proven


@pytest.mark.parametrize("note, span", [TITLED, FIRST], ids=["a title before it", "a listed first name"])
def test_a_title_or_a_listed_first_name_proves_a_name_unless_the_names_rule_is_off(note, span):
    doc = tagged(note, span)
    assert realistic(written(doc, proven=0.99)[0], span[0])
    assert written(doc, proven=0.99, proven_names=False) == [f"[**{span[1]}**]"]


def test_a_fixed_form_proves_its_type_whatever_the_tagger_s_confidence():
    doc = tagged("Results line 617-555-0143 any time.", ("617-555-0143", "PHONE", 0.6))
    assert realistic(written(doc, proven=0.99)[0], "617-555-0143")


def test_an_age_kept_as_written_and_a_user_s_spans_are_never_held():
    doc = tagged("A 67 year old seen by Okafor.", ("67", "AGE", 0.6), ("Okafor", "DOCTOR", None))
    assert written(doc, proven=0.99)[0] == "67"
    assert realistic(written(doc, proven=0.99)[1], "Okafor")


def test_the_placeholders_are_counted_by_type_and_the_writer_takes_the_option(tmp_path):
    w = SurrogateWriter(tmp_path, seed=3, proven=0.98)
    out = w.transform(tagged(*SURNAME))
    assert out.surface(out.spans[0]) == "[**DOCTOR**]"
    summary = w.surrogator.summary()
    assert summary["unproven_spans"] == 1 and summary["unproven_by_type"] == {"DOCTOR": 1}
    assert Surrogator(seed=3).summary()["unproven_spans"] == 0
    want = "1 span(s) whose type no fixed form, confidence of 0.98 or listed name proves [by type: DOCTOR 1]"
    assert want in w.summary()
    assert "whose type" not in SurrogateWriter(tmp_path, seed=3, proven="off").summary()  # off: the summary as it was
    assert "confidence of 0.95 or listed name proves" in SurrogateWriter(tmp_path, seed=3).summary()  # the default


def test_the_default_holds_a_span_below_0_95_or_one_the_model_doubts_and_off_writes_it():
    day = tagged(*DAY_MONTH)  # 0.8: below the default bar, nothing else proves a date
    assert written(day) == ["[**DATE**]"] and realistic(written(day, proven="off")[0], "3/14")
    assert realistic(written(tagged(*SURNAME))[0], "Okafor")  # 0.96: at the default bar


@pytest.mark.parametrize("off", ["off", "none", "null", None, False])
def test_every_spelling_of_off_turns_the_rule_off(off):
    assert Surrogator(seed=1, proven=off).proven is None
    assert written(tagged(*DAY_MONTH), proven=off) != ["[**DATE**]"]


@pytest.mark.parametrize("bar", [1.5, -0.1, "high"])
def test_a_bar_outside_0_to_1_is_refused(bar):
    with pytest.raises(ConfigError, match="proven"):
        Surrogator(seed=1, proven=bar)


def test_with_the_model_s_word_a_rule_s_span_the_model_doubts_is_no_proof():
    text = "Okafor aware of the plan. Reviewed today."
    doc = Document("n1", text, [Span(0, 6, "NAME", "DOCTOR", confidence=1.0, crf_confidence=0.4)], {"patient": "p1"})
    assert realistic(written(doc, proven=0.95, proven_model=False)[0], "Okafor")  # a rule's 1.0 passes the tagger's bar
    assert written(doc, proven=0.95, proven_model=True) == ["[**DOCTOR**]"]
    assert written(doc) == ["[**DOCTOR**]"]  # the default: the model's word on
