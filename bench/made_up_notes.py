"""The shipped model (or any) on fifteen made-up notes of fifteen styles (issue 34 targets).

    python bench/made_up_notes.py --model crfdeid/_data/default-model [--show] [--o-threshold 0.93]

Reads ``bench/data/made_up_notes.txt`` (PHI marked ``[[SUBTYPE|text]]``), tags every note with
``Model.tag_many`` and prints per note and in all: the gold PHI tokens a predicted span misses
(Safe Harbor identifiers apart: every subtype but STATE, COUNTRY and PROFESSION) and the
predicted spans that overlap no gold span (placeholders on non-PHI). ``--show`` prints the
surfaces of both: the notes are made up, so they hold no one's PHI.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crfdeid.document import Document, make_span  # noqa: E402
from crfdeid.text.tokenize import tokenize  # noqa: E402

NOTES = Path(__file__).resolve().parent / "data" / "made_up_notes.txt"
NOT_SAFE_HARBOR = frozenset({"STATE", "COUNTRY", "PROFESSION"})
_MARK = re.compile(r"\[\[([A-Z-]+)\|([^\]]+)\]\]")


def read_notes(path: Path = NOTES) -> list[Document]:
    """The made-up notes as documents with their gold spans."""
    docs, name, lines = [], None, []

    def close():
        if name is not None:
            raw = "\n".join(lines).strip("\n") + "\n"
            text, spans, pos, last = [], [], 0, 0
            for m in _MARK.finditer(raw):
                text.append(raw[last:m.start()])
                pos += m.start() - last
                spans.append(make_span(pos, pos + len(m.group(2)), m.group(1)))
                text.append(m.group(2))
                pos += len(m.group(2))
                last = m.end()
            text.append(raw[last:])
            docs.append(Document(name, "".join(text), spans))
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") and name is None:
            continue
        m = re.fullmatch(r"=== (\S+) ===", line)
        if m:
            close()
            name, lines = m.group(1), []
        else:
            lines.append(line)
    close()
    return docs


def score(gold: list[Document], pred: list[Document]) -> dict:
    """Missed gold tokens (all, Safe Harbor) and false spans, per note and in all."""
    out = {"notes": {}, "missed": 0, "missed_safe_harbor": 0, "false_spans": 0, "gold_tokens": 0}
    for g, p in zip(gold, pred):
        missed, sh, false = [], 0, []
        for sp in g.spans:
            for t in tokenize(g.text[sp.start:sp.end]):
                a, b = sp.start + t.start, sp.start + t.end
                out["gold_tokens"] += 1
                if not any(q.start < b and a < q.end for q in p.spans):
                    missed.append((g.text[a:b], sp.subtype))
                    sh += sp.subtype not in NOT_SAFE_HARBOR
        false = [(g.text[q.start:q.end], q.subtype) for q in p.spans if not any(q.overlaps(x) for x in g.spans)]
        out["notes"][g.doc_id] = {"missed": missed, "false": false, "missed_safe_harbor": sh}
        out["missed"] += len(missed)
        out["missed_safe_harbor"] += sh
        out["false_spans"] += len(false)
    return out


def main(argv=None) -> int:
    from crfdeid.crf import Model
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", help="model file (default: the shipped model)")
    p.add_argument("--show", action="store_true", help="print the (made-up) surfaces of misses and false spans")
    p.add_argument("--o-threshold", type=float, help="P(O) threshold instead of the model's configured decoding")
    args = p.parse_args(argv)
    gold = read_notes()
    model = Model.load(args.model)
    thr = ... if args.o_threshold is None else args.o_threshold
    pred = list(model.tag_many([d.with_spans([]) for d in gold], o_threshold=thr))
    res = score(gold, pred)
    for name, r in res["notes"].items():
        line = (f"{name:14s} missed {len(r['missed']):2d} (Safe Harbor {r['missed_safe_harbor']})  "
                f"false spans {len(r['false']):2d}")
        if args.show:
            line += f"  missed={r['missed']} false={r['false']}"
        print(line)
    print(f"{len(gold)} notes, {res['gold_tokens']} gold PHI tokens: missed {res['missed']} "
          f"(Safe Harbor identifiers {res['missed_safe_harbor']}), false spans (placeholders on non-PHI) "
          f"{res['false_spans']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
