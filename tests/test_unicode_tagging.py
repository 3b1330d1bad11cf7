"""Any Unicode text tags: property tests over all of Unicode (surrogates excluded).

Texts mix random characters of every category (astral planes, combining marks,
right-to-left and CJK scripts, digits of other scripts, NUL, line and paragraph
separators, the C0/C1 separators that ``str.isspace`` counts as white space) with
fragments of notes (titles, names, identifiers after their labels), so that the
tokenizer, every feature template, both tagging backends, the rule overlay and the
Safe Harbor layer meet them together. A longer run: ``python bench/unicode_fuzz.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crfdeid.config import load_config
from crfdeid.crf import Model, train_model
from crfdeid.document import Document
from crfdeid.recognizers import safeharbor
from crfdeid.text.tokenize import for_tagging, iter_tokens, tokenize

ROOT = Path(__file__).resolve().parent.parent

#: Characters that broke or could break code written for ASCII: other-script and
#: non-decimal digits, controls, separators, marks, astral and right-to-left letters.
SPECIAL = ("\x00", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\xa0", "\u2028", "\u2029",
           "\u200b", "\u200e", "\u202e", "\ufeff", "\xad", "²", "①", "½", "٣", "۹", "߀", "१", "໓",
           "𝟘", "𝟡", "Ⅻ", "〇", "\u0301", "\u20dd", "é", "ß", "İ", "ǅ", "ﬁ", "שלום", "مرحبا",
           "王小明", "Петров", "😀", "𐐀", "\U0010fffd", "\t", "\n", "\r\n", " ")
#: Fragments of notes the tagger and the rules react to.
FRAGMENTS = ("Dr. ", "Mr. ", "Smith", "Zoë Müller-Øster", "Age: 94", "94 yo", "MRN 00482913",
             "(617) 555-0199", "03/14/2098", "12:30", "mg/m²", "Baby Boy ", "BG ", "LV-3381204",
             "a@b.org", "www.x.org", "10.0.0.1", "Medicare # ", "1EG4-TE5-MK72", "St. ", " Hospital",
             "CABG '95", "bp 80/60", "0200", "Vitamin D 2000 IU", "ninety-four year old")

any_char = st.characters(exclude_categories=("Cs",))
piece = st.one_of(st.text(any_char, max_size=8), st.sampled_from(SPECIAL), st.sampled_from(FRAGMENTS))
notes = st.lists(piece, max_size=14).map("".join)

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """The default model and a tiny one with every feature group and the rules, each on
    both backends: ``[(numpy model, crfsuite model), ...]``."""
    cfg = load_config(ROOT / "configs" / "synth-small.yaml",
                      {"train": ["synth:12,7"], "features": "full", "crf": {"max_iterations": 8},
                       "rules": {"enabled": True}})
    tiny = train_model(None, cfg).save(tmp_path_factory.mktemp("unicode") / "tiny.model")
    return [(Model.load(path, backend="numpy"), Model.load(path, backend="crfsuite"))
            for path in (None, tiny)]


def _check_tokens(text: str, split_glued: bool):
    toks = tokenize(text, split_glued)
    assert list(iter_tokens(text, split_glued)) == toks
    pos, rebuilt = 0, []
    for t in toks:
        assert pos <= t.start < t.end and text[t.start:t.end] == t.text
        gap = text[pos:t.start]
        assert gap.isspace() or not gap
        assert t.glued_left == (t.start == pos and pos > 0 and bool(rebuilt))
        rebuilt.append(gap + t.text)
        pos = t.end
    rebuilt.append(text[pos:])
    assert "".join(rebuilt) == text
    assert text[pos:].isspace() or pos == len(text)


@settings(max_examples=700, **SETTINGS)
@given(notes)
def test_token_offsets_rebuild_the_text(text):
    for split in (True, False):
        _check_tokens(text, split)
        _check_tokens(for_tagging(text), split)


@settings(max_examples=700, **SETTINGS)
@given(notes)
def test_safe_harbor_layer_never_crashes_and_only_adds(text):
    found = safeharbor.find(text)
    assert all(0 <= s.start < s.end <= len(text) for s in found)
    predicted = [s for s in found[::2]]
    out = safeharbor.apply(text, predicted)
    covered = {i for s in out for i in range(s.start, s.end)}
    assert all(i in covered for s in found + predicted for i in range(s.start, s.end))
    assert all(a.end <= b.start for a, b in zip(out, out[1:]))


def _check_tagged(text: str, model, tagged: Document):
    assert (tagged.text, len(tagged.meta["confidence"])) == (text, len(tagged.spans))
    toks = tokenize(for_tagging(text), model.config["tokenizer"]["split_glued"])
    starts, ends = {t.start for t in toks}, {t.end for t in toks}
    for sp in tagged.spans:
        assert 0 <= sp.start < sp.end <= len(text)
        assert sp.start in starts and sp.end in ends, (sp, text)
    assert all(a.end <= b.start for a, b in zip(tagged.spans, tagged.spans[1:]))


@pytest.mark.slow
@settings(max_examples=300, **SETTINGS)
@given(notes)
def test_any_text_tags_the_same_on_both_backends(models, text):
    for by_numpy, by_crfsuite in models:
        a = by_numpy.tag_text(text)
        b = by_crfsuite.tag_text(text)
        _check_tagged(text, by_numpy, a)
        assert a.spans == b.spans
        # Batched tagging gives what one-by-one tagging gives.
        (doc, again), = by_numpy.tag_each([Document("x", text)])
        assert again.spans == a.spans


@pytest.mark.parametrize("text", ["Docetaxel 75 mg/m² given", "① ② dose", "٣٤ units of ۹", "𝟘𝟙 and ½",
                                  "Seen by Dr.\x00Smith today.", "Seen by Dr.\u200bSmith today.",
                                  # found by bench/unicode_fuzz.py: a URL ran over \x1c-\x1f (white space)
                                  "www.x.org\x1d\u200b\x1c", "94 yoSt. www.x.org\x1e\x1c\x0c"])
def test_texts_that_crashed_or_hid_a_name_tag(models, text):
    for by_numpy, by_crfsuite in models:
        tagged = by_numpy.tag_text(text)
        _check_tagged(text, by_numpy, tagged)
        assert tagged.spans == by_crfsuite.tag_text(text).spans


@pytest.mark.parametrize("sep", ["\x00", "\x01", "\u200b", "\ufeff", "\u202e"])
def test_a_control_character_does_not_hide_a_name(models, sep):
    default = models[0][0]
    plain = default.tag_text("Seen by Dr. Smith today.")
    hidden = default.tag_text(f"Seen by Dr.{sep}Smith today.")
    assert [(s.start, s.end, s.subtype) for s in hidden.spans] == \
        [(s.start, s.end, s.subtype) for s in plain.spans] == [(12, 17, "DOCTOR")]


DIGIT_DATES = {"fullwidth": "７/２２/２０９８", "arabic-indic": "٧/٢٢/٢٠٩٨", "devanagari": "७/२२/२०९८",
               "fullwidth slashes": "７／２２／２０９８"}


@pytest.mark.parametrize("script", DIGIT_DATES)
def test_a_date_in_the_digits_of_any_script_is_found(script):
    """Issue 61: ``７/２２/２０９８`` was kept; its digits now read as digits, each one character,
    so the span's offsets are the note's."""
    from crfdeid.tagging.session import Session
    date = DIGIT_DATES[script]
    note = f"Follow-up visit on {date} with the clinic."
    [rec] = Session(output_format="redacted").run([Document("n1", note)])
    assert rec.text == "Follow-up visit on [**DATE**] with the clinic."
    [span] = [s for s in rec.spans if s["type"] == "DATE"]
    assert note[span["start"]:span["end"]] == date


def test_the_tagging_view_keeps_every_offset():
    text = "Tel ５５５-０１４３ ٢٠٩٨ ＡＢ x²①"
    view = for_tagging(text)
    assert len(view) == len(text) and view == "Tel 555-0143 2098 AB x²①"  # superscripts, circled: not decimal digits
