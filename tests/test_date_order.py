"""Dates in either order (issue 50 item 1, item 6's dates, issue 51 item 5): the date check keeps
a date read day first, the Safe Harbor layer finds dotted, ISO and written dates, surrogates keep
the note's order, separators and padding, and the order is a setting (``auto`` decided from the
dates that read one way only). Every note here is made up."""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter

import pytest

from crfdeid.deid import dates
from crfdeid.deid.surrogate import Surrogator
from crfdeid.document import Document, make_span
from crfdeid.errors import ConfigError
from crfdeid.recognizers import dateforms, safeharbor
from crfdeid.recognizers.datecheck import impossible_date
from crfdeid.text import dateorder


def _spans(text: str, *surfaces: str) -> list:
    return [make_span(text.index(s), text.index(s) + len(s), "DATE") for s in surfaces]


# -- the date check: no date removed for its order -----------------------------------------------
@pytest.mark.parametrize("text, surface", [
    ("Reviewed in clinic 17/10/2023, plan unchanged.", "17/10/2023"),      # UK
    ("seen on 25-11-2021 by the registrar", "25-11-2021"),                 # AU, lower case
    ("Bloods repeated 31/01/24.", "31/01/24"),                             # IE, two-digit year
    ("review on 13/4 at the OPD", "13/4"),                                 # IN, day/month
    ("echo done 2023-10-17, ef 55%", "2023-10-17"),                       # CA, ISO
    ("next appt 10/17/2023", "10/17/2023"),                                # US
    ("admitted 4/98 with CHF", "4/98"),                                    # month/two-digit year
    ("dates 24/06/12/08 of the two visits", "24/06/12/08"),                # two day-month pairs
])
def test_the_date_check_keeps_a_date_in_either_order(text, surface):
    [sp] = _spans(text, surface)
    assert not impossible_date(text, sp)


@pytest.mark.parametrize("text, surface", [
    ("BP 120/80 sitting", "120/80"), ("bp 80/60", "80/60"), ("ratio 13/45", "13/45"),
    ("CP 4/10 on arrival", "4/10"), ("strength 4/4 strength", "4/4"), ("vancomycin day 4/7", "4/7"),
    ("PEEP 5/0 and", "5/0"), ("extubated at 2030", "2030"), ("vent 24/46/12/48", "24/46/12/48"),
])
def test_the_date_check_still_drops_what_is_no_date_in_any_order(text, surface):
    [sp] = _spans(text, surface)
    assert impossible_date(text, sp)


# -- the Safe Harbor layer: date forms -------------------------------------------------------------
@pytest.mark.parametrize("text, surface", [
    ("DOB 04.07.1961, lives alone", "04.07.1961"),                 # IE dotted
    ("d.o.b. 4.7.61 per GP letter", "4.7.61"),                     # UK, short
    ("Clinic letter dated 2024-05-03.", "2024-05-03"),             # ISO
    ("Specimen collected 2025-11-21T14:05 by lab", "2025-11-21"),  # ISO 8601 date-time: the date before its T
    ("received 2025-11-21T14:05:00Z", "2025-11-21"),
    ("seen 21/11/2025, sample 2025-11-21t14:05 sw1a 1aa", "2025-11-21"),  # a UK note in lower case
    ("scan 2024/05/03 reported", "2024/05/03"),
    ("DOB: 19610704", "19610704"),                                 # compact, after a date word
    ("seen on the 3rd of May by the team", "the 3rd of May"),
    ("reviewed 3 May 2024 in clinic", "3 May 2024"),
    ("Surgery May 3rd, 2024 uneventful", "May 3rd, 2024"),
    ("follow up 3rd May", "3rd May"),
    ("discharged 14 march, home", "14 march"),                     # lower case, full month
    ("Reviewed 17/10/2023.", "17/10/2023"),
    ("plan made Tue 12/03/2024 with family", "Tue 12/03/2024"),    # the weekday joins the date
    ("ward round wed 17/10", "wed 17/10"),
    ("thursday, 25-11-2021 seen", "thursday, 25-11-2021"),
])
def test_the_layer_finds_dates_of_other_countries_and_styles(text, surface):
    got = [text[s.start:s.end] for s in safeharbor.find(text) if s.subtype == "DATE"]
    assert surface in got


@pytest.mark.parametrize("text", [
    "pH 7.4, K 3.5, Mg 0.8", "prednisolone 2.5 mg", "software v3.10.12 updated", "lot 4.1.2",
    "IP 10.0.0.1", "obs at 05:02", "power 4/5 both legs", "reflexes 2/4", "BP 120/80", "ratio 3:1",
    "GAD-7 12, PHQ-9 8", "Mini-Cog 3/5", "those 3 may need review", "dec 3 units", "O2 SAT 9/10",
    "wed 1/2 NS", "ID 20240503 on file", "Hb 13.2.", "INR 1.2 on 3 mg",
])
def test_look_alikes_are_not_dates(text):
    assert [s for s in dateforms.matches(text)] == []
    assert [s for s in safeharbor.find(text) if s.subtype == "DATE"] == []


# -- reading and shifting ------------------------------------------------------------------------
@pytest.mark.parametrize("text, order, days, expected", [
    ("17/10/2023", None, -10, "07/10/2023"),       # day first, kept dd/mm/yyyy
    ("12/03/2024", "dmy", 30, "11/04/2024"),       # 12 March read day first
    ("12/03/2024", "mdy", 30, "01/02/2025"),       # 3 December read month first
    ("04.07.1961", None, 1, "05.07.1961"),         # dotted: day first unless set otherwise
    ("04.07.1961", "mdy", 1, "04.08.1961"),
    ("4.7.61", None, 30, "3.8.61"),
    ("1946-12-17", None, -200, "1946-05-31"),      # ISO keeps its padding
    ("20240503", None, 30, "20240602"),
    ("25-11-2021", "dmy", 10, "05-12-2021"),
    ("12/31/99", None, 1, "1/1/00"),               # month first, unpadded as written
    ("2024", None, 400, "2025"),                   # a year stays a year
    ("03/2024", "dmy", 40, "04/2024"),             # month-year stays month-year
    ("Tue 12/03/2024", "dmy", 1, "Wed 13/03/2024"),  # the weekday recomputed
    ("the 3rd of May", None, 1, "the 4th of May"),
])
def test_a_shifted_date_keeps_order_separators_and_padding(text, order, days, expected):
    assert dates.shift_text(text, days, order=order)[0] == expected


@pytest.mark.parametrize("text, order", [("12/03/2024", "dmy"), ("12/03/2024", "mdy"), ("04.07.1961", None),
                                         ("Mon 3/14/2022", None), ("1946-12-17", None)])
@pytest.mark.parametrize("days", [-400, -33, 9, 200])
def test_a_shifted_full_date_moves_by_exactly_the_offset(text, order, days):
    [p] = dates.parse(text, order=order)[0]
    new = dates.shift_text(text, days, order=order)[0]
    [q] = dates.parse(new, order=order)[0]
    want = dt.date(p.year, p.month, p.day) + dt.timedelta(days=days)
    assert (q.year, q.month, q.day) == (want.year, want.month, want.day)
    if p.weekday is not None:
        assert q.weekday == want.weekday()


# -- the setting and auto -------------------------------------------------------------------------
@pytest.mark.parametrize("texts, order, dmy, mdy", [
    (["seen 17/10/2023", "bloods 25-11-2021", "12/03/2024"], "dmy", 2, 0),      # UK batch
    (["seen 10/17/2023", "3/14/2022", "12/03/2024"], "mdy", 0, 2),              # US batch
    (["seen 17/10/2023", "3/14/2022", "25/11/2021"], "dmy", 2, 1),              # mixed: majority
    (["seen 17/10/2023", "3/14/2022"], None, 1, 1),                             # conflicting: a tie
    (["12/03/2024", "pH 7.4", "BP 120/80", "4/5 strength"], None, 0, 0),        # no evidence
])
def test_auto_decides_from_dates_that_read_one_way_only(texts, order, dmy, mdy):
    d = dateorder.decide("auto", dateorder.evidence(texts))
    assert (d.order, d.dmy, d.mdy) == (order, dmy, mdy)
    message = d.message()
    assert "/" not in message and "2024" not in message      # counts only, never a date
    if order is None:
        assert "undecided" in message and "none removed" in message


def test_a_set_order_that_the_dates_contradict_is_flagged():
    d = dateorder.decide("mdy", Counter({"dmy": 5}))
    assert d.order == "mdy" and "check the setting" in d.message()


@pytest.mark.parametrize("bad", ["DMY", "european", "", None])
def test_an_unknown_order_is_refused_listing_the_known(bad):
    with pytest.raises(ConfigError, match="auto, mdy, dmy, ymd"):
        dateorder.check_order(bad)


def _note(doc_id, patient, text, *surfaces):
    return Document(doc_id, text, _spans(text, *surfaces), {"patient": patient})


@pytest.mark.parametrize("order", ["auto", "dmy"])
def test_a_uk_batch_is_shifted_day_first_with_one_offset_per_patient(order):
    s = Surrogator(seed=5, date_order=order)
    a = s.surrogate(_note("n1", "p1", "Seen Tue 12/03/2024, reviewed 17/10/2024.", "Tue 12/03/2024", "17/10/2024"))
    b = s.surrogate(_note("n2", "p1", "Letter of 1 April 2024.", "1 April 2024"))
    first, second = dates.parse(a.text[5:19], order="dmy")[0][0], dates.parse(a.text[30:40], order="dmy")[0][0]
    moved = (dt.date(first.year, first.month, first.day) - dt.date(2024, 3, 12)).days
    assert (dt.date(second.year, second.month, second.day) - dt.date(2024, 10, 17)).days == moved
    [third] = dates.parse(b.text[10:], order="dmy")[0]
    assert (dt.date(third.year, third.month, third.day) - dt.date(2024, 4, 1)).days == moved
    assert first.weekday == dt.date(first.year, first.month, first.day).weekday()   # the weekday agrees
    assert "dmy" in s.summary()["date_order"]


def test_an_undecided_batch_keeps_the_month_first_reading_and_says_so():
    s = Surrogator(seed=5)
    out = s.surrogate(_note("n1", "p1", "Seen 12/03/2024.", "12/03/2024"))
    [p] = dates.parse(out.text[5:15])[0]
    assert (dt.date(p.year, p.month, p.day) - dt.date(2024, 12, 3)).days == s.state("p1").shift_days
    assert "undecided" in s.summary()["date_order"]


def test_an_unknown_order_is_refused_by_the_surrogator():
    with pytest.raises(ConfigError, match="known: auto"):
        Surrogator(seed=1, date_order="dm")


# -- config, site file, CLI -----------------------------------------------------------------------
def test_the_config_takes_a_date_order_and_refuses_another_value():
    from crfdeid.config import load_config
    assert load_config({"decoding": {"date_order": "dmy"}})["decoding"]["date_order"] == "dmy"
    assert "date_order" not in load_config({})["decoding"]       # model files saved as before
    with pytest.raises(ConfigError, match="auto, mdy, dmy, ymd"):
        load_config({"decoding": {"date_order": "british"}})


def test_the_site_file_takes_a_date_order(tmp_path):
    from crfdeid.site import Site
    (tmp_path / "site.yaml").write_text("date_order: dmy\n", encoding="utf-8")
    assert Site.load(tmp_path / "site.yaml").date_order == "dmy"
    (tmp_path / "bad.yaml").write_text("date_order: dym\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="known: auto, mdy, dmy, ymd"):
        Site.load(tmp_path / "bad.yaml")


def test_the_deidentifier_takes_the_setting_and_refuses_two_that_disagree():
    from crfdeid.adapters.records import Deidentifier
    deid = Deidentifier(output_format="surrogate", seed=1, date_order="dmy")
    assert deid.options["date_order"] == "dmy"
    assert Deidentifier(output_format="redacted").date_order == "auto"
    with pytest.raises(ConfigError, match="disagree"):
        Deidentifier(output_format="surrogate", seed=1, date_order="dmy", options={"date_order": "mdy"})


@pytest.mark.slow
@pytest.mark.parametrize("flag, expected", [([], "20/03/2024"), (["--date-order", "mdy"], None)])
def test_the_cli_flag_end_to_end(tmp_path, capsys, flag, expected):
    from crfdeid.cli.tag import main
    note = tmp_path / "n1.txt"
    note.write_text("Reviewed 17/10/2023 and 12/03/2024 in clinic.\n", encoding="utf-8")
    rc = main([str(note), "--output-format", "jsonl", "--quiet", *flag])
    assert rc == 0
    [rec] = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]
    got = sorted(rec["text"][s["start"]:s["end"]] for s in rec["spans"])
    assert "17/10/2023" in got and "12/03/2024" in got           # found and kept in either order
    rc = main([str(note), "--output-format", "surrogate", "--seed", "4", *flag])
    out, err = capsys.readouterr()
    assert rc == 0 and "date order: " in err and "17/10" not in err
    if flag:
        assert "as set" in err and "check the setting" in err
    else:
        assert "decided dmy" in err


# -- FHIR and HL7 values: precision and padding kept ----------------------------------------------
@pytest.mark.parametrize("value, compact, days, expected", [
    ("1946-12-17", False, -200, "1946-05-31"),                          # FHIR date
    ("2024-05", False, 40, "2024-06"),                                  # month precision stays
    ("2024", False, 400, "2024"),                                       # a year alone stays (Safe Harbor keeps it)
    ("2024-05-03T08:05:00.123+01:00", False, 1, "2024-05-04T08:05:00.123+01:00"),   # instant
    ("20240503", True, -3, "20240430"),                                 # HL7 DT
    ("202405031230", True, 1, "202405041230"),                          # HL7 DTM, minutes
    ("20240503123045.1234+0100", True, 31, "20240603123045.1234+0100"),
])
def test_record_dates_keep_their_precision_and_padding(value, compact, days, expected):
    from crfdeid.io.record_dates import shift_date
    assert shift_date(value, days, compact) == expected


def test_a_fhir_writer_takes_the_order_for_its_notes_and_a_redacting_one_ignores_it(tmp_path):
    from crfdeid.io.fhir import FhirWriter
    assert FhirWriter(None, text="surrogate", seed=1, date_order="dmy").inner.surrogator.date_order == "dmy"
    FhirWriter(None, text="redacted", date_order="dmy")   # no dates shifted: nothing to read in an order


@pytest.mark.parametrize("text, found, joined", [
    ("Family meeting Tue 12/03/2024 at noon.", "12/03/2024", "Tue 12/03/2024"),
    ("seen friday, 3 may 2024 in clinic", "3 may 2024", "friday, 3 may 2024"),
    ("Review Wednesday 17/10", "17/10", "Wednesday 17/10"),
])
def test_a_weekday_beside_a_found_date_joins_it_and_moves_with_it(text, found, joined):
    [crf] = _spans(text, found)
    spans = safeharbor.apply(text, [crf])
    assert [text[s.start:s.end] for s in spans] == [joined]
    s = Surrogator(seed=9, date_order="dmy")
    out = s.surrogate(Document("n1", text, spans, {"patient": "p1"}))
    [new] = out.spans
    [p] = dates.parse(out.text[new.start:new.end], order="dmy")[0]
    if p.year is not None:      # a full date: its weekday is the new date's
        assert p.weekday == dt.date(p.year, p.month, p.day).weekday()
    else:                       # no year: moved by the offset modulo 7
        assert p.weekday == (2 + s.state("p1").shift_days) % 7
