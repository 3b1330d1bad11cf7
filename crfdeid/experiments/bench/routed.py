"""A routed model in the benchmark: the router's step and each member's stages timed apart.

:func:`time_members` wraps the routed model's :meth:`~crfdeid.routing.RoutedModel.decide` (the
``route`` stage: the router and its language gate) and each member's ``tag_each``, so that while a
member tags its notes the clock of :mod:`crfdeid.experiments.bench.stages` adds every stage's seconds to that member's
figures as well as to the whole process's; :func:`member_figures` gives them per member.
"""

from __future__ import annotations

import time
from collections import defaultdict

from ...routing import RoutedModel

#: A member's stages, in pipeline order (reading, routing and writing are the whole process's).
MEMBER_STAGES = ("tokenize", "featurize", "crf", "decode", "rules", "other")


def _member_tag_each(clock, name: str, fn):
    """``fn`` (a member's ``tag_each``) whose work counts as ``name``'s: wall and CPU seconds of
    each step of its generator, and the notes it tagged."""
    def tag_each(*args, **kwargs):
        got = clock.by_member.setdefault(name, defaultdict(float))
        steps = fn(*args, **kwargs)
        while True:
            outer, clock.member = clock.member, name
            t0, c0 = time.perf_counter(), time.process_time()
            try:
                item = next(steps)
            except StopIteration:
                return
            finally:
                got["seconds"] += time.perf_counter() - t0
                got["cpu_seconds"] += time.process_time() - c0
                clock.member = outer
            got["documents"] += not isinstance(item[1], Exception)
            yield item
    return tag_each


def time_members(model: RoutedModel, clock, undo: list) -> None:
    """Time ``model``'s router (stage ``route``) and attribute each member's work to it; what to
    remove afterwards is appended to ``undo`` as ``(object, attribute, None)``."""
    model.decide = clock.wrap("route", model.decide)  # type: ignore[method-assign]
    undo.append((model, "decide", None))
    for name, member in model.members.items():
        clock.by_member.setdefault(name, defaultdict(float))
        member.tag_each = _member_tag_each(clock, name, member.tag_each)  # type: ignore[method-assign]
        undo.append((member, "tag_each", None))


def member_figures(clock, whole_seconds: float) -> dict:
    """Each member's notes, tokens, seconds (wall and CPU), share of the whole run's wall seconds,
    and its stages' seconds and shares of its own seconds (``other``: the rest of its time)."""
    out = {}
    for name, got in clock.by_member.items():
        seconds = got["seconds"]
        stage = {s: got.get(s, 0.0) for s in MEMBER_STAGES if s != "other"}
        stage["other"] = max(0.0, seconds - sum(stage.values()))
        out[name] = {"documents": int(got["documents"]), "tokens": int(got["tokens"]), "seconds": round(seconds, 3),
                     "cpu_seconds": round(got["cpu_seconds"], 3),
                     "share_of_whole": round(seconds / whole_seconds, 3) if whole_seconds else 0.0,
                     "stage_seconds": {k: round(v, 3) for k, v in stage.items()},
                     "stage_share": {k: round(v / seconds, 3) if seconds else 0.0 for k, v in stage.items()}}
    return out


def decodes_with_marginals(model) -> bool:
    """Whether ``model`` (or any member of a routed one) decodes with ``o_threshold``."""
    parts = model.members.values() if isinstance(model, RoutedModel) else [model]
    return any(m.config["decoding"]["o_threshold"] is not None for m in parts)
