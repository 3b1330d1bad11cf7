"""A table's column of staff initials is a Safe Harbor name, written as a placeholder (issue 58, signcols38: the
layer's ``safeharbor.sign_columns``; the writer's ``confident_form`` part ``initials``). Every chart is made up; the
names and initials are invented."""

from __future__ import annotations

import pytest
from deid_kit import tagged, written

from crfdeid.recognizers import safeharbor

PIPES = ("Data | Entradas | Saídas | Balanço | Rubrica\n"
         "| 24-11 | 420 | 310 | +110 | MJQ |\n"
         "| 25-11 | 380 | 300 | +80 | AFT |\n"
         "| 25-11 | 520 | 240 | +280 | MJQ |\n"
         "Rubricas: MJQ = Enf.ª Maria Júlia Quaresma; AFT = Enf. Afonso Freitas Tavares\n")
TABS = ("Date\tTime\tGlucose\tFeed\tSign\n"
        "26.8.\t10.40\t2.1\tBF\tSK\n"
        "26.8.\t12.20\t2.9\tBF\tSK\n"
        "26.8.\t15.30\t3.1\tEBM\tHV\n"
        "Signatures: SK Sanna Kivimäki; HV Heidi Varpula\n")
BLANKS = ("Date       Time    Colour    Pulse    Sign\n"
          "26/11/26   08:00   pink      full     KM\n"
          "26/11/26   12:00   pink      full     KM\n"
          "26/11/26   16:00   pale      weak     LP\n"
          "Initials: KM Kate Mulcahy RN; LP Liam Pearce EN\n")


def _cells(text):
    return [text[sp.start:sp.end] for name, sp in safeharbor.matches(text) if name == "sign_column"]


@pytest.mark.parametrize("text, found", [
    (PIPES, ["MJQ", "AFT", "MJQ"]),                    # `|` cells, a header row without digits left out
    (TABS, ["SK", "SK", "HV"]),                         # tabs; the feed column's BF is no one's initials
    (BLANKS, ["KM", "KM", "LP"]),                       # a table aligned with blanks
    (TABS.upper(), ["SK", "SK", "HV"]),                 # capitals
])
def test_a_column_of_initials_a_name_of_the_note_signs_is_found(text, found):
    assert _cells(text) == found


@pytest.mark.parametrize("text", [
    TABS.lower(),                                                    # no upper-case letter
    TABS.replace("Signatures: SK Sanna Kivimäki; HV Heidi Varpula\n", ""),  # no name whose initials they are
    "HEURE | TA | DOULEUR | NAUSEES\n08:00 | 120/70 | OUI | NON\n12:00 | 118/72 | OUI | OUI\n"
    "16:00 | 121/70 | NON | OUI\nINF. ODILE NOEL, OLIVIER UGO INGRID\n",   # yes and no, whatever the note's names
    "Time | Drug | Route\n08:00 | Cefazolin | IV\n14:00 | Cefazolin | IV\n20:00 | Paracetamol | PO\n"
    "Irene Vance reviewed\n",                                        # a route's letters, even beside a name's
    "Name | Role\nAnn Lee | RN\nTom Hart | RN\n",                    # two rows under the header
])
def test_no_column_without_initials_of_a_name_or_enough_rows(text):
    assert _cells(text) == []


def test_the_writer_gives_the_column_s_initials_a_placeholder():
    assert written(tagged(TABS, ("SK", "DOCTOR", 0.999))) == ["[**DOCTOR**]"]
