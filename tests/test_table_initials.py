"""Staff initials alone in a table's cell are a Safe Harbor name (issue 58, initials31: the layer's
``table_initials`` form, crfdeid/_data/rules/safeharbor.tsv). Every note is made up; the initials are invented."""

from __future__ import annotations

import pytest

from crfdeid.recognizers import safeharbor


def _initials(text):
    return [text[sp.start:sp.end] for name, sp in safeharbor.matches(text) if name == "table_initials"]


@pytest.mark.parametrize("text, found", [
    ("Firma | C.S. | G.F. | C.S.\n", ["C.S.", "G.F.", "C.S."]),                  # a sign row
    ("Bisoprolol 2.5 mg | 08:10 S.R. | 08:20 L.M.\n", ["S.R.", "L.M."]),         # a clock time before them
    ("RGN | S.OD. | M.K\n", ["S.OD.", "M.K"]),                                    # two letters, a last dot missing
    ("ms | j.b. | a.k.", ["j.b.", "a.k."]),                                       # lower case, the note's end
    ("Paraf | H.Ç. | E.D.\n", ["H.Ç.", "E.D."]),                                  # letters of other alphabets
])
def test_initials_alone_in_a_cell_are_a_name(text, found):
    assert _initials(text) == found
    assert all(sp.subtype == "DOCTOR" for name, sp in safeharbor.matches(text) if name == "table_initials")


@pytest.mark.parametrize("text", [
    "Vía | i.v. | s.c. | p.o. | I.M.\n",                   # routes, any case
    "Frequency | t.d.s. | b.i.d. | p.r.n.\n",              # frequencies
    "Signed S.R. at 08:10 by the bedside\n",                # no table: the model's to find
    "Nurse | S.R. Okafor | 08:10\n",                         # initials beside a surname: no cell of initials alone
    "Dose | 2.5 | 1.25 |\n",                                 # numbers
    "Nurse | Okafor | R.N. | M.D.\n",                      # credentials
    "Firma: C.S., G.F.\n",                                   # no cell border
])
def test_routes_numbers_and_initials_outside_a_cell_are_not_taken(text):
    assert _initials(text) == []
