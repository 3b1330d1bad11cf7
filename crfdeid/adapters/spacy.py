"""crfdeid as a spaCy pipeline component (extra ``[spacy]``): ``nlp.add_pipe("crfdeid")``.

The component tags ``doc.text`` with crfdeid and sets

- ``doc.spans["crfdeid"]``: one span per PHI span, label the subtype (``DOCTOR``), with
  ``span._.crfdeid_confidence`` and ``span._.crfdeid_category``;
- ``doc.ents``: the same spans (overlapping ones merged, label of the first), replacing
  the entities of earlier components where they overlap and keeping the others.

crfdeid's offsets are characters; spaCy spans are tokens. Each span is mapped with
``Doc.char_span(..., alignment_mode="expand")``: a crfdeid span that starts or ends
inside a spaCy token grows to the whole token, so no PHI character is left outside
(``7/22/2098`` inside ``on7/22/2098`` marks the whole token). A span therefore may
cover a few more characters than crfdeid's; ``span._.crfdeid_start`` and
``span._.crfdeid_end`` keep crfdeid's exact offsets.

The factory is registered when this module is imported, and through the
``spacy_factories`` entry point of an installed crfdeid, so ``nlp.add_pipe("crfdeid")``
works in a fresh process without the import.
"""

from __future__ import annotations

from . import require

_spacy = require("spacy", "spacy", "crfdeid.adapters.spacy")  # names the extra when it is missing
from spacy.language import Language  # noqa: E402
from spacy.tokens import Doc, Span  # noqa: E402

from ..document import Document  # noqa: E402
from ..tagging.session import SPANS, Session  # noqa: E402

#: The ``doc.spans`` key the component writes (``spans_key`` in its config changes it).
SPANS_KEY = "crfdeid"

for _name in ("crfdeid_confidence", "crfdeid_category", "crfdeid_start", "crfdeid_end"):
    if not Span.has_extension(_name):
        Span.set_extension(_name, default=None)


class CrfdeidComponent:
    """The pipeline component: tags each ``Doc`` (``nlp.pipe`` in batches) with crfdeid."""

    def __init__(self, nlp: Language, name: str, model=None, o_threshold=None,
                 spans_key: str = SPANS_KEY, set_ents: bool = True):
        self.name = name
        # config values are plain data: None is the model's own decoding, "none" Viterbi only
        self.o_threshold = {None: ..., "none": None}.get(o_threshold, o_threshold)
        self.session = Session(model, SPANS, o_threshold=self.o_threshold)
        self.model = self.session.model
        self.spans_key, self.set_ents = spans_key, set_ents

    def __call__(self, doc: Doc) -> Doc:
        return next(iter(self.pipe([doc])))

    def pipe(self, docs, batch_size: int = 128):
        """Tag docs in batches (crfdeid's tagger labels a batch of notes at once)."""
        batch = []
        for doc in docs:
            batch.append(doc)
            if len(batch) >= batch_size:
                yield from self._tag(batch)
                batch = []
        if batch:
            yield from self._tag(batch)

    def _tag(self, docs):
        notes = [Document(str(i), doc.text) for i, doc in enumerate(docs)]
        for doc, tagged in zip(docs, self.session.tagged(notes)):
            yield self._annotate(doc, tagged)

    def _annotate(self, doc: Doc, tagged: Document) -> Doc:
        spans = []
        for sp in tagged.spans:
            span = doc.char_span(sp.start, sp.end, label=sp.subtype, alignment_mode="expand")
            if span is None:  # only white space between tokens: nothing of it to mark
                continue
            span._.crfdeid_confidence = 1.0 if sp.confidence is None else float(sp.confidence)
            span._.crfdeid_category = sp.category
            span._.crfdeid_start, span._.crfdeid_end = sp.start, sp.end
            spans.append(span)
        doc.spans[self.spans_key] = spans
        if self.set_ents:
            ours = _merged(doc, spans)
            kept = [e for e in doc.ents if not any(e.start < o.end and o.start < e.end for o in ours)]
            doc.ents = sorted(kept + ours, key=lambda s: s.start)
        return doc


def _merged(doc: Doc, spans) -> list:
    """Token spans with overlapping ones merged into the first (``doc.ents`` allows no overlap)."""
    out: list = []
    for sp in sorted(spans, key=lambda s: (s.start, -s.end)):
        if out and sp.start < out[-1].end:
            last = out[-1]
            if sp.end > last.end:
                out[-1] = Span(doc, last.start, sp.end, label=last.label_)
        else:
            out.append(Span(doc, sp.start, sp.end, label=sp.label_))
    return out


@Language.factory("crfdeid", default_config={"model": None, "o_threshold": None,
                                             "spans_key": SPANS_KEY, "set_ents": True})
def make_component(nlp: Language, name: str, model, o_threshold, spans_key: str, set_ents: bool):
    """The ``crfdeid`` factory: ``nlp.add_pipe("crfdeid", config={"model": "path/to/model"})``."""
    return CrfdeidComponent(nlp, name, model, o_threshold, spans_key, set_ents)
