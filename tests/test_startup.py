"""What the start-up of ``tag`` leaves out (issue 53 item 4), and that leaving it out changes nothing.

The checks of python-stdnum and phonenumbers are imported on a note's first candidate number
(:class:`crfdeid.text.patterns.LazyModule`); the name lists' words are tested without building
their set (:func:`crfdeid.gazetteers.word_test`).
"""

import json
import subprocess
import sys

import pytest

from crfdeid.recognizers import fixedforms, phones
from crfdeid.text.patterns import LazyModule

# Modules a `tag` of a note without numbers must not import (each costs start-up time; yaml: no YAML read;
# the FHIR and HL7 v2 formats are imported when their name is first asked for, the surrogates' date and
# unit readers on the first surrogate or check, the process pool when a run asks for workers).
NOT_AT_START = ("stdnum", "phonenumbers", "yaml", "pandas", "wordfreq", "tqdm", "crfdeid.deid.surrogate",
                "crfdeid.io.fhir", "crfdeid.io.hl7", "crfdeid.deid.dategroups", "crfdeid.deid.guard",
                "crfdeid.deid.places", "multiprocessing", "concurrent")


def _modules_after(code: str) -> set:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys, json; print(json.dumps(sorted(sys.modules)))"],
                         capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.splitlines()[-1]))


def test_tagging_a_note_without_numbers_imports_no_number_checker(tmp_path):
    note = tmp_path / "note.txt"
    note.write_text("Seen by Dr. Ann Blake at Fairview Clinic.\n", encoding="utf-8")
    out = tmp_path / "out.txt"
    loaded = _modules_after(
        "import contextlib\nfrom crfdeid.cli.tag import main\n"
        f"with open({str(out)!r}, 'w') as f, contextlib.redirect_stdout(f):\n"
        f"    assert main(['--quiet', '--output-format', 'redacted', {str(note)!r}]) == 0")
    assert sorted(m for m in loaded if m.split(".")[0] in NOT_AT_START or m in NOT_AT_START) == []
    assert out.read_text(encoding="utf-8").startswith("Seen by Dr. [**")  # and the note was tagged


@pytest.mark.parametrize("text, form, module", [
    ("NHS number 943 476 5919 on file.", "nhs", "stdnum.gb.nhs"),  # made-up number, valid check digit
    ("call her on +44 20 7946 0018 tomorrow", "phone_intl", "phonenumbers"),  # Ofcom's drama range
])
def test_a_number_still_meets_its_checker_when_it_is_imported_late(text, form, module):
    out = subprocess.run([sys.executable, "-c", "import sys\nfrom crfdeid.recognizers import safeharbor\n"
                          f"print({module!r} in sys.modules, [m[0] for m in safeharbor.matches({text!r})], "
                          f"{module!r} in sys.modules)"], capture_output=True, text=True, check=True)
    line = out.stdout.strip().splitlines()[-1]  # not imported before the note, found in it, imported after
    assert line.startswith("False ") and line.endswith(" True") and repr(form) in line


def test_a_checker_that_cannot_be_imported_is_an_error_not_no_number():
    # fail closed: the failed import must not read as "not a valid number" (the check's own try)
    with pytest.raises(ImportError):
        fixedforms._valid(LazyModule("crfdeid_no_such_module"), "9434765919")


def test_lazy_modules_are_the_modules():
    import stdnum.gb.nhs
    assert fixedforms.gb_nhs.is_valid is stdnum.gb.nhs.is_valid
    assert fixedforms._valid(fixedforms.gb_nhs, "943 476 5919")
    assert not fixedforms._valid(fixedforms.gb_nhs, "943 476 5918")
    assert phones.possible_international("+44 20 7946 0018")


def test_the_formats_imported_on_first_use_are_found_by_name():
    out = subprocess.run([sys.executable, "-c", "import sys\nfrom crfdeid import io\n"
                          "before = sorted(m for m in io.ON_FIRST_USE.values() if m in sys.modules)\n"
                          "print(before, io.reader_for('fhir').__module__, io.writer_class('hl7').__module__, "
                          "{'fhir', 'hl7'} <= set(io.reader_names()) & set(io.writer_names()))"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["[]", "crfdeid.io.fhir", "crfdeid.io.hl7", "True"]


def test_a_made_up_training_set_in_a_config_imports_its_reader_only():
    # a model trained on made-up notes names `madeup` in its config, checked at every load: the plugins of
    # synthetic notes and PII forms are not imported for it
    out = subprocess.run([sys.executable, "-c", "import sys\nfrom crfdeid import io\n"
                          "print(io.reader_for('madeup').__module__, 'crfdeid.synth' in sys.modules)"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["crfdeid.experiments.madeup", "False"]
