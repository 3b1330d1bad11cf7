"""A surrogate typed by a person cannot carry an original back in disguise: spaced, dotted,
digits for letters, look-alike letters of another script, a phone's digits alone (HTTP 422,
the value never echoed), and honest values still pass. Names and numbers are made up."""

from __future__ import annotations

import pytest

from crfdeid.review import lookalike

pytest.importorskip("fastapi", reason="the review extra is not installed (pip install crfdeid[review])")
pytest.importorskip("httpx", reason="httpx is needed by FastAPI's test client")

from fastapi.testclient import TestClient  # noqa: E402

from crfdeid.document import Document, make_span  # noqa: E402
from crfdeid.review.project import Project  # noqa: E402
from crfdeid.review.server import create_app  # noqa: E402

TEXT = "Josephine Romero, call 555-0142 or MRN 8830017. Seen 3/4."
SPANS = [make_span(0, TEXT.index(","), "PATIENT"),
         make_span(TEXT.index("555"), TEXT.index(" or"), "PHONE"),
         make_span(TEXT.index("883"), TEXT.index(". Seen"), "MEDICALRECORD"),
         make_span(TEXT.index("3/4"), len(TEXT) - 1, "DATE")]
DISGUISED = ["J o s e p h i n e  R o m e r o", "J.o.s.e.p.h.i.n.e", "J0seph1ne Rowe", "R0mer0",
             "Jоsерhinе Wells",  # Cyrillic о, р, е
             "Rοmerο",  # Greek omicron
             "j-o-s-e-p-h-i-n-e", "JOSEPHINE", "ro mero", "5550142", "(555) 014-2", "883 00 17",
             "5S5-Ol42", "555-O1A2", "883OOl7",  # letters for digits (issue 60)
             "five five five, zero one four two", "eight eight three oh oh one seven"]  # spelled out
HONEST = ["Wyn Moreau", "Tess Alder", "207-0199", "4471123", "Rosa Merino"]


@pytest.fixture
def project(tmp_path):
    p = Project.create(tmp_path / "proj")
    nid = p.store.add_note(Document("L-1", TEXT, [], {"patient": "901"}))
    p.store.set_suggestions(nid, SPANS, [0.9] * len(SPANS), 0, 1.0)
    yield p
    p.close()


@pytest.mark.parametrize("value", DISGUISED)
def test_a_disguised_original_is_refused_through_http_without_echo(project, value):
    c = TestClient(create_app(project, hosts=("testserver",)))
    h = {"X-Annotator": "alice"}
    c.post("/api/notes/1/open", headers=h, json={})
    assert c.post("/api/notes/1/done", headers=h, json={}).status_code == 200
    target = SPANS[1] if value[0] in "(5f" else SPANS[2] if value[:3] in ("883", "eig") else SPANS[0]
    r = c.put("/api/surrogates/1", headers=h, json={"start": target.start, "end": target.end, "value": value})
    assert r.status_code == 422 and value not in r.text and "Josephine" not in r.text
    assert project.store.db.one("SELECT COUNT(*) AS n FROM surrogates")["n"] == 0


@pytest.mark.parametrize("value", HONEST)
def test_an_honest_value_passes(value):
    assert not lookalike.survives(["Josephine Romero", "555-0142", "8830017", "3/4"], value)


@pytest.mark.parametrize("original,value", [
    ("niamh o'sullivan", "n i a m h kelly"),       # IE, lower case, spaced
    ("Priya Raghunathan", "Pr1ya Das"),            # IN, digits for letters
    ("Siobhan Byrne", "Sіobhan Moore"),            # Cyrillic і
    ("07700 900123", "07700900123"),               # UK mobile, digits alone
    ("0412 345 678", "+61 412345678"),             # AU mobile: its digits inside the value's
    ("617-555-6568", "6l7-5S5-6S68"),              # US phone, letters for digits (issue 60)
    ("617-555-6568", "six one seven five five five six five six eight"),  # spelled out
    ("617-555-6568", "Six-One-Seven 555 6568"),
])
def test_other_countries_and_styles_are_read_through(original, value):
    assert lookalike.survives([original], value)


def test_a_short_date_does_not_refuse_other_dates():
    assert not lookalike.survives(["3/4"], "5/12/2034")
