"""Surrogate output never changes a clinical value (issue 50 item 4): ``tag`` leaves scores,
grades, times, headings, labels and roles as written in every output mode, and counts the digits
a surrogate changed outside the spans of a Safe Harbor category (counts only, never text).

The notes are made up (UK, IN and US styles, lower case and telegraphic).
"""

from __future__ import annotations

import re

import pytest
from test_deid_surrogate import note

from crfdeid.cli import tag as tag_cli
from crfdeid.deid import Surrogator
from crfdeid.deid.writers import SurrogateWriter

NOTES = {
    "uk_a": "HANDOVER TO NIGHT RN\nMrs Gwendolyn Pike, 81F. GCS 15/15. MMSE 24/30. NEWS2 3.\n"
            "Strength 3/5 LLE. DTRs 1/4 ankles. Obs 05:02 stable. Will call family.\nMRN: 4471029.\n",
    "in_b": "ed triage note\npt 67 yo f, bib amb 05:02. mini-cog 3/5, gad-7 12, audit-c 5.\n"
            "power 4/5 rue, 5/5 lue. reflexes 2/4. pain 7/10. ct w omnipaque 300 - radiologist aware.\n"
            "dtap #4 given. rose-colored rash. will recheck k+ 0502h.\nd/w reg dr priya raghunathan.\n",
}
#: What must survive as written, per note.
KEPT = {"uk_a": ["HANDOVER TO NIGHT RN", "GCS 15/15", "MMSE 24/30", "NEWS2 3", "Strength 3/5 LLE",
                 "DTRs 1/4 ankles", "Obs 05:02", "Will call", "MRN:"],
        "in_b": ["ed triage note", "67 yo", "05:02", "mini-cog 3/5", "gad-7 12", "audit-c 5", "power 4/5 rue",
                 "5/5 lue", "reflexes 2/4", "pain 7/10", "omnipaque 300", "radiologist aware", "dtap #4",
                 "rose-colored rash", "will recheck k+ 0502h"]}


@pytest.fixture(scope="module")
def notes(tmp_path_factory):
    folder = tmp_path_factory.mktemp("notes")
    for name, text in NOTES.items():
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    return folder


@pytest.mark.parametrize("fmt, extra", [("redacted", []), ("masked", []), ("surrogate", ["--seed", "7"])])
def test_clinical_values_survive_every_output_mode(notes, tmp_path, capsys, fmt, extra):
    out = tmp_path / fmt
    assert tag_cli.main([str(notes), "--output-format", fmt, "--output-dir", str(out), "--site-mining", "off",
                         *extra]) == 0
    err = capsys.readouterr().err
    for name, phrases in KEPT.items():
        text = (out / f"{name}.txt").read_text(encoding="utf-8")
        assert [p for p in phrases if p not in text] == []
    if fmt == "surrogate":
        # the names are still replaced, and the summary counts digits, never shows them
        assert "Raghunathan" not in (out / "in_b.txt").read_text(encoding="utf-8").title()
        assert re.search(r"\d+ digit\(s\) changed outside the spans of a Safe Harbor category", err)
        assert "4471029" not in err and "Pike" not in err


def test_digits_changed_outside_safe_harbor_spans_are_counted(tmp_path):
    """A tagger's DOCTOR span over a score (a false positive) gets a surrogate: its changed digits are
    counted; a date's and a record number's are Safe Harbor's and are not."""
    doc = note("p50_a", "GAD-7 12 today; MRN 0048291; seen 3/14/2021 by Dr. Quill Ward 7B",
               ("GAD-7 12", "DOCTOR"), ("0048291", "MEDICALRECORD"), ("3/14/2021", "DATE"), ("Ward 7B", "DEPARTMENT"))
    s = Surrogator(seed=3)
    s.surrogate(doc)
    counted = s.summary()["digits_outside_safe_harbor"]
    assert 1 <= counted <= 4  # the 7, 1, 2 of the score and the 7 of the ward, as far as they changed
    with SurrogateWriter(tmp_path / "out", seed=3) as w:
        w.write(doc)
        line = w.summary()
    assert f"{counted} digit(s) changed outside the spans of a Safe Harbor category" in line
    clean = note("p50_b", "seen 3/14/2021, MRN 0048291", ("3/14/2021", "DATE"), ("0048291", "MEDICALRECORD"))
    s2 = Surrogator(seed=3)
    s2.surrogate(clean)
    assert s2.summary()["digits_outside_safe_harbor"] == 0
