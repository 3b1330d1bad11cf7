"""A table's row of dates as its column heads (issue 58, daterows32: the Safe Harbor layer's ``row_day_month``,
crfdeid/recognizers/dateforms.py). Every row is made up."""

import pytest

from crfdeid.recognizers import dateforms


def _rows(text: str) -> list[str]:
    return [text[sp.start:sp.end] for _, sp in dateforms.matches(text)]


@pytest.mark.parametrize("text, dates", [
    ("Datum | 22.11 | 23.11 | 24.11\nHb | 12.1 | 11.0 | 10.2\n", ["22.11", "23.11", "24.11"]),  # day first
    ("Lab | 11.23 | 11.24 | 11.25 | 11.26", ["11.23", "11.24", "11.25", "11.26"]),  # month first
    ("Анализы | 02.11 | 18.11 | 25.11\n", ["02.11", "18.11", "25.11"]),  # days apart
    ("Fecha | 30/12 | 31/12 | 01/01 | 02/01\r\n", ["30/12", "31/12", "01/01", "02/01"]),  # the year's turn
    ("24.11 | 24.11 | 25.11.\n", ["24.11", "24.11", "25.11."]),  # no label, a day twice, a last dot
    ("Datum x 22.11 | 23.11 | 24.11 | 25.11\n", ["23.11", "24.11", "25.11"]),  # a cell with more than its date
    ("Päivä\t24.11.\t25.11.\t26.11.\n", ["24.11.", "25.11.", "26.11."]),  # cells parted by tabs (tabs35)
])
def test_a_row_of_dates_is_found(text, dates):
    assert _rows(text) == dates


@pytest.mark.parametrize("text", [
    "K | 4.2 | 3.9 | 4.2\n",  # values of one decimal
    "Creat | 1.12 | 1.15 | 1.18\n",  # two decimals, a one-digit part
    "VA | 6/9 | 6/12 | 6/18\n",  # visual acuities
    "X | 10.10 | 10.10 | 10.10\n",  # the same value three times
    "Datum | 22.11 | 23.11\n",  # two cells
    "Datum | 22.11 | Hb | 23.11 | 24.11\n",  # not side by side
    "Datum | 22.11 | 23/11 | 24.11\n",  # two separators
    "Datum | 24.11 | 22.11 | 28.12\n",  # backwards in both orders
    "Datum | 01.11 | 20.12 | 30.01\n",  # more than a month apart
    "Hb 22.11 23.11 24.11\n",  # no cells
    "Hb\t10.2\t11.4\t12.1\n",  # values parted by tabs
])
def test_rows_of_values_are_not_dates(text):
    assert _rows(text) == []
