"""Exception types raised at crfdeid's boundaries, and their messages in one place.

Every boundary error names where it happened: the file, the document id and the
character offset when they are known. Messages never contain note text or PHI
surface strings, so they are safe to log.
"""

from __future__ import annotations


class CrfdeidError(Exception):
    """Base class of every error crfdeid raises on purpose."""


def _where(path=None, doc_id=None, offset=None) -> str:
    parts = []
    if path is not None:
        parts.append(f"file {str(path)!r}")
    if doc_id is not None:
        parts.append(f"document {doc_id!r}")
    if offset is not None:
        parts.append(f"offset {offset}")
    return ", ".join(parts)


class LocatedError(CrfdeidError):
    """An error that knows the file, document and offset it is about."""

    def __init__(self, message: str, *, path=None, doc_id=None, offset=None):
        self.reason = message
        self.path = path
        self.doc_id = doc_id
        self.offset = offset
        where = _where(path, doc_id, offset)
        super().__init__(f"{where}: {message}" if where else message)


def described(value: str) -> str:
    """How a message names a value read from an input that may be note text: by its length.

    A hash would not do: a short name is found again from a list of candidates.

    >>> described("Quackenbush")
    '11 characters'
    """
    return f"{len(value)} character{'' if len(value) == 1 else 's'}"


class ReaderError(LocatedError):
    """Input that cannot be read: malformed file, bad offsets, unknown labels."""


class InputError(ReaderError):
    """An input that cannot be read at all (missing, no matching files): a usage error."""


class OutputError(LocatedError):
    """Output refused: it would overwrite an input, a file of this run or (unasked) an older
    file, or its folder cannot be made."""


class SpanError(LocatedError):
    """A span that does not fit its document (outside the text, end before start...)."""


class SchemaError(LocatedError):
    """A category or subtype outside the PHI scheme."""


class LabelError(CrfdeidError, ValueError):
    """A tag that is not a label of the tagging scheme (``O``, ``B-X``, ``I-X``)."""


class ConfigError(LocatedError):
    """A configuration that names unknown keys or components or has bad values."""


class ModelError(LocatedError):
    """A model file that is missing, corrupt or incompatible with this version."""


class LeakError(LocatedError):
    """A surrogate that would keep a letter/digit run of the PHI it replaces: the document is refused."""


class RegistryError(CrfdeidError, KeyError):
    """An unknown name asked of a registry; the message lists the known names."""

    def __str__(self) -> str:  # KeyError would quote the message
        return self.args[0] if self.args else ""


class CrfdeidWarning(UserWarning):
    """Base class of crfdeid's warnings (the commands print them as ``warning: MESSAGE``)."""


class ConfigWarning(CrfdeidWarning):
    """A config section dropped or changed because another setting makes it meaningless."""


class WorkerError(CrfdeidError):
    """A worker process of ``--jobs`` died (killed, out of memory) before its notes were tagged:
    the run stops, what was written is kept, the notes not written are counted as failed."""


class ExtraError(CrfdeidError, ImportError):
    """An optional feature whose extra (``pip install 'crfdeid[EXTRA]'``) is not installed."""


def describe(exc: BaseException) -> str:
    """An unexpected exception told without its message (which may quote note text): its type,
    and for a missing module the module's name.

    >>> describe(ModuleNotFoundError("No module named 'zipcodes'", name="zipcodes"))
    "ModuleNotFoundError: the Python module 'zipcodes' is not installed"
    >>> describe(KeyError("Smith"))
    'KeyError'
    """
    if isinstance(exc, ModuleNotFoundError) and exc.name:
        return f"{type(exc).__name__}: the Python module {exc.name!r} is not installed"
    return type(exc).__name__
