"""Train on your annotated corpus, tag its test part and score it: one command, no conversion.

Example::

    python -m crfdeid pipeline --train brat:corpus/train --test brat:corpus/test --out build/byo
    python -m crfdeid pipeline --config configs/byo-example.yaml --train brat:train --train brat:dev \\
        --test brat:test --out build/byo --reader-option label_map=labels.yaml

Writes into ``--out``:

* ``model``: the trained model (its config, label scheme and word lists inside);
* ``predictions/``: the test documents with the predicted spans, in the test
  corpus' own format and file names (BRAT: ``<id>.txt`` as read, byte-order mark
  included, beside ``<id>.ann``), so the corpus' own tools score them; a format
  without a writer (``physionet``, ``synth``) gets i2b2 XML;
* ``scores.json``: every figure of ``python -m crfdeid evaluate`` (``--json``);
* ``scores.md``: strict, relaxed and token figures overall and per label (markdown).

Without ``--config`` the pipeline config (:data:`PIPELINE_CONFIG`) is used: the
``byo`` feature set (lexical, orthographic, pattern and context features that read
no word list, so nothing English is used on notes in another language), Viterbi
decoding, no rule overlay. Labels are the training corpus' own unless the config
declares a scheme (:mod:`crfdeid.io.labelled`).

Exit codes: 0 success, 1 unreadable documents (none written unscored), 2 bad
config, arguments or output folder.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
import time
from pathlib import Path

from .. import cli
from ..config import load_config
from ..crf import train_model
from ..errors import CrfdeidError, OutputError
from ..io import atomic_write, check_input, check_output, describe_input, input_parts, spec_path, write_document, writer
from ..io.labelled import read_corpus, read_labelled, settle
from ..scoring import evaluate
from .train import parse_overrides

#: The config used without ``--config``: sensible for a corpus in any language.
PIPELINE_CONFIG = {
    "description": "pipeline default: any language, the corpus' own labels",
    "features": "byo",
    "crf": {"algorithm": "lbfgs", "c1": 0.05, "c2": 0.01, "max_iterations": 100,
            "feature.possible_transitions": True},
    "decoding": {"o_threshold": None},
    "rules": {"enabled": False},
    "seed": 13,
}
#: Writers of the formats whose predictions are written in the test corpus' own format.
OWN_FORMAT = {"brat": "brat", "i2b2": "i2b2", "jsonl": "jsonl", "csv": "csv"}


def _parser() -> argparse.ArgumentParser:
    p = cli.parser("pipeline", __doc__,
                   "python -m crfdeid pipeline --train brat:corpus/train --test brat:corpus/test "
                   "--out build/byo")
    p.add_argument("--config", help="YAML config (default: the pipeline config, see the docs)")
    p.add_argument("--train", action="append", required=True, metavar="FORMAT:PATH",
                   help="annotated training input (repeatable)")
    p.add_argument("--test", required=True, metavar="FORMAT:PATH", help="annotated test input")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder (model, predictions, scores)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a config value, e.g. crf.max_iterations=50")
    cli.add_reader_options(p, inputs="the training and test inputs")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    cli.add_overwrite(p)
    return p


def per_label_table(report) -> str:
    """Markdown: overall strict/relaxed/token micro figures, then strict, relaxed and token F1 and
    counts for every label of the scheme (gold, system, agree as in ``evaluate``)."""
    rows = ["| measure | P | R | F1 | TP | FP | FN |", "|---|---|---|---|---|---|---|"]
    for m in ("strict", "relaxed", "token", "binary_token", "parent_strict"):
        s = report.micro[m]
        rows.append(f"| {m} | {s.precision:.4f} | {s.recall:.4f} | {s.f1:.4f} | {s.tp} | {s.fp} | {s.fn} |")
    rows += ["", "| label | gold | system | strict P | strict R | strict F1 | relaxed F1 | token F1 |",
             "|---|---|---|---|---|---|---|---|"]
    for label, block in report.by_subtype.items():
        st = block["strict"]
        rows.append(f"| {label} | {st.tp + st.fn} | {st.tp_sys + st.fp} | {st.precision:.4f} | "
                    f"{st.recall:.4f} | {st.f1:.4f} | {block['relaxed'].f1:.4f} | {block['token'].f1:.4f} |")
    return "\n".join(rows) + "\n"


def prediction_output(test_spec) -> tuple[str, str]:
    """``(writer format, file name or '')`` of the predictions of ``test_spec``: the test corpus'
    own format (a stream format keeps the test file's name), i2b2 XML for formats without a writer."""
    fmt, path, _ = input_parts(test_spec)
    writer = OWN_FORMAT.get(fmt, "i2b2")
    return writer, (Path(path).name if writer in ("jsonl", "csv") and path != "-" else "")


def _missing_folders(out: Path) -> list[Path]:
    """The folders a run writing into ``out`` would make (``out/predictions`` and ``out`` and its
    parents that do not exist yet), deepest first."""
    made = [out / "predictions"]
    for folder in (out, *out.parents):
        if folder.exists():
            break
        made.append(folder)
    return [f for f in made if not f.exists()]


def _undo(pred_writer, made: list[Path]) -> None:
    """After a failure before anything was written: close the predictions' writer and remove the
    folders this run made, when empty (a failed run leaves no empty ``predictions`` behind that
    a next command would take for a result); never a file or a folder that held something."""
    try:  # a stream writer told the run failed writes no (empty) file
        if "ok" in inspect.signature(pred_writer.close).parameters:
            pred_writer.close(ok=False)
        else:
            pred_writer.close()
    except (CrfdeidError, OSError):
        pass
    for folder in made:
        try:
            folder.rmdir()
        except OSError:  # not empty, or not made after all
            pass


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    try:
        overrides = parse_overrides(args.set)
        overrides["train"] = args.train
        cfg = load_config(args.config if args.config else PIPELINE_CONFIG, overrides)
        options = cli.reader_options(args.reader_option)
        for spec in [*cfg["train"], args.test]:  # formats and options, before anything is read
            check_input(spec, **options)
        out = Path(args.out)
        made = _missing_folders(out)
        inputs = [spec_path(s) for s in [*cfg["train"], args.test]]
        check_output(out, inputs, overwrite=args.overwrite)
        for name in ("model", "scores.json", "scores.md"):
            check_output(out / name, inputs, overwrite=args.overwrite, stream=True)
        fmt, name = prediction_output(args.test)
        pred_out = out / "predictions" / name if name else out / "predictions"
        pred_writer = writer(fmt, pred_out, overwrite=args.overwrite, inputs=inputs)
    except (CrfdeidError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    declared = cfg["scheme"]
    t0 = time.perf_counter()
    try:
        train_docs, _ = read_corpus(cfg["train"], declared, **options)
        test_docs = read_labelled([args.test], declared, **options)
        model = train_model(train_docs, cfg, progress=not args.quiet)
        atomic_write(out / "model", model.to_bytes(), overwrite=args.overwrite)
        t1 = time.perf_counter()
        predicted = list(model.tag_many(test_docs))
        (gold, pred), scheme = settle([test_docs, predicted], declared, args.test)
    except CrfdeidError as exc:
        print(f"error: {exc}", file=sys.stderr)
        _undo(pred_writer, made)
        return 1
    report = evaluate(gold, pred, scheme=scheme)
    failed = []
    try:
        with pred_writer:
            for doc in predicted:  # the model's spans as the model writes them, the text as read
                err = write_document(pred_writer, doc)
                if err is not None:
                    failed.append(err)
    except OutputError as exc:
        failed.append(str(exc))
    data = report.to_dict()
    data["pipeline"] = {"train_documents": len(train_docs), "test_documents": len(test_docs),
                        "train_seconds": round(t1 - t0, 1), "model_scheme": model.scheme.summary(),
                        "resources": model.resources.summary(), "config": args.config or "pipeline default"}
    try:
        atomic_write(out / "scores.json", json.dumps(data, indent=2) + "\n", overwrite=args.overwrite)
        atomic_write(out / "scores.md", f"# Scores of {describe_input(args.test)}\n\nscheme: "
                     f"{scheme.summary()}\n\n" + per_label_table(report), overwrite=args.overwrite)
    except OutputError as exc:
        failed.append(str(exc))
    for err in failed:
        print(f"failed: {err}", file=sys.stderr)
    if not args.quiet:
        s = report.micro["strict"]
        print(f"model: {out / 'model'} ({model.scheme.summary()})\n"
              f"predictions: {pred_out} ({fmt})\n"
              f"strict micro: P {s.precision:.4f} R {s.recall:.4f} F1 {s.f1:.4f}\n"
              f"scores: {out / 'scores.json'}, {out / 'scores.md'}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
