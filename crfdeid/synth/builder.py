"""Build a note piece by piece while recording its PHI spans (half-open offsets)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..document import Document, Span, make_span
from ..schema import SUBTYPE_TO_PARENT


class NoteBuilder:
    """Append text and PHI pieces; offsets of PHI pieces become spans.

    Pieces are strings (plain text) or ``(SUBTYPE, text)`` pairs (PHI). Case
    changes are applied at the end to marked character ranges; the synthetic
    text is ASCII, so upper/lower casing never moves an offset.

    >>> b = NoteBuilder()
    >>> b.add("Seen by Dr. ", ("DOCTOR", "Smith"), " on ", ("DATE", "7/22"), ".")
    >>> doc = b.build("100-01")
    >>> [doc.surface(s) for s in doc.spans]
    ['Smith', '7/22']
    """

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._len = 0
        self._spans: list[Span] = []
        self._case: list[tuple[int, int, str]] = []
        #: Applied to plain (non-PHI) strings as they are added, e.g. a sentence-case style.
        self.style: Callable[[str], str] | None = None
        #: Applied to PHI strings as they are added (e.g. ``str.lower`` for lower-case names).
        self.phi_style: Callable[[str], str] | None = None

    def __len__(self) -> int:
        return self._len

    def add(self, *pieces) -> None:
        """Append plain strings and ``(SUBTYPE, text)`` PHI pairs, in order."""
        for piece in pieces:
            if isinstance(piece, str):
                self._put(self.style(piece) if self.style else piece)
            elif isinstance(piece, tuple) and len(piece) == 2 and piece[0] in SUBTYPE_TO_PARENT:
                sub, text = piece
                text = self.phi_style(text) if self.phi_style else text
                if text:
                    self._spans.append(make_span(self._len, self._len + len(text), sub))
                    self._put(text)
            else:  # a nested list of pieces
                self.add(*piece)

    @property
    def at_line_start(self) -> bool:
        """True when the next piece starts a line (or the note)."""
        return not self._parts or self._parts[-1].endswith("\n")

    def line(self, *pieces) -> None:
        """Append pieces and a line break."""
        self.add(*pieces)
        self._put("\n")

    def recase(self, start: int, mode: str) -> None:
        """Upper- or lower-case (``mode`` 'upper'/'lower') everything from ``start`` to now."""
        if mode in ("upper", "lower") and start < self._len:
            self._case.append((start, self._len, mode))

    def finish(self, start: int, case: str, lines: Iterable[list] = ()) -> None:
        """End the note begun at offset ``start``: the styles stop, ``lines`` (lists of pieces) are
        written, and everything from ``start`` is recased (:meth:`recase`).

        ``case`` is the note's casing (``"upper"``, ``"lower"``; ``""`` or another mode such as ``"mixed"``
        keeps what was written), as given or drawn by :func:`~crfdeid.synth.persona.weighted`. An argument
        is evaluated before ``lines`` is read, so a generator of ``lines`` that renders with the same ``rng``
        draws after it.

        >>> b = NoteBuilder()
        >>> b.add("Seen by ", ("DOCTOR", "Smith"), ". ")
        >>> b.finish(0, "upper", [["Plan: rest."]])
        >>> b.build("100-01").text
        'SEEN BY SMITH. PLAN: REST.\\n'
        """
        self.style = self.phi_style = None
        for pieces in lines:
            self.line(*pieces)
        self.recase(start, case)

    def _put(self, text: str) -> None:
        self._parts.append(text)
        self._len += len(text)

    def build(self, doc_id: str, meta: dict | None = None) -> Document:
        """The finished :class:`~crfdeid.document.Document`."""
        text = "".join(self._parts)
        if self._case:
            chars = list(text)
            for start, end, mode in self._case:
                chars[start:end] = [_recased(c, mode) for c in chars[start:end]]
            text = "".join(chars)
        return Document(doc_id, text, list(self._spans), dict(meta or {}))


def recased_text(text: str, mode: str) -> str:
    """``text`` upper- or lower-cased character by character, its length (and so every offset) kept."""
    return "".join(_recased(c, mode) for c in text)


def _recased(char: str, mode: str) -> str:
    """``char`` in upper or lower case, kept as is where that would change its length (``ß``: ``SS``)."""
    new = char.upper() if mode == "upper" else char.lower()
    return new if len(new) == 1 else char
