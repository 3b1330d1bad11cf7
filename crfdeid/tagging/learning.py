"""Surrogate writers learn a batch's notes before they draw: every original of a patient then
has one surrogate whatever the notes' order (a surrogate drawn early is never redrawn for PHI
a later note brings; :meth:`crfdeid.deid.writers.SurrogateWriter.learn`). Used by
:meth:`crfdeid.tagging.session.Session.write` (``tag``) and :meth:`~crfdeid.tagging.session.Session.run`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

from ..document import Document


def learnt_first(results: Iterator[tuple], out) -> Iterator[tuple]:
    """``results`` (:meth:`Session.tag`), each tagged note learnt by ``out`` first when its writer
    draws surrogates (it has ``learn``): the batch is held until it is tagged, as site mining
    holds it, so that every original of a patient has one surrogate whatever the notes' order
    (a surrogate drawn early is never redrawn for PHI a later note brings). A note that cannot
    be learnt is left to its write, which reports it (a FHIR or HL7 writer learns only with
    ``text=surrogate``)."""
    learn = getattr(out, "learn", None) if getattr(out, "surrogates", True) else None
    if learn is None:
        yield from results
        return
    held = list(results)
    for _doc_id, tagged, err in held:
        if err is None:
            try:
                learn(tagged)
            except Exception:  # noqa: BLE001 - the write of this note fails and names it, never its text
                pass
    yield from held


def learnt_by_patient(results: Iterator[tuple], writer_of: Callable[[Document], object]) -> Iterator[tuple]:
    """``results``, each run of one patient's notes learnt first by that patient's writer
    (``writer_of(tagged)``, e.g. :class:`PatientWriters`): what :func:`learnt_first` does for one
    writer, holding one patient's notes at a time."""
    for _patient, run in itertools.groupby(results, key=lambda r: None if r[1] is None else r[1].group):
        held = list(run)
        first = next((tagged for _doc_id, tagged, _err in held if tagged is not None), None)
        yield from learnt_first(iter(held), None if first is None else writer_of(first))
