"""The release audit end to end with two reviewers in a real headless Chromium: plan, sample,
review in the page (each reviewer adds identifiers the model missed), report; the sample
drawn again from its seed. Made-up notes only."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi", reason="the review extra is not installed (pip install crfdeid[review])")
from crfdeid.review import headless  # noqa: E402

why = headless.available()
pytestmark = [pytest.mark.slow, pytest.mark.skipif(why is not None, reason=why or "")]

from test_review_browser import keys, press, start, wait_js  # noqa: E402

from crfdeid.cli.audit import main as audit_main  # noqa: E402
from crfdeid.crf import Model  # noqa: E402
from crfdeid.document import Document  # noqa: E402
from crfdeid.io import write  # noqa: E402
from crfdeid.review.project import Project  # noqa: E402
from crfdeid.review.server import create_app  # noqa: E402

#: Made-up notes; the odd words are identifiers a reviewer marks and the model does not know.
NOTES = [
    ("a-1", "north", "Seen by Dr. Lee on 3/4/2091. Her dog tag reads quillby and she feeds it at the shelter. "
                     "Follow up in two weeks."),
    ("a-2", "north", "Mr. Smith came with his neighbour and his daughter; the wristband code brambleton was "
                     "checked. BP stable, no fever."),
    ("a-3", "south", "Called by Dr. Patel on 5/6/2092. Keeps a garden marrowfen near the river. "
                     "Wound healing well."),
    ("a-4", "south", "Patient reports no pain today. Walked the corridor twice with the physiotherapist. "
                     "Plan unchanged."),
]


def select_word(driver, word):
    """Select ``word`` in the note with a DOM range (as a mouse would)."""
    return driver.execute_script("""
        const el = document.getElementById('review-text');
        for (const node of el.querySelectorAll('span')) {
          const i = node.textContent.indexOf(arguments[0]);
          if (i < 0 || !node.firstChild) continue;
          const r = document.createRange();
          r.setStart(node.firstChild, i); r.setEnd(node.firstChild, i + arguments[0].length);
          const sel = window.getSelection(); sel.removeAllRanges(); sel.addRange(r);
          return Number(node.dataset.s) + i;
        }
        return null""", word)


def review(driver, url, who, found):
    """Review every note in ``who``'s queue in the page: mark the words ``found`` names for the
    note (doc id -> words) as identifiers, then mark the note done."""
    start(driver, url, who)
    seen = []
    for _ in range(10):
        note = driver.execute_script("return state.review.note && [state.review.note.id, state.review.note.doc_id]")
        if not note:
            break
        nid, doc_id = note
        seen.append(doc_id)
        for word in found.get(doc_id, ()):
            assert select_word(driver, word) is not None, word
            keys(driver, "s")
            wait_js(driver, "return !document.getElementById('typemenu').hidden")
            keys(driver, "username")
            press(driver, "\n")
        keys(driver, "n")                            # done (a short note: its one page is read)
        wait_js(driver, f"return !state.review.note || state.review.note.id !== {nid}")
    return seen


def test_audit_plan_sample_two_reviewers_in_the_browser_report(tmp_path, capsys):
    docs = [Document(i, text, [], {"site": site}) for i, site, text in NOTES]
    model = Model.load()
    for doc, tagged in zip(docs, model.tag_many(docs)):   # the words are misses of the model
        for word in ("quillby", "brambleton", "marrowfen"):
            at = doc.text.find(word)
            assert at < 0 or not any(s.start < at + len(word) and s.end > at for s in tagged.spans), word
    write(docs, "jsonl", tmp_path / "release.jsonl")
    release = f"jsonl:{tmp_path / 'release.jsonl'}"
    assert audit_main(["plan", "--per", "notes", "--target", "0.5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["notes"] == 5
    audit = tmp_path / "audit"
    assert audit_main(["sample", release, "--out", str(audit), "--notes", "4", "--double", "2",
                       "--stratify", "site", "--seed", "17", "--canaries", "0"]) == 0
    manifest = json.loads((audit / "audit.json").read_text())
    double = sorted(n["doc_id"] for n in manifest["notes"] if n["part"] == "double")
    single = sorted(n["doc_id"] for n in manifest["notes"] if n["part"] == "review")
    words = {"a-1": ["quillby"], "a-2": ["brambleton"], "a-3": ["marrowfen"], "a-4": []}
    first_only = double[0]                          # alice sees its word, bob overlooks it
    with headless.chromium(1280, 800) as driver:
        driver.set_script_timeout(20)
        project = Project.open(audit / "double")
        try:
            with headless.live_server(create_app(project)) as url:
                assert sorted(review(driver, url, "alice", words)) == double
                bob = {d: w for d, w in words.items() if d != first_only}
                assert sorted(review(driver, url, "bob", bob)) == double
                keys(driver, "4")                    # progress: an audit's project is frozen, no retrain button
                wait_js(driver, "return document.getElementById('progress-body').textContent.includes('frozen')")
                assert driver.execute_script("return [...document.querySelectorAll('#progress-body button')]"
                                             ".filter(b => b.textContent.includes('Retrain')).length") == 0
        finally:
            project.close()
        project = Project.open(audit / "review")
        try:
            with headless.live_server(create_app(project)) as url:
                assert sorted(review(driver, url, "alice", words)) == single
        finally:
            project.close()
    # a script reviews faster than a person reads (bob, who adds nothing, decides nothing), and
    # without canaries the misses are unmeasured: the report says so and fails; its figures are the same
    assert audit_main(["report", str(audit), "--json", str(tmp_path / "r.json"),
                       "--html", str(tmp_path / "r.html")]) == 1
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["warnings"] and all("no canaries" in w or "faster than" in w or w.startswith("bob made no decision")
                                      for w in report["warnings"])
    marked = sum(len(words[d]) for d in double + single)
    rate = report["rates"]["residual_identifiers_per_token"]
    assert rate["found"] == report["identifiers"]["missed"] == marked
    assert report["by_type"]["USERNAME"]["missed"] == marked
    assert report["reviewers"] == {"alice": 4, "bob": 2}
    both = sum(len(words[d]) for d in double if d != first_only)
    c = report["reviewer_misses"]["counts"]
    assert (c["notes"], c["first"], c["second"], c["both"]) == (2, both + len(words[first_only]), both, both)
    page = (tmp_path / "r.html").read_text()
    assert "quillby" not in page and "alice (4 notes)" in page and manifest["model"]["sha256"] in page
    # the sample drawn again from its seed: the same notes, and verify agrees
    assert audit_main(["sample", release, "--out", str(tmp_path / "again"), "--notes", "4", "--double", "2",
                       "--stratify", "site", "--seed", "17", "--canaries", "0"]) == 0
    again = json.loads((tmp_path / "again" / "audit.json").read_text())
    assert [(n["doc_id"], n["part"]) for n in again["notes"]] == [(n["doc_id"], n["part"]) for n in manifest["notes"]]
    capsys.readouterr()
    assert audit_main(["verify", str(audit), "--evidence-only"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"]
