"""A table's row of staff initials without dots is a Safe Harbor name, written as a placeholder (issue 58, signrows34:
the layer's ``sign_row`` form, crfdeid/_data/rules/safeharbor.tsv, checked by ``safeharbor._sign_cells``; the
writer's ``confident_form`` part ``initials``). Every row is made up; the initials are invented."""

from __future__ import annotations

import pytest
from deid_kit import tagged, written

from crfdeid.deid import confident_form
from crfdeid.recognizers import safeharbor


def _cells(text):
    return [text[sp.start:sp.end] for name, sp in safeharbor.matches(text) if name == "sign_row"]


@pytest.mark.parametrize("text, found", [
    ("Sign. | HØ | HØ | TV | HØ\n", ["HØ", "HØ", "TV", "HØ"]),            # letters of other alphabets
    ("Observer | PMcD | PMcD | AOS | AOS\n", ["PMcD", "PMcD", "AOS", "AOS"]),  # a capital inside
    ("Sign | WSY | LKM | WSY |\n", ["WSY", "LKM", "WSY"]),                   # a border at the row's end
    ("RN | N.A. | K.W.L. | N.A.", ["N.A.", "K.W.L.", "N.A."]),              # dotted, the note's end
    ("Kuittaus\tRS\tMK\tMK\tTL\n", ["RS", "MK", "MK", "TL"]),             # cells parted by tabs (tabs35)
])
def test_a_row_of_initials_with_one_twice_is_found(text, found):
    assert _cells(text) == found


@pytest.mark.parametrize("text", [
    "Time | BP | HR | RR\n",             # a header's names: none twice
    "ACVPU | A | A | C\n",               # one letter a cell
    "OS | YES | YES | NO\n",             # a common word
    "Nurse | KB | KB | 08:10\n",         # a cell with digits
    "Sign | KB | Okafor | KB\n",         # a name of six letters
    "sign | kb | kb | oe\n",             # no capital (a note in lower case is the model's)
    "피하기종\t없음\t없음\t없음\n",          # a script without capitals: values (none, none, none)
    "Sign: KB, KB, OE\n",                # no cells
])
def test_other_rows_are_not_taken(text):
    assert _cells(text) == []


def test_its_cells_are_written_as_placeholders():
    text = "Sign. | HØ | HØ | TV\n"
    forms = [(name, sp) for name, sp in safeharbor.matches(text) if name == "sign_row"]
    assert [confident_form.against(text, sp, [(name, sp)]) for name, sp in forms] == ["initials"] * 3
    assert written(tagged(text, ("TV", "DOCTOR", 0.999))) == ["[**DOCTOR**]"]
