"""Surrogate output (issue 58 item 3, branch user43): a user name has no blank, so a ``USERNAME`` span with one took
its label in (``epr login cohagan3``): it gets a placeholder, never a made-up user name with the label's words
rewritten. Every note is made up; the user names are invented."""

from __future__ import annotations

import pytest
from deid_kit import tagged, written


@pytest.mark.parametrize("text, surface", [
    ("epr login cohagan3 viewed the chart at 02:10.", "epr login cohagan3"),
    ("Accessed by DIPS-bruker ihat0412 on the ward.", "DIPS-bruker ihat0412"),
    ("NIS LOGIN QUENBYK PRINTED THE PLAN.", "NIS LOGIN QUENBYK"),
])
def test_a_user_name_with_a_blank_took_its_label_in_and_gets_a_placeholder(text, surface):
    assert written(tagged(text, (surface, "USERNAME", 0.999)))[0] == "[**USERNAME**]"


def test_a_user_name_of_one_word_is_still_written_as_a_made_up_one():
    new = written(tagged("epr login: cohagan3 viewed the chart at 02:10.", ("cohagan3", "USERNAME", 0.999)))[0]
    assert "[**" not in new and new != "cohagan3"
