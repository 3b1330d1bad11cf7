"""The fuzz corpus: bad inputs for every reader, all made up (``python make_fuzz.py DIR`` writes it).

Every bad document carries one of :data:`MARKERS` (stand-ins for PHI); good
documents carry none, so a marker found in a message, in standard error or in
an output folder is text that leaked. The manifest lists, for each input, the
documents that must be read and written and each failure that must be reported
(its file, its document when one can be named, and its line, record or offset).
``tests/test_io_fuzz.py`` writes the corpus to a temporary folder and runs
``corpus stats``, ``corpus convert`` and ``tag`` over every input; nothing of it
is committed (the PhysioNet-layout case, above all, is made up and named
``synthetic.*``, never like the corpus' own files).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

MARKERS = ("Quackenbush", "Zebulon", "Marigoldsson", "Wexworth")
Q, Z, M, W = MARKERS
BOM = "\ufeff"
XML_HEAD = '<?xml version="1.0" encoding="UTF-8" ?>\n'


def _i2b2(text: str, tags: str = "", head: str = XML_HEAD) -> str:
    return f"{head}<deIdi2b2>\n<TEXT><![CDATA[{text}]]></TEXT>\n<TAGS>\n{tags}\n</TAGS>\n</deIdi2b2>\n"


def _tag(start: int, end: int, text: str, type_: str = "DOCTOR", cat: str = "NAME") -> str:
    return f'<{cat} id="P0" start="{start}" end="{end}" text="{text}" TYPE="{type_}" comment="" />'


def _fail(file: str, where: str, doc: str | None = None) -> dict:
    return {"file": file, "doc": doc, "where": where}


def text_cases() -> tuple[dict, dict]:
    files = {
        "good.txt": b"Seen on 03/14/2098 for follow-up.\n",
        "empty.txt": b"",
        "bom.txt": (BOM + "Clinic visit, no changes.\r\n").encode(),
        "nul.txt": b"Vitals\x00stable\x00today.\n",
        "huge-line.txt": b"stable " * 45_000,
        "invalid-utf8.txt": f"Dr. {Q} seen ".encode() + b"\xff\xfe" + b" today\n",
        "truncated-utf8.txt": f"Mr. {Z} Zo".encode() + "\u00eb".encode()[:1],
        "latin1.txt": f"Jos\u00e9 {M} visited\n".encode("latin-1"),
        "utf16.txt": "Nurse called back, no changes.\n".encode("utf-16"),  # read: no marker in it
    }
    expect = {"spec": "text:text", "code": 1,
              "good": ["bom", "empty", "good", "huge-line", "utf16"],  # UTF-16: read as its mark says
              "failures": [_fail("invalid-utf8.txt", "offset 21", "invalid-utf8"),
                           _fail("latin1.txt", "offset 3", "latin1"),
                           _fail("nul.txt", "NUL character at line 1", "nul"),  # issue 36: no note holds one
                           _fail("truncated-utf8.txt", "offset 14", "truncated-utf8")]}
    return files, expect


def brat_cases() -> tuple[dict, dict]:
    good = "Seen by Dr. Ivy Brandt on 03/14/2098.\n"
    bom = BOM + "Seen by Dr. Ivy Brandt.\n"
    files = {
        "good.txt": good, "good.ann": "T1\tDOCTOR 12 22\tIvy Brandt\nT2\tDATE 26 36\t03/14/2098\n",
        "bom.txt": bom, "bom.ann": "T1\tNAME-DOCTOR 13 16;17 23\tIvy Brandt\nA1\tNegated T1\n",
        "overlap.txt": good, "overlap.ann": "T1\tDOCTOR 12 22\tIvy Brandt\nT2\tPATIENT 16 22\tBrandt\n",
        "unannotated.txt": "No annotation file for this note.\n",
        "bad-offsets.txt": f"Seen by Dr. {Q}.\n", "bad-offsets.ann": f"T1\tDOCTOR 12 400\t{Q}\n",
        "reversed.txt": f"Seen by Dr. {Z}.\n", "reversed.ann": f"T1\tDOCTOR 19 12\t{Z}\n",
        "bad-label.txt": f"Seen by Dr. {M}.\n", "bad-label.ann": f"T1\t{M} 12 24\t{M}\n",
        "no-tabs.txt": f"Seen by Dr. {W}.\n", "no-tabs.ann": f"T1 DOCTOR 12 20 {W}\n",
        "mismatch.txt": f"Seen by Dr. {Q}.\n", "mismatch.ann": "T1\tDOCTOR 12 23\tSomeone\n",
        "bad-frag.txt": f"Seen by Dr. {Z}.\n", "bad-frag.ann": f"T1\tDOCTOR 12 15;x 19\t{Z}\n",
        "junk-kind.txt": f"Seen by Dr. {M}.\n", "junk-kind.ann": f"{M} was here\n",
        "bad-utf8.txt": f"Seen by Dr. {W} ".encode() + b"\xc3\x28\n",
        "bad-ann-utf8.txt": f"Seen by Dr. {Q}.\n", "bad-ann-utf8.ann": b"T1\tDOCTOR 12 23\t\xff\n",
        "orphan.ann": f"T1\tDOCTOR 0 4\t{Z}\n",
    }
    expect = {"spec": "brat:brat", "code": 1, "good": ["bom", "good", "overlap", "unannotated"],
              "failures": [_fail("bad-offsets.ann", "offset 12", "bad-offsets"),
                           _fail("reversed.ann", "offset 19", "reversed"),
                           _fail("bad-label.ann", "offset 12", "bad-label"),
                           _fail("no-tabs.ann", "line 1", "no-tabs"),
                           _fail("mismatch.ann", "offset 12", "mismatch"),
                           _fail("bad-frag.ann", "line 1", "bad-frag"),
                           _fail("junk-kind.ann", "line 1", "junk-kind"),
                           _fail("bad-utf8.txt", "offset 21", "bad-utf8"),
                           _fail("bad-ann-utf8.ann", "line 1", "bad-ann-utf8"),
                           _fail("orphan.ann", "annotations without", "orphan")]}
    return files, expect


def i2b2_cases() -> tuple[dict, dict]:
    note = "\nSeen by Dr. Ivy Brandt on 03/14/2098.\n"
    bad = f"\nSeen by Dr. {Q} today.\n"
    files = {
        "good.xml": _i2b2(note, _tag(13, 23, "Ivy Brandt")),
        "bom.xml": BOM + _i2b2(note, _tag(13, 23, "Ivy Brandt")),
        "truncated.xml": _i2b2(bad)[:60],
        "undefined-entity.xml": _i2b2(bad).replace("<TEXT><![CDATA[", f"<TEXT>&{Z};<![CDATA["),
        "external-entity.xml": (f'<?xml version="1.0"?>\n<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
                                f"<deIdi2b2><TEXT>{M} &x;</TEXT></deIdi2b2>\n"),
        "billion-laughs.xml": ('<?xml version="1.0"?>\n<!DOCTYPE l [<!ENTITY a "aaaaaaaaaa">'
                               '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>\n'
                               f"<deIdi2b2><TEXT>{W} &b;</TEXT></deIdi2b2>\n"),
        "element-in-text.xml": _i2b2("").replace("<![CDATA[]]>", f"Seen by <b>{Q}</b> today"),
        "two-texts.xml": _i2b2("Seen today.").replace("</TEXT>", f"</TEXT><TEXT>{Z}</TEXT>", 1),
        "text-after.xml": _i2b2("Seen today.").replace("</TEXT>", f"</TEXT>{M}", 1),
        "unknown-type.xml": _i2b2(bad, _tag(13, 24, Q, type_=W)),
        "outside.xml": _i2b2(bad, _tag(13, 900, Q)),
        "not-integer.xml": _i2b2(bad, _tag(13, 24, Q).replace('start="13"', f'start="{Z}"')),
        "latin1.xml": _i2b2(f"\nJos\u00e9 {M}\n").encode("latin-1"),
        "nul-reference.xml": _i2b2("").replace("<![CDATA[]]>", f"{W}&#0;"),
        "no-text.xml": f'{XML_HEAD}<deIdi2b2><TAGS>{_tag(0, 4, Q)}</TAGS></deIdi2b2>\n',
    }
    where = {"truncated": "line", "undefined-entity": "line", "external-entity": "DTDs",
             "billion-laughs": "DTDs", "element-in-text": "offset 8", "two-texts": "2 <TEXT>",
             "text-after": "outside <TEXT>", "unknown-type": "offset 13", "outside": "offset 13",
             "not-integer": "TAGS element 1", "latin1": "line", "nul-reference": "line",
             "no-text": "no <TEXT>"}
    expect = {"spec": "i2b2:i2b2", "code": 1, "good": ["bom", "good"],
              "failures": [_fail(f"{k}.xml", v, k) for k, v in sorted(where.items())]}
    return files, expect


def jsonl_cases() -> tuple[dict, dict]:
    def line(doc_id, text, spans=()):
        return json.dumps({"id": doc_id, "text": text, "spans": list(spans)}, ensure_ascii=False)
    rows = [
        line("good-1", "Seen on 03/14/2098.", [{"start": 8, "end": 18, "subtype": "DATE"}]),
        '{"id": "bad-json", "text": "' + Q + ' seen",',
        b'{"id": "bad-utf8", "text": "' + Z.encode() + b' \xff seen"}',
        "[" * 100_000 + f'"{M}"',
        line("good-huge", "stable " * 45_000),
        line("good-nul", "Vitals\u0000stable"),
        line("good-1", f"{W} repeated id"),
        line("reversed", f"Dr. {Q}", [{"start": 9, "end": 4, "subtype": "DOCTOR"}]),
        line("unknown", f"Dr. {Z}", [{"start": 4, "end": 11, "subtype": M}]),
        '{"id": "surrogate", "text": "\\ud800 ' + W + '"}',
        json.dumps([f"{Q} in a list"]),
        json.dumps({"id": {"name": Z}, "text": "x"}),
        line("good-2", "Discharged home."),
    ]
    data = b"".join((r if isinstance(r, bytes) else r.encode()) + b"\n" for r in rows)
    truncated = line("good-t", "ok") + "\n" + line("cut", f"{M}")[:20]  # the last line cut short
    files = {"mixed.jsonl": BOM.encode() + data, "truncated.jsonl": truncated.encode()}
    expect = [{"spec": "jsonl:jsonl/mixed.jsonl", "code": 1, "good": ["good-1", "good-2", "good-huge"],
               "failures": [_fail("mixed.jsonl", f"line {n}", doc) for n, doc in
                            [(2, None), (3, None), (4, None), (6, "good-nul"), (7, "good-1"), (8, "reversed"),
                             (9, "unknown"),
                             (10, "surrogate"), (11, None), (12, None)]]},
              {"spec": "jsonl:jsonl/truncated.jsonl", "code": 1, "good": ["good-t"],
               "failures": [_fail("truncated.jsonl", "line 2")]}]
    return files, expect


def csv_cases() -> tuple[dict, dict]:
    rows = [
        b"id,text,spans\n",
        b'good-1,"Seen on 03/14/2098.","[{""start"": 8, ""end"": 18, ""subtype"": ""DATE""}]"\n',
        b"bad-utf8,Dr. " + Q.encode() + b" \xff,\n",
        b"too-many,Dr. " + Z.encode() + b",[],extra\n",
        b'good-multi,"Line one\r\nline two, with ""quotes""",\n',
        b'bad-spans,Dr. ' + M.encode() + b',"{not json"\n',
        b"good-huge," + b"stable " * 45_000 + b",\n",
        b'good-1,' + Q.encode() + b',\n',
        b'unterminated,"Dr. ' + Z.encode() + b"\n",
        b"swallowed," + M.encode() + b",\n",
    ]
    # malformed CSV ends the file (issue 36): past it, a note's lines would be read as rows
    quote_after = (b'id,text\ngood-q,fine\nquote-after,"Dr. ' + W.encode() + b'" x\n'
                   + Q.encode() + b",came in\n")
    files = {"mixed.csv": b"".join(rows), "quote-after.csv": quote_after,
             "no-header.csv": f'n1,"Patient {Z} {Q} seen"\n'.encode()}
    expect = [{"spec": "csv:csv/mixed.csv", "code": 1, "good": ["good-1", "good-huge", "good-multi"],
               "failures": [_fail("mixed.csv", "row 2 (line 3)"), _fail("mixed.csv", "row 3 (line 4)"),
                            _fail("mixed.csv", "row 5 (line 7)"),  # a malformed row: no id named
                            _fail("mixed.csv", "row 7 line 9", "good-1"),
                            _fail("mixed.csv", "row 8 (lines 10-11)")]},
              {"spec": "csv:csv/quote-after.csv", "code": 1, "good": ["good-q"],
               "failures": [_fail("quote-after.csv", "row 2 (line 3)")]},
              {"spec": "csv:csv/no-header.csv", "code": 2, "good": [],
               "failures": [_fail("no-header.csv", "no column 'text'")]}]
    return files, expect


def physionet_cases() -> tuple[dict, dict]:
    def rec(patient, note, body, end=True):
        return f"START_OF_RECORD={patient}||||{note}||||\n{body}" + ("||||END_OF_RECORD\n" if end else "")
    text = (rec(1, 1, "Seen by Dr. Ivy Brandt.\n")
            + rec(1, 2, f"Seen by Dr. {Q}.\n", end=False)
            + f"START_OF_RECORD=1|||3||||\nMr. {Z} seen.\n||||END_OF_RECORD\n"
            + f"{M} stray text between records\n"
            + rec(2, 1, "Discharged on 03/14/2098.\n")
            + rec(1, 1, f"Dr. {W} repeats an id.\n")
            + rec(3, 1, f"Ms. {Q} again.\n")
            + rec(4, 1, f"Mr. {Z} last.\n", end=False))
    phrases = ("1 1 12 22 HCPName Ivy Brandt\n"
               "2 1 14 24 Date 03/14/2098\n"
               f"3 1 4 {4 + len(Q)} {Q}\n"          # the category is missing: the name sits there
               f"{Z} {M} 1 2 Date x\n")            # ids that are words, for no note
    files = {"synthetic.text": (BOM + text).encode(), "synthetic-phi.phrase": phrases.encode()}
    expect = {"spec": "physionet:physionet", "code": 1, "good": ["1-1", "2-1"],
              "failures": [_fail("synthetic.text", "record 2 (line 4)", "1-2"),
                           _fail("synthetic.text", "record 3 (line 6)"),
                           _fail("synthetic.text", "line 9"),
                           _fail("synthetic.text", "record 5 (line 13)", "1-1"),
                           _fail("synthetic-phi.phrase", "phrase line 3", "3-1"),
                           _fail("synthetic.text", "record 7 (line 19)", "4-1"),
                           _fail("synthetic-phi.phrase", "phrase line 4")]}
    return files, expect


def cases() -> tuple[dict, dict]:
    """``(files, manifest)``: every input's bytes by path under the corpus folder, and the manifest."""
    files, inputs = {}, []
    for folder, make in (("text", text_cases), ("brat", brat_cases), ("i2b2", i2b2_cases),
                         ("jsonl", jsonl_cases), ("csv", csv_cases), ("physionet", physionet_cases)):
        made, expect = make()
        files.update({f"{folder}/{name}": data if isinstance(data, bytes) else data.encode()
                      for name, data in made.items()})
        inputs += expect if isinstance(expect, list) else [expect]
    return files, {"markers": list(MARKERS), "inputs": inputs}


def build(root: Path) -> dict:
    """Write every case under ``root`` (and ``MANIFEST.json``); return the manifest."""
    files, manifest = cases()
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    (root / "MANIFEST.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python make_fuzz.py DIR")
    build(Path(sys.argv[1]))
