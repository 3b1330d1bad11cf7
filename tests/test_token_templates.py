"""The fast token templates give what the obvious per-token versions give (oracles below).

The registered templates share per-document line ranges and token texts and
skip work where nothing can match; each oracle is the plain loop they replace
(the implementation of crfdeid 0.x before the speed-up), run on the same
tokens. Outputs are compared as attribute lists per token.
"""

from __future__ import annotations

import bisect

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.features import TOKEN_TEMPLATES
from crfdeid.features.context import _AFTER_ATTRS, _LIST, _SENT_END, _TRIGGER_ATTRS, _phrase_index
from crfdeid.features.surface import TEXT_PATTERNS
from crfdeid.text.tokenize import tokenize


def _lines(text, tokens):
    begin, n = 0, len(tokens)
    for i in range(n):
        if i + 1 == n or "\n" in text[tokens[i].end:tokens[i + 1].start]:
            yield begin, i + 1
            begin = i + 1


def _line(text, tokens):
    out = []
    for a, b in _lines(text, tokens):
        extra = ()
        if _LIST.fullmatch(tokens[a].text) is not None:
            extra += ("list_item",)
        if all(not t.text.isalpha() or t.text.isupper() for t in tokens[a:b]):
            extra += ("line_upper",)
        pos = ["linepos:first", "linepos:second"] + ["linepos:mid"] * (b - a - 3) + ["linepos:last"]
        pos = pos[:b - a] if b - a < 3 else pos
        out.extend((p,) + extra for p in pos)
    return out


def _near_triggers(text, tokens, table, after):
    n = len(tokens)
    line = [(0, 0)] * n
    for a, b in _lines(text, tokens):
        line[a:b] = [(a, b)] * (b - a)
    out = [[] for _ in range(n)]
    for i, t in enumerate(tokens):
        attrs = table.get(t.text.lower())
        if attrs:
            near = range(max(line[i][0], i - 3), i) if after else range(i + 1, min(line[i][1], i + 4))
            for j in near:
                out[j].extend(attrs[abs(i - j) - 1])
    return out


def _case_context(text, tokens):
    out = [()] * len(tokens)
    for a, b in _lines(text, tokens):
        words = [t.text for t in tokens[a:b] if t.text.isalpha()]
        if not words:
            continue
        lower = sum(w.islower() for w in words) / len(words)
        for i in range(a, b):
            w = tokens[i].text
            if not w.isalpha():
                continue
            start = i == a or tokens[i - 1].text in _SENT_END
            if lower >= 0.5 and not start and w[0].isupper():
                out[i] = ("case:cap_mid_lower",) if not w.isupper() or len(w) == 1 else ("case:upper_mid_lower",)
            elif lower < 0.5 and w.islower():
                out[i] = ("case:lower_in_upper",)
            elif start:
                out[i] = ("case:sent_start",)
    return out


def _phrases(text, tokens):
    index = _phrase_index()[0]
    low = [t.text.lower() for t in tokens]
    out = [[] for _ in tokens]
    for i, w in enumerate(low):
        for k, entries in index.get(w, {}).items():
            attrs = entries.get(tuple(low[i:i + k])) if i + k <= len(low) else None
            for j in range(i, i + k) if attrs else ():
                out[j].extend(f"gp:{a}" for a in sorted(attrs))
    return out


def _patterns(text, tokens):
    out = [[] for _ in tokens]
    starts = [t.start for t in tokens]
    for name, rx in TEXT_PATTERNS.items():
        for m in rx.finditer(text):
            s, e = m.span()
            i = bisect.bisect_left(starts, s)
            if i < len(tokens) and tokens[i].start == s:
                out[i] += [f"pat:{name}", f"pat:{name}:B"]
                i += 1
            while i < len(tokens) and tokens[i].start < e:
                out[i].append(f"pat:{name}")
                i += 1
    return out


def _section_any(text, toks):
    """section.v2: the last heading (letters of any script, then ``:`` or ``：``) at or before the token."""
    heads = [(m.start(1), "section:" + m.group(1).strip().lower().replace(" ", "_"))
             for m in regex.finditer(r"(?m)^[ \t]*(\p{L}[\p{L}\p{M} /&]{1,30}?)[ \t]*[:\uff1a]", text)]
    return [tuple(h for s, h in heads if s <= t.start)[-1:] for t in toks]


def _name_initials(text, toks):
    """name_initials.v1: initials tokens whose letters are those of two or three name words in a row (any window)."""
    from crfdeid.features.initials import _name_word, _name_word_lists, _plain_initials
    names, plain = _name_word_lists()
    known = set()
    for i in range(len(toks)):
        for n in (2, 3):
            run = toks[i:i + n]
            if len(run) == n and all(_name_word(t.text, names, plain) for t in run) \
                    and all(text[a.end:b.start] == " " for a, b in zip(run, run[1:])):
                firsts = [t.text[0].upper() for t in run]
                known |= {"".join(firsts), firsts[0] + firsts[-1]}
    out = [()] * len(toks)
    i = 0
    while i < len(toks):
        w = toks[i].text
        if 2 <= len(w) <= 4 and w.isalpha() and w.isupper():
            if w in known and w not in _plain_initials():
                out[i] = ("ini:name",)
            i += 1
            continue
        j, letters = i, ""
        while (j + 1 < len(toks) and len(letters) < 4 and len(toks[j].text) == 1 and toks[j].text.isalpha()
               and toks[j].text.isupper() and toks[j + 1].text == "." and toks[j + 1].start == toks[j].end):
            letters += toks[j].text
            j += 2
            if j < len(toks) and toks[j].start != toks[j - 1].end:
                break
        if len(letters) >= 2:
            if letters in known:
                out[i:j] = [("ini:name",)] * (j - i)
            i = j
        else:
            i += 1
    return out


ORACLES = {
    "glued.v1": lambda text, toks: [("glued_l",) * t.glued_left + ("glued_r",) * t.glued_right
                                    for t in toks],
    "line.v1": _line,
    "triggers.v1": lambda text, toks: _near_triggers(text, toks, _TRIGGER_ATTRS, after=False),
    "triggers_after.v1": lambda text, toks: _near_triggers(text, toks, _AFTER_ATTRS, after=True),
    "case_context.v1": _case_context,
    "gazetteer_phrases.v1": _phrases,
    "text_patterns.v1": _patterns,
    "section.v2": _section_any,
    "name_initials.v1": _name_initials,
}

NOTES = [
    "",
    "\n\n  \n",
    "Seen by Dr. Lee with wife Ann\n\n- called Bob at Boston Medical Center\nRN aware",
    "CALLED sarah TODAY.  Spoke with Sarah. she is ok; Mr Smith, RRT\r\n2. New York City",
    "mail a.b@x.org or www.example.com / http://h.example.net on 7/22/2098 at 10:30 pm, 91 yo",
    "MRN A12345B  ssn 123-45-6789 ip 10.0.0.1 (617) 555-0199 x23 5 mg\tBP 120/80\n\nJan 3rd",
    "é\u0301x Ärzte WANDTE sich an Dr. Ölz\n\u00a0\u2028next\u2029line\nHOSPITAL transfer to rehab",
    "Exploración física: normal\n既往歴：なし\n  Ανάμνηση : καμία\nАнамнез: нет",
    "PMH: CVA 74', CABG in 09 (3 grafts)\nHTN 2001, 123 ft\n" + "word " * 30 + "HR 88 hx ٣٤ 7",
    "RN Anna Berg (AB); 0200 turned - AB. A.B. signed, Maria Pia Cabrera | MPC | MC. TO AT Lung Sounds LS",
]

_TEXT = st.lists(st.sampled_from(list("aZ1 .:\n\t-/@") + ["Dr", "lives", "with", "call", "New", "York",
                                                           "hospital", "Jan", "2098", ".com", "RN"]),
                max_size=40).map("".join)


def _as_lists(rows):
    return [list(r) for r in rows]


@pytest.mark.parametrize("name", sorted(ORACLES))
@pytest.mark.parametrize("text", NOTES)
def test_token_template_equals_its_oracle(name, text):
    toks = tokenize(text)
    assert _as_lists(TOKEN_TEMPLATES.get(name)(text, toks)) == _as_lists(ORACLES[name](text, toks))


@settings(max_examples=150, deadline=None)
@given(_TEXT)
def test_token_templates_equal_their_oracles_on_random_text(text):
    toks = tokenize(text)
    for name, oracle in ORACLES.items():
        assert _as_lists(TOKEN_TEMPLATES.get(name)(text, toks)) == _as_lists(oracle(text, toks)), name


@pytest.mark.parametrize("name", sorted(TOKEN_TEMPLATES.names()))
@pytest.mark.parametrize("text", NOTES)
def test_token_templates_give_one_tuple_per_token(name, text):
    # The tagger zips the templates' columns into hashable keys without converting them.
    toks = tokenize(text)
    col = TOKEN_TEMPLATES.get(name)(text, toks)
    assert len(col) == len(toks) and all(type(x) is tuple for x in col)


def test_every_token_template_has_an_oracle():
    assert set(ORACLES) >= set(TOKEN_TEMPLATES.names()) - {"section.v1"}


def test_token_templates_equal_their_oracles_on_physionet(physionet_docs):
    for doc in physionet_docs[::10]:
        toks = tokenize(doc.text)
        for name, oracle in ORACLES.items():
            got = TOKEN_TEMPLATES.get(name)(doc.text, toks)
            assert all(type(x) is tuple for x in got), (name, doc.doc_id)
            assert _as_lists(got) == _as_lists(oracle(doc.text, toks)), (name, doc.doc_id)


def test_shared_per_document_values_are_dropped_after_the_templates():
    from crfdeid.features import Featurizer, window
    fz = Featurizer({"groups": {"context": True, "pattern": True, "dictionary": True}})
    text = "Seen by Dr. Lee\nlives with wife"
    fz.featurize(text, tokenize(text))
    assert window._MEMOS and all(last == [None, None, None] for last in window._MEMOS)
