"""The hl7 writer's output for fixed spans (model-independent), kept in tests/data/hl7/expected,
so that a change of the reader or writer is seen byte for byte (tests/test_io_hl7_golden.py).

``spans.json`` holds the spans the shipped model found in each message on 2026-11-25 (with
``tag --input-format hl7 --output-format jsonl tests/data/hl7/``); the expected files are what
the writer makes of the messages with those spans. After a change meant to alter the output,
regenerate them and read their diff: ``python tests/hl7_golden.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).parent / "data" / "hl7"
EXPECTED = DATA / "expected"
#: style -> the writer's options.
STYLES: dict[str, dict] = {"redacted": {"seed": 5}, "surrogate": {"seed": 5}}


def spans() -> dict[str, list]:
    """``{doc id: [[start, end, category, subtype], ...]}`` of spans.json."""
    return json.loads((EXPECTED / "spans.json").read_text(encoding="utf-8"))


def render(style: str) -> dict[str, bytes]:
    """``{file name: output}`` of each message file of tests/data/hl7 with the fixed spans."""
    from crfdeid.document import Document, Span
    from crfdeid.io.hl7 import Hl7Writer, read_hl7

    fixed = spans()
    out = {}
    for src in sorted(DATA.glob("*.hl7")):
        writer = Hl7Writer(None, text=style, **STYLES[style])
        for doc in read_hl7(src, _raise):
            given = [Span(a, b, c, s) for a, b, c, s in fixed.get(doc.doc_id, [])]
            writer.write(Document(doc.doc_id, doc.text, given, doc.meta))
        out[src.name] = "".join(writer.rendered).encode("utf-8")
    return out


def _raise(err):
    raise err


if __name__ == "__main__":
    for style in STYLES:
        for name, data in render(style).items():
            (EXPECTED / f"{Path(name).stem}.{style}.hl7").write_bytes(data)
