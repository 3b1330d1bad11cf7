"""Self-training a routed model on a site's unlabeled notes (:mod:`crfdeid.crf.adapt` per member).

Each note goes to the member the router chooses, as when it is tagged; each member that receives
notes is adapted on them alone (its own config trained again on its own training inputs plus its
confident pseudo-labels) and a member that receives none is kept byte for byte. The router is
kept: the adapted model sends every note where the base model did.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..crf.adapt import AdaptSettings, adapt
from ..document import Document
from ..errors import ConfigError
from ..progress import step
from .model import RoutedModel


def adapt_routed(model: RoutedModel, unlabeled: Iterable[Document], settings: AdaptSettings | None = None,
                 progress: bool = False) -> RoutedModel:
    """``model`` with each member adapted on the unlabeled notes the router sends it.

    The manifest's ``adapted`` entry holds each adapted member's (counts and settings, never text).

    Raises
    ------
    ModelError
        A member that cannot be adapted (:func:`crfdeid.crf.adapt.adapt`), or no unlabeled note.
    """
    notes: dict[str, list[Document]] = {name: [] for name in model.members}
    for doc in unlabeled:
        notes[model.choose(doc.text)].append(doc)
    if not any(notes.values()):
        raise ConfigError("adapt: no unlabeled notes")
    files, adapted = {}, {}
    for name, member in model.members.items():
        if not notes[name]:
            files[name] = model.member_file(name)
            continue
        step("adapt: member %s, %d unlabeled notes", name, len(notes[name]))
        new = adapt(member, notes[name], None, settings, progress)
        files[name], adapted[name] = new.to_bytes(), new.manifest["adapted"]
    manifest = {"router": model.router.to_dict(), "training": model.stats, "adapted": adapted}
    return RoutedModel(files, model.config, manifest, backend=model.backend)
