"""The format registries and the functions every command reads and writes through.

A reader is a function ``reader(path, report, **options)`` yielding
:class:`~crfdeid.document.Document` objects. When one document cannot be read
it calls ``report(error)`` and goes on with the next: :func:`read` decides
whether that raises (the default) or collects the error, so a bad file never
silently disappears and never stops the others. On top of every reader,
:func:`read` guarantees that

* the input is checked at once: an unknown format, an option the reader does not
  take, a missing path or a folder without matching files raise before
  :func:`read` returns (:class:`~crfdeid.errors.RegistryError`,
  :class:`~crfdeid.errors.ConfigError`, :class:`~crfdeid.errors.InputError`);
* a document id is read once per input: a repeat is reported naming both
  sources (file and line, row or record) and is not yielded;
* an unexpected exception inside a reader is reported as a
  :class:`~crfdeid.errors.ReaderError` naming the input and the exception's type
  only (its text could quote the note), and the documents yielded before it stand.

A writer is a class ``Writer(out, **options)`` with ``write(doc)`` and
``close()`` (a context manager); see :mod:`crfdeid.io.files`.

Modules listed in :data:`PLUGINS` (``crfdeid.synth``, ``crfdeid.deid.writers``)
are imported the first time an unknown name is asked for, so their formats need
no import by the caller; the built-in formats of :data:`ON_FIRST_USE` (``fhir``,
``hl7``, ``madeup``) are imported when their name is first asked for.

>>> parse_spec("i2b2:/data/test")
('i2b2', '/data/test')
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

from .. import schema
from ..document import Document
from ..errors import ConfigError, CrfdeidError, ReaderError
from ..registry import Registry
from .outputs import StreamWriter, check_output, source_of

READERS = Registry("reader")
WRITERS = Registry("writer")

#: Modules that register more readers/writers, imported on first need so that
#: ``crfdeid.io`` does not depend on them (they may also be absent).
PLUGINS = {"reader": ("crfdeid.synth", "crfdeid.synth.piiforms", "crfdeid.synth.fakerpii"),
           "writer": ("crfdeid.deid.writers",)}


#: Built-in formats whose module is imported when the format's name is first asked for (or every
#: name is listed): a ``tag`` run of other formats does not compile and run the FHIR and HL7 v2
#: modules and their tables (about 0.04 CPU-s of every start-up; docs/performance.md, 2026-11-27). ``madeup``:
#: a model trained on made-up notes names the format in its config, checked at every load: the other
#: plugins (synthetic notes, PII forms: 0.16 CPU-s) are not imported for it.
ON_FIRST_USE = {"fhir": "crfdeid.io.fhir", "hl7": "crfdeid.io.hl7", "madeup": "crfdeid.experiments.madeup"}


def _load_plugins(kind: str) -> None:
    for name in ON_FIRST_USE.values():
        importlib.import_module(name)
    for name in PLUGINS[kind]:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            # Only the plugin itself may be missing; a broken plugin must say so.
            if exc.name is None or not name.startswith(exc.name):
                raise


def reader_names() -> list[str]:
    """Names of every reader, plugins included."""
    _load_plugins("reader")
    return READERS.names()


def writer_names() -> list[str]:
    """Names of every writer, plugins included (``redacted``... once :mod:`crfdeid.deid` exists)."""
    _load_plugins("writer")
    return WRITERS.names()


def reader_for(fmt: str) -> Callable:
    """The reader registered as ``fmt``; :class:`~crfdeid.errors.RegistryError` lists the known ones."""
    if fmt not in READERS:
        _load_named(fmt, "reader")
    return READERS.get(fmt)


def writer_class(fmt: str):
    """The writer class registered as ``fmt``; :class:`~crfdeid.errors.RegistryError` lists the known ones."""
    if fmt not in WRITERS:
        _load_named(fmt, "writer")
    return WRITERS.get(fmt)


def _load_named(fmt: str, kind: str) -> None:
    """Import what registers ``fmt``: its module when it is a built-in format of :data:`ON_FIRST_USE`,
    else the plugins."""
    if fmt in ON_FIRST_USE:
        importlib.import_module(ON_FIRST_USE[fmt])
    else:
        _load_plugins(kind)


def parse_spec(spec, default: str | None = None) -> tuple[str, str]:
    """Split ``FORMAT:PATH`` into its parts; a bare path takes ``default``.

    A one-letter prefix (``C:\\notes``) is read as a Windows drive, not a format.
    A mapping input (:func:`input_parts`) gives its ``format`` and ``path``.
    """
    if isinstance(spec, Mapping):
        return input_parts(spec)[:2]
    fmt, sep, path = spec.partition(":")
    if sep and len(fmt) > 1 and fmt.isidentifier():
        return fmt, path
    if default is None:
        raise ReaderError(f"input {spec!r} has no format; write FORMAT:PATH with FORMAT one of "
                          f"{', '.join(reader_names())}")
    return default, spec


#: Keys of a mapping input besides the reader's options.
INPUT_KEYS = ("format", "path")


def input_parts(spec, default: str | None = None) -> tuple[str, str, dict]:
    """``(format, path, reader options)`` of an input: ``FORMAT:PATH``, or a mapping
    ``{format: brat, path: notes/, label_map: {...}}`` whose other keys are reader options.

    >>> input_parts({"format": "brat", "path": "n", "check_text": False})
    ('brat', 'n', {'check_text': False})

    Raises
    ------
    ConfigError
        A mapping without a string ``format`` and ``path``.
    """
    if not isinstance(spec, Mapping):
        return (*parse_spec(spec, default), {})
    fmt, path = spec.get("format", default), spec.get("path")
    if not isinstance(fmt, str) or not isinstance(path, str):
        raise ConfigError(f"an input mapping needs a string `format` and `path` (and may add reader "
                          f"options), not {', '.join(map(str, spec)) or 'nothing'}")
    return fmt, path, {k: v for k, v in spec.items() if k not in INPUT_KEYS}


def check_input(spec, **options) -> None:
    """Refuse an input whose format is unknown or whose options the reader does not take.

    Raises
    ------
    RegistryError, ConfigError
        The message lists the known formats or the reader's options.
    """
    fmt, _, own = input_parts(spec)
    _check_options("reader", fmt, reader_for(fmt), {**options, **own}, skip=2)


def describe_input(spec) -> str:
    """How an input reads in messages and results: ``FORMAT:PATH`` (options left out)."""
    fmt, path, _ = input_parts(spec)
    return f"{fmt}:{path}"


def spec_path(spec, default: str | None = None) -> str:
    """The path part of ``FORMAT:PATH`` (``'-'`` for standard input)."""
    return parse_spec(spec, default)[1]


def _check_options(kind: str, name: str, func, options: dict, skip: int) -> None:
    """Refuse options ``func`` does not name (its ``**kwargs`` would swallow them unseen)."""
    params = list(inspect.signature(func).parameters.values())[skip:]
    allowed = [p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise ConfigError(f"{kind} {name!r} does not take {', '.join(unknown)}; it takes: "
                          f"{', '.join(allowed) or 'no options'}")


def read(spec, *, errors: list | None = None, default_format: str | None = None,
         **options) -> Iterator[Document]:
    """The documents named by ``FORMAT:PATH``, checked as the module docstring says.

    Parameters
    ----------
    spec : str or mapping
        ``FORMAT:PATH``, e.g. ``physionet:../shared/corpora/physionet-dev``, or a mapping
        ``{format, path, **reader options}`` (:func:`input_parts`; its options win over
        ``options``).
    errors : list, optional
        Where to collect per-document :class:`~crfdeid.errors.CrfdeidError`\\ s
        and go on; when omitted the first error is raised.
    default_format : str, optional
        The format of a bare path.
    **options
        Passed to the reader (e.g. ``label_map`` for ``brat``). A reader of labels (``brat``,
        ``i2b2``, ``jsonl``, ``csv``) without a ``scheme`` reads the input as the commands do: labels
        as written, then the i2b2 2014 scheme when every label is an i2b2 label, else the corpus'
        own (:func:`crfdeid.schema.settle`; the whole input is read before the first document is
        returned). ``scheme="i2b2"`` (or a declared scheme) refuses a label outside it.

    Raises
    ------
    RegistryError, ConfigError, InputError
        At once, for an input that cannot be read at all.
    """
    fmt, path, own = input_parts(spec, default_format)
    options = {**options, **own}
    reader = reader_for(fmt)
    _check_options("reader", fmt, reader, options, skip=2)
    settling = options.get("scheme") is None and "scheme" in inspect.signature(reader).parameters
    if settling:
        options["scheme"] = schema.ANY
    report = _reporter(errors)
    docs = _guarded(reader(path, report, **options), path, report)
    if settling:  # the labels of the whole input decide its scheme, as the commands read it
        (settled,), _ = schema.settle([docs], None, path)
        return iter(settled)
    # Run the reader to its first document, so that input errors surface here.
    first = next(docs, None)
    return docs if first is None else _chain(first, docs)


def _chain(first: Document, rest: Iterator[Document]) -> Iterator[Document]:
    yield first
    yield from rest


def _guarded(docs: Iterator[Document], path, report) -> Iterator[Document]:
    seen: dict[str, str] = {}
    failure = None
    try:
        for doc in docs:
            where = source_of(doc)
            if doc.doc_id in seen:
                report(ReaderError(f"document id repeated: {where} repeats {seen[doc.doc_id]}; "
                                   "the repeat is not read", path=path, doc_id=doc.doc_id))
                continue
            seen[doc.doc_id] = where
            yield doc
    except CrfdeidError:
        raise
    except Exception as exc:  # its text may quote the note: the type only
        failure = type(exc).__name__
    if failure is not None:  # reported outside the handler: no chained traceback quotes it
        report(ReaderError(f"reading stopped by an unexpected {failure} after {len(seen)} "
                           "document(s); the rest of this input was not read", path=path))


def read_all(specs: Iterable[str], **kwargs) -> list[Document]:
    """All documents of several ``FORMAT:PATH`` inputs, as a list."""
    return [doc for spec in specs for doc in read(spec, **kwargs)]


def _reporter(errors: list | None) -> Callable[[Exception], None]:
    def report(err: Exception) -> None:
        if errors is None or not isinstance(err, CrfdeidError):
            raise err from None  # no chained traceback: the exception being handled may quote text
        errors.append(err)
    return report


def writer(fmt: str, out, *, overwrite: bool = False, inputs: Iterable = (), **options):
    """Open the writer registered as ``fmt`` on ``out`` (a folder, a file or ``'-'``).

    Parameters
    ----------
    fmt : str
        A writer name; one not registered yet makes :data:`PLUGINS` load
        (``redacted``, ``masked``, ``surrogate`` live in :mod:`crfdeid.deid.writers`).
    out : path or '-'
    overwrite : bool
        Replace files that exist before the run (never those written in it).
    inputs : iterable of paths
        The inputs of the run: an output that is, lies in or contains one is refused.
    **options
        The writer's own options; one it does not name is a :class:`ConfigError`.

    Raises
    ------
    RegistryError, ConfigError, OutputError
        Before anything is written.
    """
    cls = writer_class(fmt)
    _check_options("writer", fmt, cls, options, skip=1)
    stream = isinstance(cls, type) and issubclass(cls, StreamWriter)
    check_output(out, inputs, overwrite=overwrite, stream=stream)
    w = cls(out, **options)
    w.overwrite = overwrite
    return w


def write(docs: Iterable[Document], fmt: str, out, *, overwrite: bool = False, **options) -> int:
    """Write ``docs`` with the writer ``fmt``; return how many were written."""
    n = 0
    with writer(fmt, out, overwrite=overwrite, **options) as w:
        for doc in docs:
            w.write(doc)
            n += 1
    return n


def open_writer(fmt: str, out_dir, options: dict, inputs=(), overwrite: bool = False, scheme=None):
    """Open the writer ``fmt`` as ``python -m crfdeid tag`` does: on standard output (``out_dir``
    None), a stream file in ``out_dir`` or the folder ``out_dir``; every check on formats, options
    and paths is made before it writes. A writer that takes a ``scheme`` (redacted, masked,
    surrogate) gets ``scheme``.

    Raises
    ------
    ConfigError
        A bad option or option value (the message says which).
    """
    cls = writer_class(fmt)
    if scheme is not None and "scheme" in inspect.signature(cls).parameters:
        options = {"scheme": scheme, **options}
    out: str | Path
    if out_dir is None:
        out = "-"
    elif isinstance(cls, type) and issubclass(cls, StreamWriter):
        check_output(out_dir, inputs)  # the folder named, not only the file made in it
        out = Path(out_dir) / f"tagged.{fmt}"
    else:
        out = out_dir
    if options.get("mapping"):  # a PHI table written at the end: refuse a bad path now
        check_output(options["mapping"], inputs, overwrite=overwrite, stream=True)
    try:
        return writer(fmt, out, overwrite=overwrite, inputs=inputs, **options)
    except ConfigError as exc:
        raise ConfigError(f"{exc} (--seed/--key/-o)") from None
    except (TypeError, ValueError) as exc:  # e.g. date_shift=5 where a pair is wanted
        raise ConfigError(f"writer {fmt!r}: bad option value ({exc})") from None
