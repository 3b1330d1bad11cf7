"""Language resources: the word lists the dictionary features read and the context trigger words.

crfdeid ships English resources only: the gazetteers (``gazetteers/*.txt``: US
names, places, English words), the trigger words of ``triggers.v1`` and
``triggers_after.v1`` (``dr``, ``wife``, ``transferred``...) and the rule overlay.
A config chooses with its ``resources`` section (paths follow the config's one
path rule: relative to the config file)::

    resources:
      language: es                  # en (default): the shipped English lists
      gazetteers:                   # list name -> a file (one entry a line, # header) or a list
        surnames: lists/apellidos.txt
        first_female: lists/nombres_mujer.txt
      triggers: {name: [dr, dra, doctor, paciente], place: [hospital, en]}
      triggers_after: {place: [hospital, clinica]}

With ``language: en`` a list given here replaces the shipped list of that name and
the others stay. With any other language **no shipped list is used**: the
dictionary features see only the lists given (a config that turns the dictionary
group on without any is refused), the trigger templates only the words given
(none: they add nothing), and the rule overlay (English) is refused.

>>> r = Resources.from_config({"language": "es", "gazetteers": {"surnames": ["García"]}})
>>> r.entries("surnames"), r.entries("cities"), r.trigger_words("triggers")
(('García',), None, {})
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from . import gazetteers
from .errors import ConfigError
from .features import context
from .features.context import PHRASE_LISTS, RANKED_LISTS, WORD_LISTS
from .settings import Section, check_keys, section

#: Languages whose resources ship with crfdeid.
SHIPPED = ("en",)
#: The keys of a config's ``resources`` section, with their defaults.
DEFAULTS = {"language": "en", "gazetteers": {}, "triggers": {}, "triggers_after": {}}
#: Kinds of trigger words the context templates know.
TRIGGER_KINDS = ("name", "place")


def list_names() -> list[str]:
    """The word lists the dictionary features read (the names ``resources.gazetteers`` takes)."""
    return sorted({*WORD_LISTS, *PHRASE_LISTS, *RANKED_LISTS})


def read_list(path: Path, where=None) -> list[str]:
    """Entries of a word-list file: UTF-8, one a line, ``#`` lines and blank lines left out."""
    try:
        lines = Path(path).read_text(encoding="utf-8-sig").splitlines()
    except OSError as exc:
        raise ConfigError(f"cannot read word list ({exc.strerror})", path=path) from None
    except UnicodeDecodeError:
        raise ConfigError("word list is not UTF-8 text", path=path) from None
    return [s for s in (line.strip() for line in lines) if s and not s.startswith("#")]


def resolve(spec, base_dir: Path | None = None, path=None) -> dict:
    """The ``resources`` section validated, with every list read: ``{language, gazetteers: {name:
    [entries]}, triggers: {kind: [words]}, triggers_after: {kind: [words]}}``.

    A list is a file name (relative to ``base_dir``, the config's folder) or a list of entries.
    Resolved lists are kept in the config, so a model carries the lists it was trained with.

    Raises
    ------
    ConfigError
        Unknown keys, list names or trigger kinds, unreadable files.
    """
    spec = _mapping(spec, DEFAULTS, "resources", "key", path)
    language = spec.get("language", "en")
    if not isinstance(language, str) or not language.strip() or len(language) > 16:
        raise ConfigError(f"resources.language must be a language code such as en or es, not {language!r}",
                          path=path)
    out: dict = {"language": language.strip().lower()}
    for key, allowed in (("gazetteers", list_names()), ("triggers", TRIGGER_KINDS),
                         ("triggers_after", TRIGGER_KINDS)):
        given = _mapping(spec.get(key), allowed, f"resources.{key}", "name", path)
        out[key] = {name: _entries(value, base_dir, path, f"resources.{key}.{name}")
                    for name, value in sorted(given.items())}
    return out


def _mapping(value, allowed, what: str, noun: str, path) -> Mapping:
    """``value`` (``None``: empty) when it is a mapping whose keys are among ``allowed``."""
    value = {} if value is None else value
    if not isinstance(value, Mapping):
        raise ConfigError(f"{what} must be a mapping of {', '.join(allowed)}", path=path)
    check_keys(value, allowed, what, path, noun)
    return value


def _entries(value, base_dir, path, what) -> list[str]:
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return [v.strip() for v in value if v.strip()]
    if isinstance(value, (str, Path)):
        file = Path(value)
        return read_list(file if base_dir is None or file.is_absolute() else base_dir / file, path)
    raise ConfigError(f"{what} must be a file name or a list of strings", path=path)


@section("resources")
class ResourcesSettings(Section):
    """The ``resources`` section: its lists read (:func:`resolve`; paths were made relative to the
    config's folder when it was read)."""

    @classmethod
    def resolve(cls, value, config: Mapping, key: str, path=None) -> dict:
        return resolve(value, None, path)


class Resources:
    """The lists a featurizer reads: :meth:`from_config` of a resolved ``resources`` section."""

    def __init__(self, language: str = "en", gazetteers=None, triggers=None, triggers_after=None):
        self.language = language
        self.gazetteers = {k: tuple(v) for k, v in (gazetteers or {}).items()}
        self.triggers = {"triggers": {k: frozenset(w.lower() for w in v) for k, v in (triggers or {}).items()},
                         "triggers_after": {k: frozenset(w.lower() for w in v)
                                            for k, v in (triggers_after or {}).items()}}

    @classmethod
    def from_config(cls, section=None) -> Resources:
        """From a config's ``resources`` section (lists already read, or read now by :func:`resolve`)."""
        section = resolve(section)
        return cls(section["language"], section["gazetteers"], section["triggers"], section["triggers_after"])

    @property
    def english(self) -> bool:
        """Whether the shipped (English) lists fill in what is not given."""
        return self.language in SHIPPED

    @property
    def is_default(self) -> bool:
        """English and nothing of the user's: the templates' own (shipped) lists serve."""
        return self.english and not self.gazetteers and not any(self.triggers.values())

    def entries(self, name: str) -> tuple | None:
        """The entries of list ``name`` (in file order): the user's, else the shipped English
        list when the language is English and it is installed, else ``None``."""
        if name in self.gazetteers:
            return self.gazetteers[name]
        if not self.english:
            return None
        return tuple(gazetteers.entries(name)) if name in gazetteers.names() else None

    def trigger_words(self, which: str) -> dict:
        """``{kind: words}`` of ``triggers`` or ``triggers_after``: the user's per kind, else the
        shipped English words when the language is English, else none."""
        shipped = {"triggers": context.TRIGGERS, "triggers_after": context.TRIGGERS_AFTER}[which]
        own = self.triggers[which]
        if not self.english:
            return dict(own)
        return {kind: own.get(kind, words) for kind, words in shipped.items()}

    def summary(self) -> str:
        """One line for training summaries: the language and whose lists are used."""
        lists = ", ".join(self.gazetteers) or "none"
        trig = ", ".join(f"{w}.{k}" for w, d in self.triggers.items() for k in d) or "none"
        shipped = "shipped English lists for the rest" if self.english else "no shipped list"
        return f"language {self.language}; own word lists: {lists}; own triggers: {trig}; {shipped}"
