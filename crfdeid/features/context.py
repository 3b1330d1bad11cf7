"""Token context templates: glued flags, line position, list items, section headings, triggers.

These look at the document around a token, so they are computed once per
document (not cached per word type).
"""

from __future__ import annotations

import bisect

import regex

from . import TOKEN_TEMPLATES

_HEADING = regex.compile(r"^[ \t]*([A-Za-z][A-Za-z /&]{1,30}?)[ \t]*:", regex.M)
_LIST = regex.compile(r"[-*\u2022#]|\d{1,2}[.)]")


_GLUED = {(False, False): (), (True, False): ("glued_l",), (False, True): ("glued_r",),
           (True, True): ("glued_l", "glued_r")}


@TOKEN_TEMPLATES.register("glued.v1")
def glued(text: str, tokens) -> list[tuple]:
    """Whether a token touches its left/right neighbour (``Since6/03`` vs ``Since 6 / 03``)."""
    g = _GLUED
    return [g[t.glued_left, t.glued_right] for t in tokens]


def _lines(text: str, tokens):
    """Yield ``(first, last + 1)`` token index ranges of the lines of ``text``."""
    begin = 0
    n = len(tokens)
    for i in range(n):
        if i + 1 == n or "\n" in text[tokens[i].end:tokens[i + 1].start]:
            yield begin, i + 1
            begin = i + 1


_POS = ("linepos:first", "linepos:second", "linepos:mid", "linepos:last")


@TOKEN_TEMPLATES.register("line.v1")
def line(text: str, tokens) -> list[tuple]:
    """Position in line (first, second, last, other), line is a list item, line is all caps."""
    out: list = []
    for a, b in _lines(text, tokens):
        extra = ()
        if _LIST.fullmatch(tokens[a].text) is not None:
            extra += ("list_item",)
        if all(not t.text.isalpha() or t.text.isupper() for t in tokens[a:b]):
            extra += ("line_upper",)
        first, second, mid, last = ((p,) + extra for p in _POS)
        k = b - a
        if k == 1:
            out.append(first)
            continue
        out.append(first)
        out.append(second)
        if k > 2:
            out.extend([mid] * (k - 3))
            out.append(last)
    return out


@TOKEN_TEMPLATES.register("section.v1")
def section(text: str, tokens) -> list[tuple]:
    """The section heading (``Xxx:`` at a line start, lower-cased) the token sits under."""
    heads = [(m.start(1), ("section:" + m.group(1).strip().lower().replace(" ", "_"),))
             for m in _HEADING.finditer(text)]
    if not heads:
        return [()] * len(tokens)
    starts = [h[0] for h in heads]
    out = []
    j, nxt = -1, starts[0]
    cur: tuple = ()
    for t in tokens:
        if t.start >= nxt:
            j = bisect.bisect_right(starts, t.start) - 1
            cur = heads[j][1]
            nxt = starts[j + 1] if j + 1 < len(starts) else len(text) + 1
        out.append(cur)
    return out


#: Words that announce a name or a place a few tokens later (lower case).
TRIGGERS = {
    "name": frozenset("""dr doctor md rn np pa mr mrs ms miss wife husband son daughter
        mother father brother sister niece nephew aunt uncle friend family called call spoke
        visited visit by with per pt patient name named attending resident fellow
        cousin grandson granddaughter daughters sons""".split()),
    "place": frozenset("""hospital transferred transfer from to at home rehab nursing
        facility center clinic admitted lives live living moved""".split()),
}


_TRIGGER_KINDS = {}
for _kind, _words in TRIGGERS.items():
    for _w in _words:
        _TRIGGER_KINDS.setdefault(_w, []).append(_kind)
#: word -> attributes it gives the token k places after it.
_TRIGGER_ATTRS = {w: [tuple(f"trig:{kind}:{k}" for kind in kinds) for k in (1, 2, 3)]
                  for w, kinds in _TRIGGER_KINDS.items()}


@TOKEN_TEMPLATES.register("triggers.v1")
def triggers(text: str, tokens) -> list[list[str]]:
    """``trig:<kind>:<k>`` when the k-th token back (k <= 3, same line) is a trigger word."""
    n = len(tokens)
    out = [()] * n
    table = _TRIGGER_ATTRS
    hits = [(i, table[t.text.lower()]) for i, t in enumerate(tokens) if t.text.lower() in table]
    if not hits:
        return out
    line_end = [0] * n
    for a, b in _lines(text, tokens):
        for i in range(a, b):
            line_end[i] = b
    out = [[] for _ in range(n)]
    for i, attrs in hits:
        stop = min(line_end[i], i + 4)
        for j in range(i + 1, stop):
            out[j].extend(attrs[j - i - 1])
    return out


#: Words that follow a name or a place (lower case): ``V. Finn, RRT``, ``Union hosp``.
TRIGGERS_AFTER = {
    "name": frozenset("""rn rrt np pa md lpn msw cm pt ot slp phd do resident fellow
        attending aware notified paged informed""".split()),
    "place": frozenset("""hospital hosp hospitals memorial medical center clinic rehab
        nursing facility house""".split()),
}
_AFTER_ATTRS: dict = {}
for _kind, _words in TRIGGERS_AFTER.items():
    for _w in _words:
        _AFTER_ATTRS.setdefault(_w, []).append(_kind)
_AFTER_ATTRS = {w: [tuple(f"trig_after:{kind}:{k}" for kind in kinds) for k in (1, 2, 3)]
                for w, kinds in _AFTER_ATTRS.items()}


@TOKEN_TEMPLATES.register("triggers_after.v1")
def triggers_after(text: str, tokens) -> list:
    """``trig_after:<kind>:<k>`` when the k-th token ahead (k <= 3, same line) is a trigger word."""
    n = len(tokens)
    table = _AFTER_ATTRS
    hits = [(i, table[t.text.lower()]) for i, t in enumerate(tokens) if t.text.lower() in table]
    if not hits:
        return [()] * n
    line_start = [0] * n
    for a, b in _lines(text, tokens):
        for i in range(a, b):
            line_start[i] = a
    out = [[] for _ in range(n)]
    for i, attrs in hits:
        for j in range(max(line_start[i], i - 3), i):
            out[j].extend(attrs[i - j - 1])
    return out


_SENT_END = frozenset(".!?:;")


@TOKEN_TEMPLATES.register("case_context.v1")
def case_context(text: str, tokens) -> list:
    """A word's case against its line's: capitalised mid-sentence in a mostly lower-case line
    (``spoke with Sarah``) or lower case in an upper-case line (``CALLED sarah``)."""
    out: list = [()] * len(tokens)
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
