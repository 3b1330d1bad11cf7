"""The order of a note's dates is the note's (issue 58 item 4): decided from its own dates that read
one way only, then its patient's, then the setting, then the batch's; a mixed batch keeps each
note's order and every interval between its dates; a date the model found is not removed for its
shape alone. Every note here is made up."""

from __future__ import annotations

import datetime as dt
from collections import Counter

import pytest

from crfdeid.deid import dates
from crfdeid.deid.surrogate import Surrogator
from crfdeid.document import Document, Span, make_span
from crfdeid.recognizers.datecheck import impossible_date
from crfdeid.recognizers.rules import overlay
from crfdeid.text import dateorder


def _note(doc_id: str, patient: str, text: str, *surfaces: str) -> Document:
    spans, pos = [], 0
    for s in surfaces:
        i = text.index(s, pos)
        spans.append(make_span(i, i + len(s), "DATE"))
        pos = i + len(s)
    return Document(doc_id, text, spans, {"patient": patient})


def _days(doc: Document, order: str) -> list[dt.date]:
    out = []
    for sp in doc.spans:
        [p] = dates.parse(doc.surface(sp), order=order)[0]
        out.append(dt.date(p.year, p.month, p.day))
    return out


def _intervals(days: list[dt.date]) -> list[int]:
    return [(b - a).days for a, b in zip(days, days[1:])]


UK = [_note("uk1", "p1", "Clinic 17/10/2025; review 03/11/2025 and 04/12/2025.", "17/10/2025", "03/11/2025",
            "04/12/2025"),
      _note("uk2", "p2", "Ward round 21/10/2025, bloods 05/11/2025, home 06/11/2025.", "21/10/2025", "05/11/2025",
            "06/11/2025")]
US = _note("us1", "p3", "CT chest 11/12/2025 compared with 06/03/2025; prior 10/28/2024.", "11/12/2025",
           "06/03/2025", "10/28/2024")


def _run(docs, **kw) -> tuple[Surrogator, dict]:
    s = Surrogator(seed=21, **kw)
    for d in docs:
        s.learn(d)  # as tag does: every note learnt before the first is written
    return s, {d.doc_id: s.surrogate(d) for d in docs}


@pytest.mark.parametrize("setting", ["auto", "dmy"])
def test_a_us_note_in_a_uk_batch_keeps_its_order_and_every_interval(setting):
    s, out = _run([*UK, US], date_order=setting)
    assert _intervals(_days(out["us1"], "mdy")) == _intervals(_days(US, "mdy"))   # Nov 12 / Jun 3 / Oct 28
    for d in UK:
        assert _intervals(_days(out[d.doc_id], "dmy")) == _intervals(_days(d, "dmy"))
    summary = s.summary()
    assert summary["notes_by_order"] == {"dmy": 2, "mdy": 1}
    assert summary["notes_by_order_source"] == {"note": 3}
    assert "2 dmy, 1 mdy (3 from the note)" in summary["date_order_notes"]


def test_a_note_with_ambiguous_dates_only_takes_its_patients_order():
    other = _note("us0", "p3", "Seen 10/28/2024.", "10/28/2024")
    alone = _note("us1", "p3", "CT chest 11/12/2025 compared with 06/03/2025.", "11/12/2025", "06/03/2025")
    s, out = _run([*UK, other, alone])
    assert _intervals(_days(out["us1"], "mdy")) == _intervals(_days(alone, "mdy"))
    assert s.summary()["notes_by_order_source"] == {"note": 3, "patient": 1}


def test_without_evidence_of_its_own_a_note_takes_the_setting_then_the_batch():
    plain = _note("x1", "p9", "Seen 11/12/2025.", "11/12/2025")
    s, _ = _run([*UK, plain], date_order="mdy")
    assert s.summary()["notes_by_order_source"] == {"note": 2, "setting": 1}
    s, _ = _run([*UK, plain])
    assert s.summary()["notes_by_order_source"] == {"note": 2, "batch": 1}
    assert s.summary()["notes_by_order"] == {"dmy": 3}


def test_the_summary_holds_counts_never_a_date():
    s, _ = _run([*UK, US])
    line = s.summary()["date_order_notes"] + s.summary()["date_order"]
    assert "2025" not in line and "/" not in line


@pytest.mark.parametrize("note, order, source", [
    ((Counter({"mdy": 1}), Counter({"dmy": 5}), Counter({"dmy": 9})), "mdy", "note"),
    ((Counter({"mdy": 1, "dmy": 1}), Counter({"dmy": 3}), Counter()), "dmy", "patient"),
    ((Counter(), Counter(), Counter({"mdy": 2})), "dmy", "setting"),
    ((Counter(), Counter(), Counter()), None, "undecided"),
])
def test_the_sources_in_their_order(note, order, source):
    setting = "dmy" if source == "setting" else "auto"
    assert dateorder.note_order(setting, *note) == (order, source)


# -- a date the model found is not removed for its shape alone -------------------------------------
@pytest.mark.parametrize("text, surface", [("Nights 22/23: settled, no PRN.", "22/23"),
                                           ("Handover 22/23 Feb: settled.", "22/23"),
                                           ("Weekend 30/31 uneventful.", "30/31")])
def test_two_days_the_model_found_are_kept(text, surface):
    i = text.index(surface)
    crf = [make_span(i, i + len(surface), "DATE")]
    assert not impossible_date(text, crf[0])
    assert [(sp.start, sp.end) for sp in overlay(text, crf)] == [(i, i + len(surface))]


def test_two_days_are_written_as_a_placeholder_not_another_date():
    doc = _note("h1", "p1", "Nights 22/23: settled.", "22/23")
    out = Surrogator(seed=4).surrogate(doc)
    assert out.surface(out.spans[0]) == "[**DATE**]"


@pytest.mark.parametrize("text, surface", [("BP 80/60 sitting.", "80/60"), ("RR was 24/30 on the vent.", "24/30")])
def test_what_is_no_date_in_any_reading_is_still_dropped(text, surface):
    i = text.index(surface)
    assert impossible_date(text, make_span(i, i + len(surface), "DATE"))


def test_a_tagged_day_and_month_alone_does_not_turn_its_note_day_first():
    """``13/10`` with no year, tagged, is as often a score: it tells the batch, not its note."""
    text = "GCS 13/10 earlier; seen 03/04 and 04/05."
    spans = [Span(text.index(s), text.index(s) + len(s), "DATE", "DATE", confidence=0.99) for s in ("13/10", "03/04",
                                                                                                     "04/05")]
    us = [_note(f"u{i}", f"q{i}", "Seen 10/28/2024.", "10/28/2024") for i in range(3)]
    s, _ = _run([*us, Document("n1", text, spans, {"patient": "q9"})])
    assert s.summary()["notes_by_order"] == {"mdy": 4}
    assert s.summary()["notes_by_order_source"] == {"note": 3, "batch": 1}
    user = Document("n2", text, [make_span(sp.start, sp.end, "DATE") for sp in spans], {"patient": "q8"})
    s, _ = _run([*us, user])                                              # a user's own dates tell their note
    assert s.summary()["notes_by_order"] == {"mdy": 3, "dmy": 1}


def test_the_check_reads_each_note_in_its_own_order():
    from crfdeid.deid.check import check
    s = Surrogator(seed=21)
    docs = [*UK, US]
    for d in docs:
        s.learn(d)
    pairs, orders = [], {}
    for d in docs:
        pairs.append((d, s.surrogate(d)))
        orders[d.doc_id] = s.last_order
    assert orders == {"uk1": "dmy", "uk2": "dmy", "us1": "mdy"}
    assert check(pairs, order=orders).interval_violations == 0
    assert check(pairs, order="dmy").interval_violations > 0     # one order for all misreads the US note


@pytest.mark.parametrize("text, dated, order", [
    ("CT chest 11/12/2025 compared with 06/03/2025. Lives in Boston, MA 02114.", ("11/12/2025", "06/03/2025"), "mdy"),
    ("Reviewed 03/04/2025 and 05/06/2025 by the GP; NHS number checked, lives SW1A 1AA.", ("03/04/2025",
                                                                                             "05/06/2025"), "dmy"),
])
def test_a_note_with_ambiguous_dates_only_takes_the_order_of_the_country_its_forms_tell(text, dated, order):
    other = [_note("b1", "r1", "Seen 10/28/2024.", "10/28/2024")] if order == "dmy" else UK
    note = _note("c1", "r9", text, *dated)
    s, out = _run([*other, note])
    assert _intervals(_days(out["c1"], order)) == _intervals(_days(note, order))
    assert s.summary()["notes_by_order_source"]["country"] == 1
    assert s.last_order == order


# -- a note's spelling tells its order when its dates do not ----------------------------------------
US_SPELT = _note("us2", "p4", "CT abdomen 11/12/2025 compared with 06/03/2025: no hemorrhage, esophagus normal, "
                 "color Doppler unremarkable.", "11/12/2025", "06/03/2025")


@pytest.mark.parametrize("setting", ["auto", "dmy"])
def test_a_us_note_with_ambiguous_dates_only_is_read_by_its_spelling_in_a_uk_batch(setting):
    s, out = _run([*UK, US_SPELT], date_order=setting)
    assert _days(out["us2"], "mdy")[0] > _days(out["us2"], "mdy")[1]              # Nov 12 after Jun 3
    assert _intervals(_days(out["us2"], "mdy")) == _intervals(_days(US_SPELT, "mdy"))
    assert s.summary()["notes_by_order_source"] == {"note": 2, "spelling": 1}


def test_british_spelling_reads_day_first_and_a_tie_or_one_word_tells_nothing():
    assert dateorder.spelling_order("Oesophagus normal, no haemorrhage, colour flow.") == "dmy"
    assert dateorder.spelling_order("No hemorrhage.") is None                       # one word: too little
    assert dateorder.spelling_order("Hemorrhage, edema; colour, tumour.") is None    # a tie
    assert dateorder.spelling_order("Hospitalization and organization.") is None     # -ize: Oxford spelling too


def test_a_canadian_note_s_spelling_tells_nothing():
    spelt = dateorder.spelling_order("colour, tumour, centre")
    assert dateorder.note_order("auto", Counter(), Counter(), Counter(), "CA", spelt) == (None, "undecided")
    assert dateorder.note_order("auto", Counter(), Counter(), Counter(), None, spelt) == ("dmy", "spelling")


@pytest.mark.parametrize("text", [
    "Colour flow; haemorrhage; oesophagus.", "COLOR Doppler, HEMORRHAGE, Esophagus",
    "Colour flow, İstanbul, haemorrhage", "\u212aelvin colour haemorrhage tumour", "naïve colour, centre"])
def test_spelling_order_reads_the_words_it_read_one_word_at_a_time(text):
    """The words are lower-cased after they are found (``İ`` or the Kelvin sign, lower-cased, would make
    ASCII letters of another script's): the fast path for ASCII notes reads the same words."""
    table = dateorder._spellings()
    seen = Counter(table[w] for w in {m.group().lower() for m in dateorder._WORD.finditer(text)} if w in table)
    us, gb = seen["US"], seen["GB"]
    lead = dateorder.SPELLING_LEAD
    assert dateorder.spelling_order(text) == ("mdy" if us - gb >= lead else "dmy" if gb - us >= lead else None)
