"""Token context templates: glued flags, line position, list items, section headings, triggers.

These look at the document around a token, so they are computed once per
document (not cached per word type). The line ranges and token texts that
several of them need are computed once per document (:mod:`crfdeid.features.perdoc`).
"""

from __future__ import annotations

import bisect
import re
from itertools import compress
from operator import attrgetter

import regex

from .perdoc import line_cuts, line_of, lines, token_texts
from .registry import TOKEN_TEMPLATES

_HEADING = regex.compile(r"^[ \t]*([A-Za-z][A-Za-z /&]{1,30}?)[ \t]*:", regex.M)
_HEADING_ASCII = re.compile(_HEADING.pattern, re.M)  # the same on ASCII text, 2x faster
_LIST = regex.compile(r"[-*\u2022#]|\d{1,2}[.)]")


_GLUED = {(False, False): (), (True, False): ("glued_l",), (False, True): ("glued_r",),
           (True, True): ("glued_l", "glued_r")}
_GLUED_FLAGS = attrgetter("glued_left", "glued_right")


@TOKEN_TEMPLATES.register("glued.v1")
def glued(text: str, tokens) -> list[tuple]:
    """Whether a token touches its left/right neighbour (``Since6/03`` vs ``Since 6 / 03``)."""
    return list(map(_GLUED.__getitem__, map(_GLUED_FLAGS, tokens)))


_POS = ("linepos:first", "linepos:second", "linepos:mid", "linepos:last")


@TOKEN_TEMPLATES.register("line.v1")
def line(text: str, tokens) -> list[tuple]:
    """Position in line (first, second, last, other), line is a list item, line is all caps."""
    words, _, alpha = token_texts(text, tokens)
    out: list = []
    for a, b in lines(text, tokens):
        extra: tuple[str, ...] = ()
        if _LIST.fullmatch(words[a]) is not None:
            extra += ("list_item",)
        if all(map(str.isupper, compress(words[a:b], alpha[a:b]))):
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
    """The section heading (``Xxx:`` at a line start, lower-cased) the token sits under.

    Headings are ASCII letters (English); ``section.v2`` takes letters of any script.
    """
    return _sections(text, tokens, _HEADING_ASCII if text.isascii() else _HEADING)


#: A heading in any script: ``Exploración física:``, ``Анамнез:``, ``既往歴:``.
_HEADING_ANY = regex.compile(r"^[ \t]*(\p{L}[\p{L}\p{M} /&]{1,30}?)[ \t]*[:\uff1a]", regex.M)


@TOKEN_TEMPLATES.register("section.v2")
def section_any_script(text: str, tokens) -> list[tuple]:
    """``section.v1`` for headings written in any script (letters and combining marks)."""
    return _sections(text, tokens, _HEADING_ASCII if text.isascii() else _HEADING_ANY)


def _sections(text: str, tokens, pattern) -> list[tuple]:
    heads = [(m.start(1), ("section:" + m.group(1).strip().lower().replace(" ", "_"),))
             for m in pattern.finditer(text)]
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
    low = token_texts(text, tokens)[1]
    out: list = [()] * n
    hits = list(compress(range(n), map(table.__contains__, low)))
    if not hits:
        return out
    cuts = line_cuts(text, tokens)
    for i in hits:
        attrs = table[low[i]]
        a, b = line_of(cuts, i)
        for j in (range(max(a, i - 3), i) if after else range(i + 1, min(b, i + 4))):
            out[j] += attrs[abs(i - j) - 1]
    return out


_TRIGGER_ATTRS = _trigger_attrs(TRIGGERS, "trig")


@TOKEN_TEMPLATES.register("triggers.v1")
def triggers(text: str, tokens) -> list:
    """``trig:<kind>:<k>`` when the k-th token back (k <= 3, same line) is a trigger word."""
    return _mark_near_triggers(text, tokens, _TRIGGER_ATTRS, after=False)


def _triggers_with(table: dict, after: bool):
    if not table:  # no trigger word in this language: nothing to mark
        return lambda text, tokens: [()] * len(tokens)
    return lambda text, tokens: _mark_near_triggers(text, tokens, table, after=after)


# Bound to a config's resources (crfdeid.resources: the user's words, another language).
triggers.bind = lambda res: _triggers_with(
    _trigger_attrs(res.trigger_words("triggers"), "trig"), after=False)


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


triggers_after.bind = lambda res: _triggers_with(
    _trigger_attrs(res.trigger_words("triggers_after"), "trig_after"), after=True)


_SENT_END = frozenset(".!?:;")
_CAP_MID, _UPPER_MID = ("case:cap_mid_lower",), ("case:upper_mid_lower",)
_LOWER_IN_UPPER, _SENT_START = ("case:lower_in_upper",), ("case:sent_start",)


@TOKEN_TEMPLATES.register("case_context.v1")
def case_context(text: str, tokens) -> list:
    """A word's case against its line's: capitalised mid-sentence in a mostly lower-case line
    (``spoke with Sarah``) or lower case in an upper-case line (``CALLED sarah``)."""
    words, _, alpha = token_texts(text, tokens)
    out: list = [()] * len(tokens)
    for a, b in lines(text, tokens):
        idx = list(compress(range(a, b), alpha[a:b]))  # the line's words
        if not idx:
            continue
        lower = sum(map(str.islower, map(words.__getitem__, idx))) / len(idx)
        for i in idx:
            w = words[i]
            start = i == a or words[i - 1] in _SENT_END
            if lower >= 0.5 and not start and w[0].isupper():
                out[i] = _UPPER_MID if w.isupper() and len(w) > 1 else _CAP_MID
            elif lower < 0.5 and w.islower():
                out[i] = _LOWER_IN_UPPER
            elif start:
                out[i] = _SENT_START
    return out
