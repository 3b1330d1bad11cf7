"""Site mining on Spark (:mod:`crfdeid.site.mining` over a whole DataFrame, as ``tag`` does over
its batch): the CRF runs once.

1. Every note is tagged (``mapInPandas``); its spans (with confidences and, with ``explain``,
   their steps) are kept beside it, and that result is persisted (memory, then the executors'
   local disk: encrypted in local mode, docs/spark.md) so the CRF does not run again.
2. What each note teaches (strings, subtypes, confidences: no text) and, once the driver has
   learnt from them, which site strings each note holds (string and note id) are collected on
   the driver, which settles the share guard.
3. The lessons are broadcast; each note gets its occurrences merged and is rendered as the
   output style asks, by the writers of the usual path.
"""

from __future__ import annotations

import json

import pandas as pd

from ..adapters.records import Deidentifier
from ..document import Document, Span
from ..site import mining

TAGGED, FAILED = "__crfdeid_tagged", "__crfdeid_failed"


def _tagged_json(tagged: Document) -> str:
    """A tagged note's spans (with confidences) and trace, as JSON (offsets and types only)."""
    return json.dumps({"spans": [[s.start, s.end, s.category, s.subtype, s.confidence] for s in tagged.spans],
                       "explain": tagged.meta.get("explain")})


def _untagged(doc: Document) -> Document:
    """The tagged note :func:`_tagged_json` kept in ``doc.meta``."""
    data = json.loads(doc.meta[TAGGED])
    meta = {k: v for k, v in doc.meta.items() if k != TAGGED}
    spans = [Span(a, b, c, d, e) for a, b, c, d, e in data["spans"]]
    meta["confidence"] = [s.confidence for s in spans]
    if data["explain"] is not None:
        meta["explain"] = data["explain"]
    return Document(doc.doc_id, doc.text, spans, meta)


class Mined(Deidentifier):
    """A record adapter whose notes come tagged (``meta[TAGGED]``) and get the ``lessons``."""

    lessons: mining.Lessons

    def tag(self, docs, jobs=1):
        for doc in docs:
            new, _ = mining.merge(_untagged(doc), self.lessons.found(doc), self.explain)
            yield doc.doc_id, new, None


def tag_pass(task, frames):
    """Stage 1 (a ``mapInPandas`` function, ``task`` a :class:`crfdeid.spark._Task` whose
    ``keep`` holds every column): each note tagged, its result in ``TAGGED``, its failure in
    ``FAILED``."""
    deid = Deidentifier(task.model(), "spans", o_threshold=task.o_threshold, site=task.site, explain=task.explain)
    for frame in frames:
        for start in range(0, len(frame), task.batch_rows):
            part = frame.iloc[start:start + task.batch_rows]
            docs, failed = task.documents(part)
            results = iter(deid.tag(docs))
            tagged, errors = [], []
            for i in range(len(part)):
                if i in failed:
                    tagged.append(None)
                    errors.append(failed[i])
                    continue
                _, doc, err = next(results)
                tagged.append(None if doc is None else _tagged_json(doc))
                errors.append(err)
            out = part[task.keep].copy()
            out[TAGGED], out[FAILED] = tagged, errors
            yield out


def teach_pass(id_col, text_col, group_col, allow, frames):
    """Stage 2a: per note, what it teaches (JSON, no text)."""
    for frame in frames:
        rows = []
        for doc_id, text, group, tagged in zip(frame[id_col], frame[text_col], frame[group_col], frame[TAGGED]):
            if isinstance(tagged, str):
                doc = _untagged(Document(str(doc_id), text, meta={"patient": group, TAGGED: tagged}))
                items = mining.teach(doc, allow)
                if items:
                    rows.append((doc.doc_id, doc.group, json.dumps([[list(k), s, c] for k, s, c in items])))
        yield pd.DataFrame(rows, columns=["doc", "grp", "items"])


def occur_pass(bc, id_col, text_col, frames):
    """Stage 2b: per note, the site strings it holds (string tokens, note id)."""
    lessons = bc.value
    for frame in frames:
        rows = [(" ".join(key), str(doc_id)) for doc_id, text, tagged in
                zip(frame[id_col], frame[text_col], frame[TAGGED]) if isinstance(tagged, str)
                for key in lessons.occurring(text)]
        yield pd.DataFrame(rows, columns=["key", "doc"])


def lessons_of(first, id_col, text_col, group_col, allow, spark) -> mining.Lessons:
    """The lessons of the tagged DataFrame ``first`` (learnt, then settled), on the driver."""
    rows = first.mapInPandas(lambda f: teach_pass(id_col, text_col, group_col, allow, f),
                             "doc string, grp string, items string").collect()
    taught = sorted((r["doc"], r["grp"], [(tuple(k), s, c) for k, s, c in json.loads(r["items"])]) for r in rows)
    lessons = mining.Lessons.learn(taught, allow)
    bc = spark.sparkContext.broadcast(lessons)
    occurs: dict = {}
    for r in first.mapInPandas(lambda f: occur_pass(bc, id_col, text_col, f), "key string, doc string").collect():
        occurs.setdefault(tuple(r["key"].split(" ")), set()).add(r["doc"])
    bc.unpersist()
    lessons.settle(occurs)
    return lessons
