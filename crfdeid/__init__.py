"""crfdeid: find and remove protected health information in clinical notes with a CRF.

The pipeline, one module per role: text -> tokens (:mod:`crfdeid.text`) -> features
(:mod:`crfdeid.features`) -> CRF (:mod:`crfdeid.crf`) -> BIO labels (:mod:`crfdeid.labels`)
-> spans (:mod:`crfdeid.document`) -> scores (:mod:`crfdeid.scoring`) or de-identified
text (:mod:`crfdeid.deid`); readers and writers in :mod:`crfdeid.io`. Each subpackage is
imported on first use, so ``import crfdeid`` then ``crfdeid.io.read(...)`` works.

>>> import crfdeid
>>> model = crfdeid.load()                     # the model shipped in the package
>>> doc = model.tag_text("Seen by Dr. Lee on 7/22/2098.")
>>> [(s.start, s.end, s.subtype) for s in doc.spans]
[(12, 15, 'DOCTOR'), (19, 28, 'DATE')]
>>> session = crfdeid.Session(model, "redacted")  # what `crfdeid tag --output-format redacted` runs
>>> [rec.text for rec in session.run([doc])]
['Seen by Dr. [**DOCTOR**] on [**DATE**].']
"""

import importlib

from .document import Document, Span
from .version import __version__

__all__ = ["Document", "Model", "Session", "Span", "load", "__version__"]


def load(path=None, backend: str = "numpy"):
    """Load a model file (default: the model shipped in the package); a :class:`crfdeid.crf.Model`,
    or a :class:`crfdeid.neural.model.NeuralModel` when the file holds a network (``neural`` extra).

    Parameters
    ----------
    path : str or Path, optional
        A file written by ``python -m crfdeid train`` or ``Model.save``.
    backend : {"numpy", "crfsuite"}
        The CRF's tagging backend; both give the same labels (numpy is faster).
    """
    from .crf import Model  # numpy loads on first use: commands set its threads first (crfdeid.cli)
    return Model.load(path, backend=backend)


def __getattr__(name):
    # Model and the subpackages (crfdeid.io, crfdeid.scoring, crfdeid.crf...) are imported on
    # first use: `import crfdeid` stays cheap for commands that never tag.
    if name == "Model":
        from .crf import Model  # as in load()
        return Model
    if name == "Session":
        from .tagging.session import Session  # as in load()
        return Session
    if not name.startswith("_"):
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":  # a missing extra inside the module: say which
                raise
    raise AttributeError(f"module 'crfdeid' has no attribute {name!r}")
