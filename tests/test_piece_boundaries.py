"""No name cut by a piece boundary survives: a long note is cut at safe points and tagged in
overlapping windows whose spans are merged (crfdeid.tagging.pieces), in every place that tags
long notes (``tag``, the Python API, the HTTP service, the Spark job, the review app's
suggestions). Made-up notes on one line: a made-up name lands on every cut position.
"""

from __future__ import annotations

import json
import warnings

import pytest

from crfdeid.document import Document, Span
from crfdeid.tagging import model as model_mod
from crfdeid.tagging.pieces import Pieces, merge, safe_point

# One line, no sentence end: every cut falls at white space, and shifting the note by one
# word of filler at a time moves the cuts over every place in the names. Every name is seen
# once (a writer also replaces a found name's repeats, which would hide a miss).
UNIT = "pt resting comfortably vitals stable seen by Dr {} {} today, will follow "
FIRST = ("Quillfeatherby", "Marbrenton", "Tesselwick", "Orlavine", "Brindlemoor", "Cazzaforth",
         "Pellinore", "Yravelle", "Dunhaxter", "Vorsellan", "Glimmerick", "Hastervold")
LAST = ("Zanzibarov", "Kettleborne", "Ardwhistle", "Pomfreyton", "Sallowmere", "Truncheval",
        "Wexinbray", "Fennimoult", "Ostravane", "Lurchfield", "Bramblecott", "Quenderby")
NAME = FIRST + LAST
BODY = "".join(UNIT.format(first, last) for first, last in zip(FIRST, LAST))
pytestmark = pytest.mark.filterwarnings("ignore:.*pandas >= 3.0.0.*:FutureWarning")
SIZE = 400  # characters of a piece here (250,000 in use); windows reach 80 further


def _notes() -> list[Document]:
    return [Document(f"n{k:03d}", "x " * k + BODY) for k in range(len(UNIT) // 2 + 8)]


NOTES = _notes()


def _leaks(doc: Document, covered_by) -> list[tuple[str, int]]:
    """The name parts of ``doc`` not wholly inside ``covered_by`` (a set of offsets)."""
    out = []
    for part in NAME:
        at = doc.text.find(part)
        while at >= 0:
            if not set(range(at, at + len(part))) <= covered_by:
                out.append((doc.doc_id, at))
            at = doc.text.find(part, at + 1)
    return out


def _covered(spans) -> set[int]:
    return {i for sp in spans for i in range(sp["start"] if isinstance(sp, dict) else sp.start,
                                             sp["end"] if isinstance(sp, dict) else sp.end)}


def test_the_notes_put_a_cut_before_each_part_of_the_name():
    # every cut after a "Dr ": before the first name, and inside the name (before the last)
    cuts = {(doc.doc_id, c) for doc in NOTES for c in Pieces(SIZE).cuts(doc.text)[1:-1]}
    before = {part for doc in NOTES for part in NAME if (doc.doc_id, doc.text.find(part)) in cuts}
    assert set(FIRST) & before and set(LAST) & before


def test_every_name_the_model_finds_whole_is_found_whole_at_every_cut(shipped_model, monkeypatch):
    whole = [t for _, t in shipped_model.tag_each(NOTES)]  # shorter than a piece: tagged whole
    assert not [leak for t in whole for leak in _leaks(t, _covered(t.spans))]
    monkeypatch.setattr(model_mod, "LONG_NOTE_CHARS", SIZE)
    cut = [t for _, t in shipped_model.tag_each(NOTES)]
    assert not [leak for t in cut for leak in _leaks(t, _covered(t.spans))]


def test_a_note_shorter_than_a_piece_is_tagged_as_before(shipped_model):
    # one window, no merge: the spans and confidences of the note tagged whole
    doc = NOTES[3]
    [(_, got)] = list(shipped_model.tag_each([doc]))
    want = shipped_model.tag(doc)
    assert got.spans == want.spans and got.meta == want.meta
    assert Pieces().windows(doc.text) == [(0, len(doc.text))]


def test_the_tag_command_redacts_every_name_at_every_cut(tmp_path, monkeypatch):
    from crfdeid.cli import tag
    from crfdeid.io import write
    src, out = tmp_path / "notes.jsonl", tmp_path / "out"
    write(NOTES, "jsonl", src)
    monkeypatch.setattr(model_mod, "LONG_NOTE_CHARS", SIZE)
    assert tag.main([str(src), "--input-format", "jsonl", "--output-format", "redacted",
                     "--output-dir", str(out), "--quiet"]) == 0
    written = {p.stem: p.read_text(encoding="utf-8") for p in out.iterdir() if p.suffix == ".txt"}
    assert len(written) == len(NOTES)
    assert not [i for i, text in written.items() if any(part in text for part in NAME)]


def test_the_service_redacts_every_name_at_every_cut(tmp_path, monkeypatch):
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():  # Starlette's advice to move to httpx2 is not about this project
        warnings.filterwarnings("ignore", message=".*httpx2.*")
        from fastapi.testclient import TestClient

    from crfdeid.serve.app import Settings, create_app
    monkeypatch.setattr(model_mod, "LONG_NOTE_CHARS", SIZE)
    docs = [{"id": d.doc_id, "text": d.text} for d in NOTES]
    with TestClient(create_app(Settings(max_documents=len(docs)))) as client:
        r = client.post("/v1/deidentify", json={"documents": docs, "output_format": "spans"})
    assert r.status_code == 200
    got = {d["id"]: d["spans"] for d in r.json()["documents"]}
    assert not [leak for d in NOTES for leak in _leaks(d, _covered(got[d.doc_id]))]


def test_the_review_apps_suggestions_cover_every_name_at_every_cut(tmp_path, shipped_model, monkeypatch):
    from crfdeid.review.project import Project
    from crfdeid.review.store import MODEL
    monkeypatch.setattr(model_mod, "LONG_NOTE_CHARS", SIZE)
    p = Project.create(tmp_path / "proj")
    ids = [p.store.add_note(d) for d in NOTES]
    p.suggest(shipped_model, ids, 0)
    leaks = [leak for nid, d in zip(ids, NOTES) for leak in _leaks(d, _covered(p.store.spans(nid, MODEL)))]
    p.close()
    assert not leaks


@pytest.mark.slow
def test_the_spark_job_redacts_every_name_at_every_cut(spark, shipped_model):
    from crfdeid.spark import deidentify
    shipped_model.pieces = Pieces(SIZE)  # pickled with the model to the executors
    try:
        df = spark.createDataFrame([(d.doc_id, d.text) for d in NOTES], "id string, text string")
        rows = deidentify(df, "redacted", model=shipped_model).collect()
    finally:
        shipped_model.pieces = None
    assert len(rows) == len(NOTES) and all(r["error"] is None for r in rows)
    assert not [r["id"] for r in rows if any(part in r["deid_text"] for part in NAME)]


@pytest.mark.parametrize("text, lo, hi, cut", [
    ("aaaa\nbbbb\ncccc", 4, 8, 5),          # after a line break
    ("seen today. Dr Lee came", 0, 20, 12),  # else after a sentence end
    ("seen by Dr. Ann Lee x", 0, 19, 16),    # not after a title: white space
    ("abcdefghijklmnop", 0, 6, 6),           # neither: the limit
])
def test_safe_points(text, lo, hi, cut):
    assert safe_point(text, lo, hi) == cut


@pytest.mark.parametrize("found, want", [
    # the same span from two windows: once, typed as the one farther from its cut
    ([((0, 20), {Span(16, 20, "NAME", "PATIENT"): 0.4}), ((10, 40), {Span(16, 20, "NAME", "DOCTOR"): 0.9})],
     {Span(16, 20, "NAME", "DOCTOR"): 0.9}),
    # half a name at one window's cut, the whole name in the other: the union
    ([((0, 20), {Span(16, 20, "NAME", "DOCTOR"): 0.4}), ((10, 40), {Span(12, 24, "NAME", "DOCTOR"): 0.9})],
     {Span(12, 24, "NAME", "DOCTOR"): 0.9}),
    # found by one window only: kept
    ([((0, 20), {Span(2, 5, "DATE", "DATE"): 0.8}), ((10, 40), {Span(30, 33, "NAME", "DOCTOR"): 0.7})],
     {Span(2, 5, "DATE", "DATE"): 0.8, Span(30, 33, "NAME", "DOCTOR"): 0.7}),
])
def test_merge_keeps_the_union_typed_by_the_span_with_most_context(found, want):
    got = merge(found, 40)
    assert got == want and list(got.values()) == list(want.values())


def test_windows_cover_the_note_and_reach_past_every_cut():
    text = json.dumps(BODY * 3)
    pieces = Pieces(SIZE)
    cuts, windows = pieces.cuts(text), pieces.windows(text)
    assert cuts[0] == 0 and cuts[-1] == len(text) and len(windows) == len(cuts) - 1
    for (a, b), (w0, w1) in zip(zip(cuts, cuts[1:]), windows):
        assert w0 <= max(0, a - pieces.reach) and w1 >= min(len(text), b + pieces.reach)
        assert w1 - w0 <= b - a + 4 * pieces.reach + 2
