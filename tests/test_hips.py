"""``python -m crfdeid audit hips``: residual identifiers among surrogates and among placeholders,
and an attacker CRF that learns to tell them apart. Synthetic notes only."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from audit_kit import reviewed_by_people

from crfdeid.audit import hips
from crfdeid.audit.tells import note_tells
from crfdeid.cli.audit import main
from crfdeid.deid.spans import deid_spans
from crfdeid.document import Document
from crfdeid.io import read, write
from crfdeid.synth import iter_documents

FAST = ["--max-iterations", "40", "--quiet"]


@pytest.fixture(scope="module")
def gold(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hips")
    write(list(iter_documents(24, 5)), "jsonl", folder / "gold.jsonl")
    return f"jsonl:{folder / 'gold.jsonl'}"


@pytest.fixture(scope="module")
def result(gold, tmp_path_factory):
    out = tmp_path_factory.mktemp("out") / "hips.json"
    assert main(["hips", "--gold", gold, "--json", str(out), "--residual", "0.2", "--seed", "4", *FAST]) == 0
    return json.loads(out.read_text())


def test_the_command_writes_the_attack_on_both_releases(result, gold):
    assert 0 <= result["attacker_recall"] <= 1 and result["attacker_precision"] is not None
    assert set(result["redacted"]) == {"attacker_recall", "attacker_precision"}
    s, c = result["surrogate"], result["counts"]
    assert s["attacker_recall"] == result["attacker_recall"] and s["found"] <= s["residual"]
    lo, hi = s["attacker_recall_interval"]
    assert lo <= s["attacker_recall"] <= hi
    assert sum(v["residual"] for v in s["by_category"].values()) == s["residual"]
    assert result["redacted_attack"]["residual"] == s["residual"]  # the same identifiers, both ways
    assert c["notes_released"] + c["notes_failed"] == c["notes"] == 24
    assert c["train_notes"] + c["test_notes"] == c["notes_released"]
    assert result["settings"]["seed"] == 4 and result["inputs"][0]["input"] == gold
    assert len(result["gold_digest"]) == 64
    assert s["tells"]["attributes"] and all(":*" not in a["attribute"] for a in s["tells"]["attributes"])


def test_the_residual_share_is_drawn_per_category():
    docs = list(iter_documents(20, 2))
    chosen = hips.choose_residual(docs, 0.25, seed=1)
    every = Counter(sp.category for d in docs for sp in deid_spans(d))
    left = Counter(sp.category for spans in chosen.values() for sp in spans)
    assert left == Counter({c: round(0.25 * n) for c, n in every.items() if round(0.25 * n)})
    assert chosen == hips.choose_residual(docs, 0.25, seed=1) != hips.choose_residual(docs, 0.25, seed=2)


def test_residual_identifiers_read_as_in_the_gold_notes_in_both_releases():
    docs = sorted(iter_documents(8, 3), key=lambda d: d.doc_id)
    chosen = hips.choose_residual(docs, 0.3, seed=0)
    sur, red, counts = hips.release(docs, chosen, hips.Settings(residual=0.3))
    gold = {d.doc_id: sorted(d.surface(sp) for sp in chosen.get(i, ())) for i, d in enumerate(docs)}
    for n in sur + red:
        assert sorted(n.text[sp.start:sp.end] for sp in n.real) == gold[n.doc_id]
    for n in red:  # every other identifier is a placeholder in the redacted release
        assert all(n.text[sp.start:sp.end].startswith("[**") for sp in n.generated)
    assert counts["notes_failed"] == 0


def _planted(n_notes: int) -> list[hips.Released]:
    """Notes whose residual names are upper case and whose surrogates are title case: a tell."""
    out = []
    first = ["Maria", "Pedro", "Lena", "Omar", "Clara", "Tomas"]
    for i in range(n_notes):
        real, sur = f"QUARTZELL{'ABCDEFGH'[i % 8]}", first[i % 6]
        text = f"Seen with {sur} today. Family: {real} called back.\nPlan: rest, fluids.\n"
        a, b = text.index(sur), text.index(real)
        spans = [hips.Span(a, a + len(sur), "NAME", "PATIENT")], [hips.Span(b, b + len(real), "NAME", "PATIENT")]
        out.append(hips.Released(f"{i}", f"p{i}", text, spans[1], spans[0]))
    return out


def test_an_obvious_tell_is_found_and_the_redacted_attack_is_computed():
    notes = _planted(24)
    train, test = list(range(12)), list(range(12, 24))
    s = hips._attack(notes, train, test, hips.SURROGATE, hips.Settings(), progress=False)
    assert s["attacker_recall"] >= 0.9 and s["attacker_precision"] >= 0.9
    redacted = [hips.Released(n.doc_id, n.group, n.text, n.real, []) for n in notes]
    r = hips._attack(redacted, train, test, hips.OUTSIDE, hips.Settings(), progress=False)
    assert r["residual"] == s["residual"] == 12 and r["attacker_recall"] is not None


def test_a_planted_case_tell_in_the_command_is_found(gold, result, tmp_path, monkeypatch):
    """Residual values all upper case, surrogates lower case: the attacker finds most of those with letters."""
    docs = []
    for doc in read(gold):
        text = list(doc.text)
        for sp in doc.spans:
            text[sp.start:sp.end] = doc.text[sp.start:sp.end].upper()
        docs.append(Document(doc.doc_id, "".join(text), doc.spans, doc.meta))
    write(docs, "jsonl", tmp_path / "upper.jsonl")

    class Lowered(hips.Surrogator):
        def surrogate(self, doc):
            out = super().surrogate(doc)
            text = list(out.text)
            for sp in out.spans:
                text[sp.start:sp.end] = out.text[sp.start:sp.end].lower()
            return Document(out.doc_id, "".join(text), out.spans, out.meta)
    monkeypatch.setattr(hips, "Surrogator", Lowered)
    out = tmp_path / "h.json"
    assert main(["hips", "--gold", f"jsonl:{tmp_path / 'upper.jsonl'}", "--json", str(out), "--residual", "0.4",
                 "--seed", "4", "--max-iterations", "100", "--quiet"]) == 0
    r = json.loads(out.read_text())
    worded = [r["surrogate"]["by_category"][c] for c in ("NAME", "LOCATION")]  # digits have no case
    assert sum(c["found"] for c in worded) >= 0.75 * sum(c["residual"] for c in worded)
    assert r["attacker_precision"] >= 0.6 and r["attacker_recall"] > 2 * result["attacker_recall"]
    assert r["redacted"]["attacker_recall"] is not None


def test_the_same_seed_gives_the_same_result(gold, result, tmp_path):
    out = tmp_path / "again.json"
    assert main(["hips", "--gold", gold, "--json", str(out), "--residual", "0.2", "--seed", "4", *FAST]) == 0
    again = json.loads(out.read_text())
    assert {k: v for k, v in again.items() if k != "date"} == {k: v for k, v in result.items() if k != "date"}


def test_the_result_holds_no_note_text(gold, result):
    words = {d.text[s.start:s.end] for d in read(gold) for s in d.spans if s.end - s.start >= 5}
    body = json.dumps(result)
    assert words and not [w for w in words if w in body]


def test_the_tells_read_casing_against_the_line_and_repetition():
    text = "PT SEEN BY Smith. SMITH AWARE.\nwife jones called\n"
    toks = [(m.group(), m.start(), m.end()) for m in __import__("re").finditer(r"\w+", text)]
    feats = note_tells(text, toks, Counter({"smith": 3}))
    smith, upper, jones = feats[3], feats[4], feats[8]
    assert "hips.casefit:other" in smith and "hips.casefit:same" in upper and "hips.casefit:same" in jones
    assert "hips.rep_note:2" in smith and "hips.rep_patient:3-5" in smith


def test_the_report_shows_the_measurement(result, tmp_path):
    path = tmp_path / "hips.json"
    path.write_text(json.dumps(result))
    page = hips.section(hips.load_summary(path))
    assert "Hiding in plain sight" in page and f"found {result['surrogate']['found']} of" in page
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(ValueError, match="not a result"):
        hips.load_summary(tmp_path / "bad.json")


def test_audit_report_shows_the_measurement_beside_the_bound(gold, result, tmp_path):
    (tmp_path / "hips.json").write_text(json.dumps(result))
    out = tmp_path / "audit"
    assert main(["sample", gold, "--out", str(out), "--notes", "3", "--seed", "1", "--output", "surrogate"]) == 0
    reviewed_by_people(out, gold, names=("sim-a", "sim-b"))
    assert main(["report", str(out), "--json", str(tmp_path / "r.json"), "--html", str(tmp_path / "r.html"),
                 "--hips", str(tmp_path / "hips.json")]) == 0
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["hips"]["attacker_recall"] == result["attacker_recall"]
    assert "Hiding in plain sight, measured" in (tmp_path / "r.html").read_text()
    assert main(["report", str(out), "--json", str(tmp_path / "r2.json"), "--hips", str(tmp_path / "r.json")]) == 2


def test_an_untrained_attacker_is_refused(gold, tmp_path, capsys):
    out = tmp_path / "hips.json"
    assert main(["hips", "--gold", gold, "--json", str(out), "--max-iterations", "2", "--quiet"]) == 2
    assert f"at least {hips.MIN_ITERATIONS}" in capsys.readouterr().err and not out.exists()


@pytest.mark.parametrize("edit,named", [
    (lambda r: r.update(attacker_recall=0.0), "attacker_recall"),
    (lambda r: r["surrogate"].update(found=0, attacker_recall=0.0), "totals"),
    (lambda r: r["settings"]["crf"].update(max_iterations=2), "settings are refused"),
])
def test_a_hand_edited_result_is_named_when_the_report_reads_it(result, tmp_path, edit, named):
    edited = json.loads(json.dumps(result))
    edit(edited)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(edited))
    with pytest.raises(ValueError, match=named):
        hips.load_summary(path)
    path.write_text(json.dumps(result))
    summary = hips.load_summary(path)
    assert summary["max_iterations"] == 40 and "40 iterations" in hips.section(summary)
