"""The explain file of ``tag --explain FILE``: which words each note lost, why, and how sure the model was.

By the file's suffix:

- ``.html``: one self-contained page for a person (no script, no outside resource): each note
  with every span marked in the text, its type and what it became in the output (the
  placeholder, or the surrogate: only in this page, which the user asked for), the model's
  confidence and the steps that decided (the CRF found it, a rule widened or retyped it, site
  mining found a repeat...). First come a summary by category, the finds a step dropped, listed
  as "found by crf, then removed by RULE" (each a potential leak to check), and the spans of
  low confidence.
- ``.json``: one JSON array, ``.jsonl``: one JSON object a line, for programs: per note its
  ``id``, ``text`` and ``spans`` / ``dropped`` (``start``, ``end`` half-open, ``text``, ``type``,
  ``category``, ``confidence``, ``steps``), as :func:`crfdeid.tagging.session.explanation` gives
  them plus the text, and for each span ``became``: the text written in its place (None where
  the output does not say).

The file holds the notes' text and their PHI: it is written as an output is (owner-only, through
a temporary file renamed when complete, never over an input or an output, an existing file only
with ``--overwrite``), and never to a terminal or a log.

>>> ExplainWriter.kind("out/why.HTML"), ExplainWriter.kind("why.jsonl")
('html', 'jsonl')
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from ..document import Document
from ..errors import ConfigError
from .outputs import StreamWriter

#: The file kinds by suffix.
KINDS = {".html": "html", ".htm": "html", ".json": "json", ".jsonl": "jsonl"}
#: Below this confidence a span is listed among the uncertain ones at the top of the page.
UNSURE = 0.5
#: A colour per category (the page's marks and legend).
COLOURS = {"NAME": "#ffd6a5", "DATE": "#caffbf", "LOCATION": "#9bf6ff", "CONTACT": "#bdb2ff",
           "ID": "#ffc6ff", "AGE": "#fdffb6", "PROFESSION": "#e0e0e0", "OTHER": "#ffadad"}

_HEAD = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>crfdeid: what was removed and why</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:70rem;padding:1rem;display:flex;flex-direction:column}
#summary{order:-1} h1{font-size:1.3rem} h2{font-size:1.05rem;margin:1.6rem 0 .3rem}
pre{white-space:pre-wrap;background:#fafafa;border:1px solid #ddd;padding:.7rem;font:13px/1.5 ui-monospace,monospace}
mark{border-radius:3px;padding:0 2px} mark .lab{font:600 12px system-ui,sans-serif;color:#222;margin-left:4px;
white-space:nowrap} mark .to{font:12px ui-monospace,monospace;color:#0b3d91;background:#fff;border:1px solid #99a;
border-radius:3px;padding:0 3px;margin-left:3px} mark.unsure{outline:2px dashed #c00}
#dropped{border:2px solid #c00;background:#fff5f5;padding:.4rem .8rem;border-radius:4px}
#dropped h2{margin:.2rem 0;color:#900} .dropped td{color:#900}
mark.gone{background:#fff;border-bottom:2px dashed #c00;border-radius:0} mark.gone .lab{color:#900}
table{border-collapse:collapse;font-size:12.5px;margin:.3rem 0}
td,th{border:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top}
.legend span{display:inline-block;padding:0 .4rem;margin-right:.3rem;border-radius:3px}
</style></head><body>
"""
_NOTE = "<section class=\"note\" id=\"{anchor}\"><h2>{title}</h2>\n<pre>{text}</pre>\n{table}</section>\n"


class ExplainWriter(StreamWriter):
    """The ``--explain FILE`` of a run: :meth:`add` each tagged note with its explanation,
    then close (the file appears, complete, only then)."""

    def __init__(self, out, overwrite: bool = False):
        self.format = self.kind(out)
        super().__init__(out)
        self.overwrite = overwrite
        self._ended = False
        self._counts: dict[str, int] = {}
        self._unsure: list[tuple[str, str, str, float]] = []
        self._dropped: list[str] = []

    @staticmethod
    def kind(path) -> str:
        """``html``, ``json`` or ``jsonl`` by ``path``'s suffix.

        Raises
        ------
        ConfigError
            Any other suffix (a folder or a note named by mistake: ``tag --explain notes/``).
        """
        kind = KINDS.get(Path(str(path)).suffix.lower())
        if kind is None:
            raise ConfigError(f"--explain {str(path)!r}: name a file ending in .html (a page to read) or .json / "
                              f".jsonl (for programs); bare --explain keeps the steps in the output (JSONL) or "
                              f"on standard error, without text")
        return kind

    def add(self, explanation: dict, tagged: Document, became: dict | None = None) -> None:
        """Write one note: its text, its spans (``explanation``'s, with confidences), what each
        became (``became``: ``{(start, end): text written}``, :func:`crfdeid.deid.writers.became`)
        and what was dropped."""
        became = became or {}
        spans = [{**sp, "became": became.get((sp["start"], sp["end"]))} for sp in explanation["spans"]]
        self.write(Document(tagged.doc_id, tagged.text, [], {"explanation": {**explanation, "spans": spans}}))

    def header(self) -> str:
        if self._ended:
            return ""
        return {"html": _HEAD, "json": "[\n", "jsonl": ""}[self.format]

    def render(self, doc: Document) -> str:
        data = doc.meta["explanation"]
        for sp in data["spans"]:
            self._counts[sp["category"]] = self._counts.get(sp["category"], 0) + 1
        if self.format == "html":
            return self._html(doc, data)
        record = {"id": doc.doc_id, "text": doc.text,
                  **{key: [{**sp, "text": doc.text[sp["start"]:sp["end"]]} for sp in data[key]]
                     for key in ("spans", "dropped")}}
        line = json.dumps(record, ensure_ascii=False)
        return line + "\n" if self.format == "jsonl" else ("" if self.count == 0 else ",\n") + line

    def _html(self, doc: Document, data: dict) -> str:
        anchor = f"n{self.count}"
        text, last = [], 0
        marks = sorted([(sp, False) for sp in data["spans"]] + [(sp, True) for sp in data["dropped"]],
                       key=lambda m: (m[0]["start"], m[1], -m[0]["end"]))
        for sp, dropped in marks:
            if sp["start"] < last:  # inside a span already marked: listed in the table only
                continue
            text.append(html.escape(doc.text[last:sp["start"]]))
            last = sp["end"]
            words = html.escape(doc.text[sp["start"]:sp["end"]])
            if dropped:  # kept in the output: shown where it stands, unmistakably not replaced
                text.append(f'<mark class="gone" title="{html.escape(_dropped_by(sp), quote=True)}">{words}'
                            f'<span class="lab">{html.escape(sp["type"])}: removed, kept as written</span></mark>')
                continue
            conf = sp.get("confidence")
            unsure = conf is not None and conf < UNSURE
            if unsure:
                self._unsure.append((anchor, doc.doc_id, sp["category"], conf))
            to = sp.get("became")
            text.append(f'<mark style="background:{COLOURS.get(sp["category"], "#eee")}"'
                        f'{" class=unsure" if unsure else ""} title="{html.escape(_why(sp), quote=True)}">'
                        f'{words}<span class="lab">{html.escape(sp["type"])}'
                        f'{"" if conf is None else f" {conf:.2f}"}</span>'
                        f'{"" if to is None else f"<span class=to>→ {html.escape(to)}</span>"}</mark>')
        text.append(html.escape(doc.text[last:]))
        rows = [_row(doc.text, sp, "") for sp in data["spans"]]
        rows += [_row(doc.text, sp, "dropped") for sp in data["dropped"]]
        self._dropped += [f'<li><a href="#{anchor}">{html.escape(doc.doc_id)}</a>: '
                          f'<b>{html.escape(doc.text[sp["start"]:sp["end"]])}</b> ({html.escape(sp["type"])}, '
                          f'{sp["start"]}-{sp["end"]}): {html.escape(_dropped_by(sp))}</li>' for sp in data["dropped"]]
        table = ("<table><tr><th>text</th><th>category / type</th><th>became</th><th>confidence</th>"
                 "<th>decided by</th></tr>"
                 + "".join(rows) + "</table>") if rows else "<p>No span.</p>"
        title = (f"{html.escape(doc.doc_id)}: {len(data['spans'])} span(s) replaced"
                 + (f", {len(data['dropped'])} dropped" if data["dropped"] else ""))
        return _NOTE.format(anchor=anchor, title=title, text="".join(text), table=table)

    def footer(self) -> str:
        if self.format == "jsonl":
            return ""
        if self.format == "json":
            return "\n]\n"
        counts = ", ".join(f"{cat} {n}" for cat, n in sorted(self._counts.items(), key=lambda kv: (-kv[1], kv[0])))
        legend = "".join(f'<span style="background:{c}">{cat}</span>' for cat, c in COLOURS.items())
        unsure = "".join(f'<li><a href="#{a}">{html.escape(doc_id)}</a>: {cat}, {conf:.2f}</li>'
                         for a, doc_id, cat, conf in self._unsure[:200])
        more = f"<li>... and {len(self._unsure) - 200} more</li>" if len(self._unsure) > 200 else ""
        dropped = (f'<div id="dropped"><h2>Found, then removed: {len(self._dropped)} (kept in the output: '
                   "check each, a potential leak)</h2><ul>" + "".join(self._dropped[:500])
                   + (f"<li>... and {len(self._dropped) - 500} more</li>" if len(self._dropped) > 500 else "")
                   + "</ul></div>") if self._dropped else "<p>No find was removed by a rule.</p>"
        return ('<section id="summary"><h1>What crfdeid removed and why</h1>'
                f"<p>{self.count} note(s); spans by category: {counts or 'none'}. Hover a mark for its steps. "
                "This page holds the notes' text and PHI: keep it as PHI and delete it after use.</p>"
                f'<p class="legend">{legend}</p>{dropped}'
                f"<p>Spans of confidence below {UNSURE} ({len(self._unsure)}; dashed red outline):</p>"
                f"<ul>{unsure}{more}</ul></section>\n</body></html>\n")

    def close(self, ok: bool = True) -> None:
        if ok and not self._closed and self._failed is None and not self.to_stdout:
            self._emit(self.header() + self.footer() if self.count == 0 else self.footer())
            self._ended = True
        super().close(ok)


def _why(sp: dict) -> str:
    conf = sp.get("confidence")
    steps = "; ".join(f"{st['step']}: {st['action']}" + (f" ({st['reason']})" if st.get("reason") else "")
                      for st in sp.get("steps", ()))
    return f"{sp['category']}/{sp['type']}" + ("" if conf is None else f", confidence {conf:.2f}") + f". {steps}"


def _dropped_by(sp: dict) -> str:
    """``found by crf, then removed by rules.v1 (a DATE that cannot be a date)``."""
    steps = sp.get("steps", ())
    found = next((st["step"] for st in steps if st.get("action") == "found"), "a step")
    gone = next((st for st in reversed(steps) if st.get("action") == "dropped"), None)
    if gone is None:
        return f"found by {found}, then removed"
    return f"found by {found}, then removed by {gone['step']}" + (f" ({gone['reason']})" if gone.get("reason") else "")


def _row(text: str, sp: dict, cls: str) -> str:
    conf = sp.get("confidence")
    became = html.escape("kept as written: " + _dropped_by(sp) if cls else sp.get("became") or "")
    steps = "<br>".join(html.escape(f"{st['step']}: {st['action']}"
                                    + (f" ({st['reason']})" if st.get("reason") else "")) for st in sp.get("steps", ()))
    return (f'<tr class="{cls}"><td>{html.escape(text[sp["start"]:sp["end"]])}</td>'
            f"<td>{html.escape(sp['category'])} / {html.escape(sp['type'])}</td>"
            f"<td>{became}</td>"
            f"<td>{'' if conf is None else f'{conf:.2f}'}</td><td>{steps}</td></tr>")
