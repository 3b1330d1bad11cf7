"""``python -m crfdeid evaluate`` on tiny synthetic i2b2 XML folders."""

from __future__ import annotations

import json

import pytest

from crfdeid.cli.evaluate import main
from crfdeid.document import Document, make_span
from crfdeid.io import write

TEXT = "Dr Jonathan Smithers saw Mary Jones on 3/4/2091 in Springfield."  # synthetic


@pytest.fixture
def folders(tmp_path):
    gold = [Document("200-01", TEXT, [make_span(3, 20, "DOCTOR"), make_span(25, 35, "PATIENT"),
                                      make_span(39, 47, "DATE"), make_span(51, 62, "CITY")]),
            Document("200-02", "Nothing here.", []),
            Document("200-03", "Gold only.", [])]
    pred = [Document("200-01", TEXT, [make_span(3, 20, "DOCTOR"), make_span(25, 34, "PATIENT"),
                                      make_span(39, 47, "DATE")]),
            Document("200-02", "Nothing here.", []),
            Document("200-09", "System only.", [])]
    write(gold, "i2b2", tmp_path / "gold")
    write(pred, "i2b2", tmp_path / "pred")
    return tmp_path


def run(folders, *extra):
    return main(["--gold", f"i2b2:{folders / 'gold'}", "--pred", f"i2b2:{folders / 'pred'}",
                 "--quiet", *extra])


def test_tables_and_unpaired_documents(folders, capsys):
    assert run(folders) == 0
    out, err = capsys.readouterr()
    for title in ("Overall", "HIPAA", "Binary", "Per parent category", "Per subtype", "Leak view"):
        assert title in out
    assert "Documents scored: 2" in out
    assert "200-03" in out and "200-09" in out
    assert "2 document(s) on one side only" in err
    # strict: 2 of 4 gold found (DOCTOR, DATE), 2 of 3 system right -> P .6667 R .5 F1 .5714
    strict = next(line for line in out.splitlines() if line.startswith("Strict"))
    assert strict.split()[1:4] == ["0.6667", "0.5000", "0.5714"]
    assert "Jonathan" not in out and "Springfield" not in out


def test_json_keys_and_figures(folders, tmp_path):
    assert run(folders, "--json", str(tmp_path / "s.json"), "--errors") == 0
    data = json.loads((tmp_path / "s.json").read_text())
    assert set(data) >= {"documents", "micro", "macro", "by_category", "by_subtype", "leak", "errors"}
    assert set(data["micro"]) == {"strict", "relaxed", "token", "hipaa_strict", "hipaa_relaxed",
                                  "hipaa_token", "binary_strict", "binary_token",
                                  "binary_hipaa_strict", "binary_hipaa_token", "parent_strict"}
    assert set(data["micro"]["strict"]) >= {"precision", "recall", "f1", "tp", "fp", "fn"}
    assert {"precision_sd", "recall_sd"} <= set(data["macro"]["strict"])
    assert set(data["by_category"]["NAME"]) == {"micro", "macro"}
    # relaxed: PATIENT end 34 vs 35 matches -> 3 of 4 gold found
    assert data["micro"]["relaxed"]["tp"] == 3
    # 200-01 P 1 (3/3) R .75, 200-02 nothing (0, 0) -> macro relaxed P .5
    assert data["macro"]["relaxed"]["precision"] == 0.5
    assert data["documents"]["missing_in_pred"] == ["200-03"]
    assert data["errors"]["classes"]["missing"]["count"] == 1  # Springfield
    assert data["errors"]["classes"]["short"]["count"] == 1  # Mary Jone
    assert "gold_text" not in data["errors"]["examples"]["short"][0]


def test_json_to_stdout_replaces_tables(folders, capsys):
    assert run(folders, "--json", "-") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["leak"]["total"] == 4 and data["leak"]["removed"] == 2


def test_errors_show_text_only_on_request(folders, capsys):
    assert run(folders, "--errors", "--examples", "2") == 0
    out = capsys.readouterr().out
    assert "Error analysis" in out and "short" in out and "Mary" not in out
    assert run(folders, "--errors", "--show-text") == 0
    assert "Mary Jones" in capsys.readouterr().out


def test_filter_csv_and_plot(folders, tmp_path, capsys):
    assert run(folders, "--filter", "NAME", "--csv", str(tmp_path / "s.csv"),
               "--plot", str(tmp_path / "s.png")) == 0
    rows = (tmp_path / "s.csv").read_text().splitlines()
    assert rows[0].startswith("block,name,metric,average,precision,recall,f1")
    # NAME only: DOCTOR exact, PATIENT one short -> strict micro P .5 R .5
    assert "overall,ALL,strict,micro,0.5,0.5,0.5,1,1,1,1,," in rows
    assert not any(r.startswith("category,DATE") for r in rows)
    assert (tmp_path / "s.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("args,code,message", [
    (["--filter", "NAMES"], 1, "unknown category or subtype"),
    (["--examples", "-1"], 2, "--examples"),
])
def test_bad_arguments(folders, capsys, args, code, message):
    if code == 2:
        with pytest.raises(SystemExit) as exc:
            run(folders, *args)
        assert exc.value.code == 2
    else:
        assert run(folders, *args) == code
    assert message in capsys.readouterr().err


def test_unreadable_input_exits_1(folders, capsys):
    (folders / "gold" / "200-02.xml").write_text("<deIdi2b2><TEXT>")
    assert run(folders) == 1
    assert "200-02" in capsys.readouterr().err
