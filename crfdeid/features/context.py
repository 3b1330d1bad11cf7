"""Token context templates: glued flags, line position, list items, section headings, triggers.

These look at the document around a token, so they are computed once per
document (not cached per word type).
"""

from __future__ import annotations

import regex

from . import TOKEN_TEMPLATES

_HEADING = regex.compile(r"^[ \t]*([A-Za-z][A-Za-z /&]{1,30}?)[ \t]*:", regex.M)
_LIST = regex.compile(r"[-*\u2022#]|\d{1,2}[.)]")


@TOKEN_TEMPLATES.register("glued.v1")
def glued(text: str, tokens) -> list[list[str]]:
    """Whether a token touches its left/right neighbour (``Since6/03`` vs ``Since 6 / 03``)."""
    out = []
    for t in tokens:
        a = []
        if t.glued_left:
            a.append("glued_l")
        if t.glued_right:
            a.append("glued_r")
        out.append(a)
    return out


def _lines(text: str, tokens):
    """Yield ``(first, last + 1)`` token index ranges of the lines of ``text``."""
    begin = 0
    n = len(tokens)
    for i in range(n):
        if i + 1 == n or "\n" in text[tokens[i].end:tokens[i + 1].start]:
            yield begin, i + 1
            begin = i + 1


@TOKEN_TEMPLATES.register("line.v1")
def line(text: str, tokens) -> list[list[str]]:
    """Position in line (first, second, last, other), line is a list item, line is all caps."""
    out = [[] for _ in tokens]
    for a, b in _lines(text, tokens):
        listed = _LIST.fullmatch(tokens[a].text) is not None
        upper = all(not t.text.isalpha() or t.text.isupper() for t in tokens[a:b])
        for i in range(a, b):
            pos = "first" if i == a else "second" if i == a + 1 else "last" if i == b - 1 else "mid"
            f = out[i]
            f.append("linepos:" + pos)
            if listed:
                f.append("list_item")
            if upper:
                f.append("line_upper")
    return out


@TOKEN_TEMPLATES.register("section.v1")
def section(text: str, tokens) -> list[list[str]]:
    """The section heading (``Xxx:`` at a line start, lower-cased) the token sits under."""
    heads = [(m.start(1), m.group(1).strip().lower()) for m in _HEADING.finditer(text)]
    out = []
    j = -1
    for t in tokens:
        while j + 1 < len(heads) and heads[j + 1][0] <= t.start:
            j += 1
        out.append(["section:" + heads[j][1].replace(" ", "_")] if j >= 0 else [])
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


@TOKEN_TEMPLATES.register("triggers.v1")
def triggers(text: str, tokens) -> list[list[str]]:
    """``trig:<kind>:<k>`` when the k-th token back (k <= 3, same line) is a trigger word."""
    out = [[] for _ in tokens]
    lowers = [t.text.lower() for t in tokens]
    for a, b in _lines(text, tokens):
        for i in range(a, b):
            f = out[i]
            for k in (1, 2, 3):
                j = i - k
                if j < a:
                    break
                w = lowers[j]
                for kind, words in TRIGGERS.items():
                    if w in words:
                        f.append(f"trig:{kind}:{k}")
    return out
