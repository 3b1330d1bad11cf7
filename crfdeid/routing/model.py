"""The routed model: member models in one file and a router choosing the one that tags each note.

:class:`RoutedModel` is a :class:`~crfdeid.tagging.model.TaggingModel`: every note is read by
its router (:class:`~crfdeid.routing.router.Router`) and tagged by one member, whole (its
tokens, decoding and post-CRF chain); the tagged copy says which in ``meta["route"]`` (a member
name, never text) and :attr:`RoutedModel.counts` counts the notes each member read. ``route``
forces one member for every note (``tag --route NAME``). The file (format 3,
:mod:`crfdeid.tagging.modelfile`) holds the members' own model files byte for byte, each checked
whole when it loads, and the router's weights in the manifest.
"""

from __future__ import annotations

import copy
import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping
from types import EllipsisType

from ..document import Document
from ..errors import ConfigError, ModelError
from ..tagging import modelfile
from ..tagging.model import BATCH_CHARS, TaggingModel, batches
from ..version import __version__
from .router import Router

#: ``route`` of a model that lets its router choose.
AUTO = "auto"


class RoutedModel(TaggingModel):
    """Member models and the router that sends each note to one of them.

    Parameters
    ----------
    members : mapping of str to bytes
        Each member's model file content, in the config's order.
    config : dict
        The resolved routed config (``model: routed``, its ``routing`` section).
    manifest : dict
        With the router's entry ``router`` (:meth:`Router.to_dict`) and ``training`` statistics.
    """

    def __init__(self, members: Mapping[str, bytes], config: dict, manifest: dict, path=None,
                 backend: str = "numpy"):
        self.config = config
        self.path = path
        self.backend = backend
        self._member_files = dict(members)
        self.router = Router.from_dict(manifest.get("router"), path)
        names = list(config["routing"]["members"])
        if list(self._member_files) != names or {self.router.default, self.router.other} != set(names):
            raise ModelError(f"the routed model's members ({', '.join(self._member_files)}) and its router's "
                             f"differ from its config's ({', '.join(names)})", path=path)
        self.manifest = {"format": modelfile.MEMBERS_FORMAT_VERSION, "crfdeid_version": __version__,
                         **manifest, "config": config}
        self.stats = dict(self.manifest.get("training", {}))
        self.members: dict[str, TaggingModel] = {}
        for name, data in self._member_files.items():
            try:
                self.members[name] = TaggingModel.from_bytes(data, path, backend)
            except ModelError as exc:
                raise ModelError(f"member {name!r}: {exc.reason}", path=path) from None
        schemes = {m.scheme.name for m in self.members.values()}
        if len(schemes) != 1:
            raise ModelError(f"the members write spans of different schemes ({', '.join(sorted(schemes))})",
                             path=path)
        #: The member of every note (a member's name), or ``"auto"``: the router's choice.
        self.route = AUTO
        #: Notes tagged by each member in this process.
        self.counts: Counter = Counter()
        #: Of them, the notes the language gate sent to their member (:mod:`crfdeid.routing.language`).
        self.gated = 0

    # -- what the members share -----------------------------------------------------------
    @property
    def default(self) -> TaggingModel:
        """The member of the notes the router is not sure of."""
        return self.members[self.router.default]

    @property
    def scheme(self):
        return self.default.scheme

    @property
    def _english(self) -> bool:
        return self.default._english

    @property
    def labels(self) -> list[str]:  # type: ignore[override]
        return self.default.labels

    @property
    def o_words(self) -> frozenset:
        """The default member's o-words; assigned, every member's (on copies: a model shared
        with a caller keeps its own)."""
        return self.default.o_words

    @o_words.setter
    def o_words(self, value: frozenset) -> None:
        self._set_on_copies("o_words", value)
        self._o_words_set = value

    def _set_on_copies(self, attribute: str, value) -> None:
        """``attribute`` of every member set to ``value``, on copies of the members."""
        members = {}
        for name, member in self.members.items():
            member = copy.copy(member)
            setattr(member, attribute, value)
            members[name] = member
        self.members = members

    _o_words_set: frozenset | None = None

    @property
    def chain(self):
        """The default member's post-CRF chain (each member tags with its own); assigned, every
        member's (on copies, as :attr:`o_words`)."""
        return self.default.chain

    @chain.setter
    def chain(self, value) -> None:
        self._set_on_copies("chain", value)

    def forced(self, route: str) -> RoutedModel:
        """This model with every note sent to the member ``route`` (``"auto"``: the router's choice).

        Raises
        ------
        ConfigError
            An unknown member (the message lists them).
        """
        if route != AUTO and route not in self.members:
            raise ConfigError(f"unknown route {route!r}; this model's: {', '.join([AUTO, *self.members])}")
        self.route = route
        return self

    # -- tagging --------------------------------------------------------------------------
    def choose(self, text: str) -> str:
        """The name of the member that tags the note ``text``."""
        return self.decide(text)[0]

    def decide(self, text: str) -> tuple[str, bool]:
        """``(member, gated)`` (:meth:`Router.decide`; a forced route: never gated)."""
        return self.router.decide(text) if self.route == AUTO else (self.route, False)

    def _routed(self, tagged: Document, name: str, gated: bool = False) -> Document:
        tagged.meta["route"] = name
        if gated:  # the language gate chose the member (crfdeid.routing.language)
            tagged.meta["route_gate"] = "language"
        self.counts[name] += 1
        self.gated += gated
        return tagged

    def tag(self, doc: Document, o_threshold: float | EllipsisType | None = ...,
            options: Mapping | None = None) -> Document:
        """``doc`` tagged by the member :meth:`choose` gives (``o_threshold``: as the members'
        :meth:`~crfdeid.tagging.model.TaggingModel.tag`; omitted, each member's own)."""
        name, gated = self.decide(doc.text)
        return self._routed(self.members[name].tag(doc, o_threshold, options), name, gated)

    def tag_each(self, docs: Iterable[Document], o_threshold: float | EllipsisType | None = ...,
                 batch_chars: int = BATCH_CHARS, options: Mapping | None = None):
        """``(doc, tagged)`` or ``(doc, exception)`` in order, each batch's notes tagged by their
        members (a member labels its notes of the batch together)."""
        for batch in batches(docs, batch_chars):
            out: list = [None] * len(batch)
            names: dict[str, list[int]] = {}
            gated: set[int] = set()
            for i, doc in enumerate(batch):
                try:
                    name, by_gate = self.decide(doc.text)
                except Exception as exc:  # noqa: BLE001 - handed to the caller, per document
                    out[i] = (doc, exc)
                    continue
                names.setdefault(name, []).append(i)
                if by_gate:
                    gated.add(i)
            for name, where in names.items():
                got = self.members[name].tag_each([batch[i] for i in where], o_threshold, batch_chars, options)
                for i, (doc, tagged) in zip(where, got):
                    out[i] = (doc, tagged if isinstance(tagged, Exception)
                              else self._routed(tagged, name, i in gated))
            yield from out

    def marginals(self, doc: Document) -> list[dict]:
        return self.members[self.choose(doc.text)].marginals(doc)

    def token_p_outside(self, doc: Document):
        return self.members[self.choose(doc.text)].token_p_outside(doc)

    # -- the file ---------------------------------------------------------------------------
    def to_bytes(self) -> bytes:
        """The model file's content: the members' files one after another (format 3)."""
        entries = [{"name": name, "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
                   for name, data in self._member_files.items()]
        manifest = dict(self.manifest, members=entries, router=self.router.to_dict())
        return modelfile.to_bytes(b"".join(self._member_files.values()), manifest, self.labels)

    def member_file(self, name: str) -> bytes:
        """The model file of the member ``name``, as the routed file holds it."""
        return self._member_files[name]

    @classmethod
    def _from_parts(cls, part: bytes, config: dict, manifest: dict, path, backend: str,
                    companion=None, prior=None) -> RoutedModel:
        """The routed model of a checked file (:meth:`TaggingModel.from_bytes`): its part cut
        into the members' files by the manifest's ``members`` entry, each size and SHA-256 checked."""
        members = modelfile.member_files(manifest, part, path)
        return cls(members, config, manifest, path, backend)

    def __getstate__(self):
        return {"members": self._member_files, "config": self.config, "manifest": self.manifest,
                "path": self.path, "backend": self.backend, "route": self.route,
                "o_words": self._o_words_set}

    def __setstate__(self, state):
        self.__init__(state["members"], state["config"], state["manifest"], state["path"], state["backend"])
        self.route = state["route"]
        if state.get("o_words") is not None:  # as set on the pickled model
            self.o_words = state["o_words"]
