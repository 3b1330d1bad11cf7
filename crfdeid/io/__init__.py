"""Readers and writers, registered by format name; every CLI takes ``FORMAT:PATH``.

Built-in formats: ``i2b2``, ``physionet`` (read only), ``brat``, ``text``,
``jsonl``, ``csv``, and ``fhir`` and ``hl7`` (imported when first asked for:
:data:`~crfdeid.io.registry.ON_FIRST_USE`); :mod:`crfdeid.io.registry` holds the registries and
:func:`read`/:func:`write`, :mod:`crfdeid.io.files` reading and atomic writing,
:mod:`crfdeid.io.outputs` the writer bases and the output checks.

>>> parse_spec("i2b2:/data/test")
('i2b2', '/data/test')
"""

from __future__ import annotations

# They register themselves; fhir and hl7 on first use (registry.ON_FIRST_USE).
from . import brat, i2b2, jsonl, physionet, table, text  # noqa: F401
from .files import BOM, atomic_write, is_stdio, list_files, read_text_file
from .outputs import FolderWriter, StreamWriter, check_output, write_document, write_documents
from .registry import (
    ON_FIRST_USE,
    PLUGINS,
    READERS,
    WRITERS,
    check_input,
    describe_input,
    input_parts,
    open_writer,
    parse_spec,
    read,
    read_all,
    reader_for,
    reader_names,
    spec_path,
    write,
    writer,
    writer_class,
    writer_names,
)

__all__ = ["BOM", "ON_FIRST_USE", "PLUGINS", "READERS", "WRITERS", "FolderWriter", "StreamWriter", "atomic_write",
           "check_input", "check_output", "describe_input", "input_parts",
           "is_stdio", "list_files", "open_writer", "parse_spec", "read", "read_all", "read_text_file",
           "reader_for", "reader_names", "spec_path", "write", "write_document", "write_documents", "writer",
           "writer_class", "writer_names"]
