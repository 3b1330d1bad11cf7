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


def _trigger_attrs(triggers: dict, name: str) -> dict:
    """word -> the attributes it gives the token k = 1, 2, 3 places away."""
    kinds: dict = {}
    for kind, words in triggers.items():
        for w in words:
            kinds.setdefault(w, []).append(kind)
    return {w: [tuple(f"{name}:{kind}:{k}" for kind in ks) for k in (1, 2, 3)]
            for w, ks in kinds.items()}


def _mark_near_triggers(text: str, tokens, table: dict, after: bool) -> list:
    """Give each token the attributes of the trigger words up to 3 tokens before it
    (``after=True``: after it) on the same line."""
    n = len(tokens)
    hits = [(i, table[t.text.lower()]) for i, t in enumerate(tokens) if t.text.lower() in table]
    if not hits:
        return [()] * n
    line = [(0, 0)] * n
    for a, b in _lines(text, tokens):
        line[a:b] = [(a, b)] * (b - a)
    out = [[] for _ in range(n)]
    for i, attrs in hits:
        near = range(max(line[i][0], i - 3), i) if after else range(i + 1, min(line[i][1], i + 4))
        for j in near:
            out[j].extend(attrs[abs(i - j) - 1])
    return out


_TRIGGER_ATTRS = _trigger_attrs(TRIGGERS, "trig")


@TOKEN_TEMPLATES.register("triggers.v1")
def triggers(text: str, tokens) -> list:
    """``trig:<kind>:<k>`` when the k-th token back (k <= 3, same line) is a trigger word."""
    return _mark_near_triggers(text, tokens, _TRIGGER_ATTRS, after=False)


#: Words that follow a name or a place (lower case): ``V. Finn, RRT``, ``Union hosp``.
TRIGGERS_AFTER = {
    "name": frozenset("""rn rrt np pa md lpn msw cm pt ot slp phd do resident fellow
        attending aware notified paged informed""".split()),
    "place": frozenset("""hospital hosp hospitals memorial medical center clinic rehab
        nursing facility house""".split()),
}
_AFTER_ATTRS = _trigger_attrs(TRIGGERS_AFTER, "trig_after")


@TOKEN_TEMPLATES.register("triggers_after.v1")
def triggers_after(text: str, tokens) -> list:
    """``trig_after:<kind>:<k>`` when the k-th token ahead (k <= 3, same line) is a trigger word."""
    return _mark_near_triggers(text, tokens, _AFTER_ATTRS, after=True)


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
