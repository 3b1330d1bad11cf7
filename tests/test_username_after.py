"""The Safe Harbor layer's user names after a record system's user word (issue 58, users28)."""

import pytest

from crfdeid.recognizers import safeharbor


def _users(text: str) -> list[str]:
    return [text[sp.start:sp.end] for sp in safeharbor.find(text) if sp.subtype == "USERNAME"]


@pytest.mark.parametrize("text, value", [
    ("typed 25/11/2026 by Ana Vella (user avella2)", "avella2"),
    ("VERIFIED 11/24/2026 BY J. RAMOS (LOGIN JRAMOS.KMC)", "JRAMOS.KMC"),
    ("ordered 23-NOV-2026; SCM USER TANWJ07; copy to ward", "TANWJ07"),
    ("LIS user quekmf01. Enquiries to the lab", "quekmf01"),
    ("19.11.2026 11:20; Benutzer steinerb; vidiert Dr. K. Huber", "steinerb"),
    ("registrado 23/11/2026 usuario pquispe; centro obstétrico", "pquispe"),
    ("validé par Y. Benali (utilisateur y.benali)", "y.benali"),
    ("18.11.2026 12:30; lietotājs kozola; copy", "kozola"),
    ("rapor 4471; kullanıcı ayildiz; epilepsi", "ayildiz"),
    ("app user marit.olsen51); last transmission", "marit.olsen51"),
    ("(user mbeki)", "mbeki"),
    ("Versicherung 1234. Login rkeller57.\nPraxis am Bahnhof", "rkeller57"),  # a line's end, not the note's
])
def test_a_user_name_after_its_word_is_found(text, value):
    assert _users(text) == [value]


@pytest.mark.parametrize("text", [
    "IV drug user (ex), cannabis user daily.",
    "wheelchair user.",
    "CPAP user nightly.",
    "heroin user x5.",
    "a user friendly interface; user education;",
    "regular user, smokes 10/day",
])
def test_a_user_of_something_is_no_user_name(text):
    assert _users(text) == []


def test_a_crf_span_over_the_user_word_is_cut_at_the_name():
    """The layer's union keeps the user word out of the span a writer gives a made-up name (users28's first version
    falsified ``usuario`` and ``Benutzer`` so)."""
    from crfdeid.document import make_span

    text = "factura fe-sa-26-0088; usuario pquispe\n"
    start = text.index("usuario")
    out = safeharbor.apply(text, [make_span(start, start + len("usuario pquispe"), "DOCTOR")])
    assert [(text[sp.start:sp.end], sp.subtype) for sp in out] == [("pquispe", "DOCTOR")]
    text = "Bozen BZ-3318   Benutzer steinerb\n"
    start = text.index("Benutzer")
    out = safeharbor.apply(text, [make_span(start, len(text) - 1, "HOSPITAL")])
    assert [(text[sp.start:sp.end], sp.subtype) for sp in out] == [("steinerb", "USERNAME")]
