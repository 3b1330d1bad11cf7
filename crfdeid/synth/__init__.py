"""Synthetic i2b2-style clinical notes with gold PHI spans, for tests, demos and a starter model.

Patients are made up from the gazetteers (Census names, GeoNames places,
fictional hospitals and organizations); each has several notes (ids
``NNN-NN``, record prefix = patient) that mention the same names, dates and
identifiers. Note kinds: telegraphic ICU nursing notes (often ALL CAPS),
discharge summaries and clinic letters. All 25 i2b2 subtypes occur, in many
surface forms, next to look-alike non-PHI (Coumadin, Swan-Ganz, 120/80...).

Deterministic: the documents depend only on ``seed`` (each patient has its own
``random.Random``), and ``generate(n, seed)`` is a prefix of
``generate(m, seed)`` for ``n < m``.

>>> docs = generate(3, seed=13)
>>> [d.doc_id for d in docs]
['100-01', '100-02', '101-01']
>>> docs == generate(3, seed=13)
True
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Iterator

from ..document import Document
from ..errors import ReaderError
from ..io import READERS
from . import persona
from .builder import NoteBuilder
from .discharge import discharge_summary
from .letter import letter
from .nursing import nursing_note

__all__ = ["generate", "iter_documents", "NoteBuilder"]

#: Note kinds and their relative frequency (nursing notes are what the default model meets most).
KINDS = {"nursing": (nursing_note, 55), "discharge": (discharge_summary, 30), "letter": (letter, 15)}
FIRST_RECORD = 100


def _patient_notes(seed: int, index: int) -> list[Document]:
    rng = random.Random(f"crfdeid-synth:{seed}:{index}")
    record = FIRST_RECORD + index
    p = persona.patient(rng, record)
    names = list(KINDS)
    weights = [KINDS[k][1] for k in names]
    n_notes = rng.choice([1, 2, 2, 3, 3, 4, 5])
    docs = []
    for note in range(1, n_notes + 1):
        kind = rng.choices(names, weights)[0]
        day = p.admit + dt.timedelta(days=note - 1 + (rng.randint(2, 9) if kind != "nursing" else 0))
        b = NoteBuilder()
        b.line()  # i2b2 TEXT usually starts with a line break
        KINDS[kind][0](rng, p, day, b)
        docs.append(b.build(f"{record:03d}-{note:02d}", {"note_type": kind}))
    return docs


def iter_documents(n: int, seed: int = 0) -> Iterator[Document]:
    """Yield ``n`` synthetic documents for ``seed``, patient by patient."""
    if n < 0:
        raise ValueError(f"number of documents must be >= 0, got {n}")
    made, index = 0, 0
    while made < n:
        for doc in _patient_notes(seed, index):
            if made == n:
                return
            yield doc
            made += 1
        index += 1


def generate(n: int, seed: int = 0) -> list[Document]:
    """``n`` synthetic documents with gold spans, deterministic for ``seed``.

    Parameters
    ----------
    n : int
        Number of documents.
    seed : int
        Random seed; the same seed gives the same documents on every machine.

    Returns
    -------
    list of Document
        Ids ``NNN-NN`` (several notes per patient), spans aligned to tokens.
    """
    return list(iter_documents(n, seed))


def parse_source(path: str) -> tuple[int, int]:
    """``"N,SEED"`` (or ``"N"``, seed 0) as used by ``read("synth:N,SEED")``.

    >>> parse_source("1000,13")
    (1000, 13)
    """
    n, _, seed = path.partition(",")
    try:
        return int(n), int(seed or 0)
    except ValueError:
        raise ReaderError(f"synth source must be N or N,SEED (integers), got {path!r}",
                          path=path) from None


@READERS.register("synth")
def read_synth(path: str, report, **options) -> Iterator[Document]:
    """Reader ``synth:N,SEED``: ``N`` generated documents, nothing read from disk."""
    try:
        n, seed = parse_source(path)
    except ReaderError as err:
        report(err)
        return
    yield from iter_documents(n, seed)
