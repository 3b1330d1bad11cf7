"""Surrogates for a corpus with its own labels (issue 36): a label whose name says date, age or
name gets that generator only when a scheme declares it or the user takes the guess
(``kinds=guess``); otherwise surrogate output is refused, naming the labels and the fix.

A made-up Spanish corpus, labels of its own; every name, date and number is invented.
"""

from __future__ import annotations

import random
import re

import pytest

from crfdeid.cli import main
from crfdeid.deid import Surrogator
from crfdeid.deid.kinds import guess_kind, settle_kinds
from crfdeid.document import Document, Span
from crfdeid.errors import ConfigError
from crfdeid.schema import Label, Scheme

NAMES = ["Íñigo Zubeldía", "Begoña Arrizabalaga", "Xoán Outeiriño", "Maite Goikoetxea"]
TEMPLATE = ("Paciente: {NombrePaciente}. Edad: {Edad} años. Ingresa el {Fecha}.\n"
            "Historia n.º {Codigo}. Alta el {Fecha}.\n")


def note(rng: random.Random) -> tuple[str, list[tuple[str, int, int]]]:
    """``(text, [(label, start, end)])`` of one made-up note."""
    text, spans = "", []
    for head, label, tail in re.findall(r"([^{]*)(?:\{(\w+)\})?([^{]*)", TEMPLATE):
        text += head
        if label:
            value = {"NombrePaciente": lambda: rng.choice(NAMES), "Edad": lambda: str(rng.choice([91, 93, 95])),
                     "Fecha": lambda: f"{rng.randint(1, 28):02d}/{rng.randint(1, 12):02d}/20{rng.randint(10, 23)}",
                     "Codigo": lambda: f"H{rng.randint(100000, 999999)}"}[label]()
            spans.append((label, len(text), len(text) + len(value)))
            text += value
        text += tail
    return text, spans


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("es") / "notas"
    root.mkdir()
    rng = random.Random(3)
    for i in range(16):
        text, spans = note(rng)
        (root / f"nota{i:02d}.txt").write_text(text, encoding="utf-8")
        (root / f"nota{i:02d}.ann").write_text("".join(f"T{j + 1}\t{lab} {a} {b}\t{text[a:b]}\n"
                                                       for j, (lab, a, b) in enumerate(spans)), encoding="utf-8")
    return root


SCHEME = Scheme("corpus", [Label(n, n) for n in ("Codigo", "Edad", "Fecha", "NombrePaciente")])


def test_label_names_suggest_generators_in_several_languages():
    assert [guess_kind(n) for n in ("FECHA_INGRESO", "Datum", "EdadPaciente", "NOMBRE", "NomMedecin",
                                    "Codigo", "TelefonoContacto")] == \
        ["date", "date", "age", "name", "name", None, "phone"]


def test_surrogates_for_labels_without_generators_are_refused_with_the_fix():
    with pytest.raises(ConfigError) as exc:
        Surrogator(seed=1, scheme=SCHEME)
    msg = str(exc.value)
    assert "Edad (looks like age)" in msg and "Fecha (looks like date)" in msg
    assert "NombrePaciente (looks like name)" in msg and "Codigo" not in msg.split("scheme")[0]
    assert "kinds=guess" in msg and "Fecha:date" in msg and "surrogate: " in msg
    # a declared scheme's generators, or the user's word, settle it
    declared, notes = settle_kinds(SCHEME, "Fecha:date,Edad:age,NombrePaciente:name")
    assert [lab.surrogate for lab in declared.labels] == [None, "age", "date", "name"]
    guessed, notes = settle_kinds(SCHEME, "guess,Codigo:id")
    assert [lab.surrogate for lab in guessed.labels] == ["id", "age", "date", "name"]
    assert notes == ["Codigo id (given)", "Edad age (guessed)", "Fecha date (guessed)",
                     "NombrePaciente name (guessed)"]
    with pytest.raises(ConfigError, match="no label Sexo"):
        settle_kinds(SCHEME, "guess,Sexo:random")


def test_guessed_generators_shift_dates_cap_ages_and_draw_real_names(corpus):
    sur = Surrogator(seed=5, scheme=SCHEME, kinds="guess")
    for path in sorted(corpus.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        spans = [Span(int(a), int(b), lab, lab) for lab, a, b in
                 re.findall(r"\t(\w+) (\d+) (\d+)\t", path.with_suffix(".ann").read_text(encoding="utf-8"))]
        new = sur.surrogate(Document(path.stem, text, spans))
        for sp in new.spans:
            value = new.text[sp.start:sp.end]
            if sp.subtype == "Edad":
                assert value == "90+"
            elif sp.subtype == "NombrePaciente":
                assert value not in NAMES and re.fullmatch(r"[A-Z][a-z'-]+(?: [A-Z][a-z'-]+)+", value), value
    assert sur.summary()["date_groups"] > 0


def test_tag_and_corpus_surrogate_refuse_then_take_the_guess(corpus, tmp_path, capsys):
    model = tmp_path / "m.model"
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"train: ['brat:{corpus}']\nfeatures: byo\ncrf: {{max_iterations: 15}}\nseed: 1\n",
                   encoding="utf-8")
    assert main(["train", "--config", str(cfg), "--output", str(model), "--quiet"]) == 0
    base = ["tag", "--model", str(model), "--output-format", "surrogate", "--seed", "2", str(corpus)]
    assert main([*base, "--input-format", "brat", "--output-dir", str(tmp_path / "o1")]) == 2
    err = capsys.readouterr().err
    assert "no surrogate generator for label(s)" in err and "kinds=guess" in err
    assert not (tmp_path / "o1").exists()  # refused before anything is written
    assert main([*base, "--input-format", "brat", "--output-dir", str(tmp_path / "o2"), "-o", "kinds=guess"]) == 0
    err = capsys.readouterr().err
    assert "generators from kinds: " in err and "Fecha date (guessed)" in err
    assert "0 date(s) moved" not in err
    out = " ".join(p.read_text(encoding="utf-8") for p in (tmp_path / "o2").glob("*.txt"))
    assert not any(name in out for name in NAMES)
    assert not re.search(r"Edad: 9[1-9] ", out)
    # corpus surrogate (gold spans): the same rule and the same option
    assert main(["corpus", "surrogate", f"brat:{corpus}", "--out", str(tmp_path / "c1"), "--seed", "2",
                 "--quiet"]) == 2
    assert "no surrogate generator" in capsys.readouterr().err
    assert main(["corpus", "surrogate", f"brat:{corpus}", "--out", str(tmp_path / "c2"), "--seed", "2",
                 "--quiet", "--kinds", "guess"]) == 0
