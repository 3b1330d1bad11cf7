"""``python -m crfdeid audit``: the draw (reproducible from its seed, stratified, checked by
``verify``), the review projects it opens, and the report against an independent count of
what the model missed. Synthetic notes only."""

from __future__ import annotations

import json

import pytest
from audit_kit import reviewed_by_people

from crfdeid.audit import sample as audit_sample
from crfdeid.cli.audit import main
from crfdeid.crf import Model
from crfdeid.io import read, runmanifest, write
from crfdeid.review.project import Project
from crfdeid.scoring.leak import Leak
from crfdeid.synth import iter_documents


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    """30 synthetic notes as JSON Lines with a site and a year in their metadata."""
    folder = tmp_path_factory.mktemp("release")
    docs = []
    for i, doc in enumerate(iter_documents(30, 21)):
        doc.meta.clear()
        doc.meta.update({"site": "north" if i % 3 else "south", "year": str(2020 + i % 2)})
        docs.append(doc)
    write(docs, "jsonl", folder / "notes.jsonl")
    return f"jsonl:{folder / 'notes.jsonl'}"


def _sample(tmp_path, release, name, seed, *extra):
    out = tmp_path / name
    assert main(["sample", release, "--out", str(out), "--notes", "9", "--seed", str(seed), "--double", "3",
                 "--stratify", "site", *extra]) == 0
    return out, json.loads((out / "audit.json").read_text())


def test_the_sample_is_reproducible_from_its_seed_and_stratified(tmp_path, release):
    a, ma = _sample(tmp_path, release, "a", 5)
    b, mb = _sample(tmp_path, release, "b", 5)
    _, mc = _sample(tmp_path, release, "c", 6)
    ids = [n["doc_id"] for n in ma["notes"]]
    assert ids == [n["doc_id"] for n in mb["notes"]] and len(ids) == 9
    assert ids != [n["doc_id"] for n in mc["notes"]]
    # proportional allocation: 20 north and 10 south notes give 6 and 3
    strata = ma["release"]["strata"]
    assert {k: v["sampled"] for k, v in strata.items()} == {'["north"]': 6, '["south"]': 3}
    assert sum(n["part"] == "double" for n in ma["notes"]) == 3
    # the model's spans are recorded and are the suggestions of the review projects
    model = Model.load()
    by_id = {d.doc_id: d for d in read(release)}
    note = ma["notes"][0]
    assert note["model_spans"] == [[s.start, s.end, s.subtype] for s in model.tag(by_id[note["doc_id"]]).spans]
    p = Project.open(a / note["part"])
    try:
        row = next(r for r in p.store.notes() if r["doc_id"] == note["doc_id"])
        assert [[s["start"], s["end"], s["subtype"]] for s in p.store.spans(row["id"], "model")] == note["model_spans"]
        assert p.setting("per_note") == (2 if note["part"] == "double" else 1)
        assert p.setting("retrain_every") == 0  # the audited model never changes under the review
    finally:
        p.close()
    assert ma["model"]["sha256"] == runmanifest.sha256_file(ma["model"]["path"])
    raw = (a / "audit.json").read_text()
    assert ma["sample"]["seed"] == 5 and not [d for d in by_id.values() if d.text[:30] in raw]
    # a second draw into the same folder is refused
    assert main(["sample", release, "--out", str(a), "--notes", "9", "--seed", "5"]) == 2


def test_verify_draws_again_and_tells_a_changed_release(tmp_path, release, capsys):
    a, _ = _sample(tmp_path, release, "a", 8, "--stratify", "length", "--length-bins", "200")
    capsys.readouterr()
    assert main(["verify", str(a), "--evidence-only"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"]
    docs = list(read(release))
    docs[4] = docs[4].with_spans(docs[4].spans)
    docs[4].text = docs[4].text + " Added later."
    write(docs, "jsonl", tmp_path / "changed.jsonl")
    assert main(["verify", str(a), f"jsonl:{tmp_path / 'changed.jsonl'}"]) == 1
    checks = json.loads(capsys.readouterr().out)["checks"]
    assert checks["release_digest"] is False and checks["model_file"] is True


def test_strata_from_a_file_name_pattern_and_length():
    st = audit_sample.Strata(("site", "length"), (100,), r"(?P<site>[a-z]+)_\d+")
    from crfdeid.document import Document
    assert st.key(Document("north_12", "x", [], {}), 50) == ("north", "<100")
    assert st.key(Document("7", "x", [], {"source": "/r/south_3.txt"}), 100) == ("south", ">=100")
    assert st.key(Document("7", "x", [], {}), 5) == ("(none)", "<100")
    with pytest.raises(Exception):
        audit_sample.Strata(("length",), (), r"(?P<site>x)")  # a group not among the strata


def test_report_counts_what_the_model_missed_as_an_independent_count_does(tmp_path, release, capsys):
    a, manifest = _sample(tmp_path, release, "a", 3)
    gold = {d.doc_id: d for d in read(release)}
    # reviewers who find every gold identifier (miss 0): the misses are the gold spans the
    # model's spans do not fully cover, which scoring.leak counts on its own
    reviewed_by_people(a, release)
    assert main(["report", str(a), "--json", str(tmp_path / "r.json"), "--html", str(tmp_path / "r.html")]) == 0
    report = json.loads((tmp_path / "r.json").read_text())
    total = removed = 0
    from crfdeid.document import Span
    for n in manifest["notes"]:
        doc = gold[n["doc_id"]]
        pred = [Span(s, e, "X", sub) for s, e, sub in n["model_spans"]]
        leak = Leak.of_document(doc.spans, pred, doc.text)
        total, removed = total + leak.total, removed + leak.removed
    ids = report["identifiers"]
    assert (ids["total"], ids["found"]) == (total, removed)
    r = report["rates"]["residual_identifiers_per_token"]
    assert r["found"] == total - removed and r["trials"] == sum(n["tokens"] for n in manifest["notes"])
    assert report["projection"]["upper_residual_identifiers"] == pytest.approx(
        manifest["release"]["tokens"] * r["upper_one_sided"])
    # two perfect reviewers agree on everything: Chapman sees no identifier both missed
    rm = report["reviewer_misses"]
    assert rm["counts"]["notes"] == 3 and rm["chapman"]["unseen"] == 0
    assert report["sample"]["seed"] == 3 and report["reviewers"] == {"ann": 6, "bob": 6}
    page = (tmp_path / "r.html").read_text()
    assert manifest["model"]["sha256"] in page and "ann (6 notes)" in page and "<img" in page
    # no note text in either output: no gold identifier's surface string appears
    words = {doc.text[s.start:s.end] for doc in gold.values() for s in doc.spans if s.end - s.start >= 6}
    body = page + (tmp_path / "r.json").read_text()
    assert not [w for w in words if w in body]


def test_the_report_names_the_model_by_file_name_and_digest_not_by_its_folder(tmp_path, release):
    import shutil

    from crfdeid.tagging.model import DEFAULT_MODEL
    folder = tmp_path / "home-of-dr-example" / "models"
    folder.mkdir(parents=True)
    model = folder / "site-2026.model"
    shutil.copyfile(DEFAULT_MODEL, model)
    a, manifest = _sample(tmp_path, release, "a", 3, "--model", str(model))
    reviewed_by_people(a, release, names=("sim-a", "sim-b"))
    assert main(["report", str(a), "--json", str(tmp_path / "r.json"), "--html", str(tmp_path / "r.html")]) == 0
    digest = runmanifest.sha256_file(model)
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["model"] == {"file": "site-2026.model", "sha256": digest,
                               "config_sha256": manifest["model"]["config_sha256"]}
    for body in ((tmp_path / "r.json").read_text(), (tmp_path / "r.html").read_text()):
        assert "site-2026.model" in body and digest in body
        assert str(folder) not in body and "home-of-dr-example" not in body
    # what finds the model again keeps its path: verify checks the file, the review project loads it
    assert main(["verify", str(a), "--evidence-only"]) == 0
    p = Project.open(a / "review")
    try:
        assert p.current_model_path() == model.resolve()
    finally:
        p.close()


def test_reviewers_who_overlook_are_estimated_by_capture_recapture(tmp_path, release, capsys):
    a, _ = _sample(tmp_path, release, "a", 4, "--double", "9")
    reviewed_by_people(a, release, names=("sim-a", "sim-b"), miss=0.5, seed=2)
    capsys.readouterr()
    assert main(["report", str(a)]) == 1   # reviewers who overlook half miss canaries too: the audit fails
    report = json.loads(capsys.readouterr().out)
    assert report["warnings"] and all("canaries" in w for w in report["warnings"])
    c = report["reviewer_misses"]["counts"]
    assert c["notes"] == 9 and c["first"] + c["second"] - c["both"] == report["identifiers"]["missed"] + \
        report["identifiers"]["partial"]
    ch = report["reviewer_misses"]["chapman"]
    if c["both"]:
        assert ch["estimable"] and ch["total"] >= ch["seen"]
    else:  # no find in common: it cannot estimate, and says so
        assert not ch["estimable"] and ch["total"] is None and ch["lower"] is None


def _report_json(folder, capsys) -> str:
    capsys.readouterr()
    assert main(["report", str(folder)]) == 0
    return capsys.readouterr().out


def test_an_unfinished_review_is_reported_and_fails(tmp_path, release, capsys):
    a, _ = _sample(tmp_path, release, "a", 9, "--output", "surrogate")
    capsys.readouterr()
    assert main(["report", str(a), "--html", str(tmp_path / "r.html")]) == 1
    err = capsys.readouterr().err
    assert "9 sampled notes are not reviewed yet" in err
    page = (tmp_path / "r.html").read_text()
    assert "not reviewed yet" in page and "hiding in plain sight" in page  # surrogate output: Carrell's note
    p = Project.open(a / "review")
    try:
        assert p.store.setting("audit")["seed"] == 9
    finally:
        p.close()


def test_plan(capsys, release):
    assert main(["plan", "--per", "notes", "--target", "0.01", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["notes"] == 299
    assert main(["plan", "--per", "tokens", "--target", "10", "--release", release]) == 0
    assert "review " in capsys.readouterr().out
    assert main(["plan", "--per", "tokens", "--target", "10"]) == 2


@pytest.mark.parametrize("target, warned", [(4, True), (2000, False)])
def test_plan_warns_when_the_sample_is_the_whole_release_or_more(tmp_path, capsys, target, warned):
    docs = list(iter_documents(6, 3))
    write(docs, "jsonl", tmp_path / "six.jsonl")
    assert main(["plan", "--per", "tokens", "--target", str(target), "--expected", "2",
                 "--release", f"jsonl:{tmp_path / 'six.jsonl'}"]) == 0
    err = capsys.readouterr().err
    assert ("the release has 6" in err) is warned


def test_csv_columns_are_strata(tmp_path, capsys):
    rows = ["id,text,site,year"] + [f'n{i},"Seen on day {i} by the team.",{"east" if i % 4 else "west"},{2020 + i % 2}'
                                    for i in range(12)]
    (tmp_path / "notes.csv").write_text("\n".join(rows) + "\n")
    out = tmp_path / "a"
    assert main(["sample", f"csv:{tmp_path / 'notes.csv'}", "--out", str(out), "--notes", "4", "--seed", "1",
                 "--stratify", "site", "--reader-option", "meta_columns=site,year"]) == 0
    manifest = json.loads((out / "audit.json").read_text())
    assert {k: v["notes"] for k, v in manifest["release"]["strata"].items()} == {'["east"]': 9, '["west"]': 3}
    assert sorted(n["stratum"][0] for n in manifest["notes"]) == ["east", "east", "east", "west"]
    capsys.readouterr()
    assert main(["verify", str(out), "--evidence-only"]) == 0  # the reader options are recorded for the draw again
    # a column the table does not have is an error naming it
    assert main(["sample", f"csv:{tmp_path / 'notes.csv'}", "--out", str(tmp_path / "b"), "--notes", "4",
                 "--reader-option", "meta_columns=ward"]) == 2
    assert "'ward'" in capsys.readouterr().err
