"""Redaction presets, custom templates, masking and span rebuilding (synthetic text only)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crfdeid.deid.redact import mask, redact
from crfdeid.deid.spans import merged_spans, propagate, replace_spans
from crfdeid.document import Document, make_span
from crfdeid.errors import ConfigError, RegistryError

TEXT = "Seen by Dr. Ann Lee at Mercy Hospital on 7/22/2097, age 45."


def doc():
    return Document("100-01", TEXT, [make_span(12, 19, "DOCTOR"), make_span(23, 37, "HOSPITAL"),
                                     make_span(41, 50, "DATE"), make_span(56, 58, "AGE")])


@pytest.mark.parametrize("style, expected", [
    ("mimic", "Seen by Dr. [**DOCTOR**] at [**HOSPITAL**] on [**DATE**], age [**AGE**]."),
    ("xyz", "Seen by Dr. XYZ_DOCTOR at XYZ_HOSPITAL on 00.00.DATE, age XYZ_AGE."),
    ("category", "Seen by Dr. [NAME] at [LOCATION] on [DATE], age [AGE]."),
    ("<{subtype}:{length}>", "Seen by Dr. <DOCTOR:7> at <HOSPITAL:14> on <DATE:9>, age <AGE:2>."),
])
def test_redaction_styles(style, expected):
    new = redact(doc(), style)
    assert new.text == expected
    assert [new.surface(sp) for sp in new.spans][0] in expected
    assert [sp.subtype for sp in new.spans] == ["DOCTOR", "HOSPITAL", "DATE", "AGE"]
    assert (new.doc_id, new.meta) == ("100-01", {})


def test_new_spans_cover_the_placeholders():
    new = redact(doc())
    assert [new.surface(sp) for sp in new.spans] == ["[**DOCTOR**]", "[**HOSPITAL**]", "[**DATE**]", "[**AGE**]"]


def test_unknown_style_and_bad_template_are_errors():
    with pytest.raises(RegistryError, match="mimic"):
        redact(doc(), "nosuchstyle")
    with pytest.raises(ConfigError, match="subtype"):
        redact(doc(), "{nosuchfield}")


def test_mask_keeps_length_offsets_and_layout():
    d = Document("1", "At 12 Elm St\nBoston MA.", [make_span(3, 22, "STREET")])
    new = mask(d, "*")
    assert len(new.text) == len(d.text)
    assert new.spans == [make_span(3, 12, "STREET"), make_span(13, 22, "STREET")]  # one per line
    assert new.text == "At ** *** **\n****** **."
    with pytest.raises(ConfigError):
        mask(d, "**")


def test_overlapping_spans_are_merged_not_dropped():
    d = Document("1", "abc Ann Lee xyz", [make_span(4, 7, "DOCTOR"), make_span(4, 11, "PATIENT")])
    assert merged_spans(d.spans) == [make_span(4, 11, "DOCTOR")]
    assert redact(d).text == "abc [**DOCTOR**] xyz"


def test_propagate_adds_unannotated_repeats_as_whole_words():
    d = Document("1", "Lee called; LEE said Leeds, Fleet. 45% at 45.",
                 [make_span(0, 3, "DOCTOR"), make_span(42, 44, "AGE")])
    spans = propagate(d).spans
    assert [(sp.start, sp.end, sp.subtype) for sp in spans] == [(0, 3, "DOCTOR"), (12, 15, "DOCTOR"),
                                                                (42, 44, "AGE")]


def test_a_span_starting_at_punctuation_is_found_again_in_another_case():
    # issue 36: the tagger's `-López` of `García-López` survived in `GARCÍA-LÓPEZ` as `-LÓPEZ`
    text = "Dr. García-López\nGARCÍA-LÓPEZ, ZOË"
    d = Document("1", text, [make_span(4, 10, "DOCTOR"), make_span(10, 16, "IDNUM"), make_span(31, 34, "DOCTOR")])
    assert redact(propagate(d)).text == "Dr. [**DOCTOR**][**IDNUM**]\n[**DOCTOR**]-[**IDNUM**], [**DOCTOR**]"
    assert "LÓPEZ" not in mask(propagate(d)).text


def test_a_word_of_a_name_is_found_again_on_its_own_where_written_with_a_capital():
    # noticed in issue 36: a bare `LÓPEZ` after the tagger's `García-López` was left
    text = "Sra. Ana García-López ingresa. LÓPEZ, hija; López llamó. Ms. Ann O'Hare and Hare; hare lip"
    spans = [make_span(text.index("Ana"), text.index(" ingresa"), "PATIENT"),
             make_span(text.index("Ann"), text.index(" and Hare"), "PATIENT")]
    out = redact(propagate(Document("1", text, spans))).text
    assert "LÓPEZ" not in out and "López" not in out and "Hare" not in out
    assert out.endswith("hare lip") and out.startswith("Sra. ")  # lower case may be a plain word


def test_titles_and_places_are_not_looked_for_word_by_word():
    text = "Mrs. Ann Lee of New York. Mrs Kim came; New patient; York Street"
    spans = [make_span(0, 12, "PATIENT"), make_span(16, 24, "CITY")]
    found = [(sp.start, sp.end) for sp in propagate(Document("1", text, spans)).spans]
    assert found == [(0, 12), (16, 24)]  # not `Mrs`, `Ann`, `Lee`: none repeated; not `New`, `York`


def test_repeats_are_whole_words_of_any_script():
    d = Document("1", "Łukasz saw ŁUKASZ and Łukaszów; Müller, MÜLLERS", [make_span(0, 6, "PATIENT"),
                                                                       make_span(32, 38, "DOCTOR")])
    assert [d.surface(sp) for sp in propagate(d).spans] == ["Łukasz", "ŁUKASZ", "Müller"]


@given(st.lists(st.tuples(st.integers(0, 40), st.integers(1, 8)), max_size=6),
       st.text(alphabet="abc XYZ", max_size=5))
def test_replaced_spans_always_match_the_new_text(raw, filler):
    text = "0123456789" * 5
    spans = [make_span(s, min(s + n, len(text)), "IDNUM") for s, n in raw]
    d = Document("1", text, spans)
    new = replace_spans(d, lambda sp, s: filler + s[::-1])
    merged = merged_spans(spans)
    assert [new.surface(sp) for sp in new.spans] == [filler + d.surface(sp)[::-1] for sp in merged]
