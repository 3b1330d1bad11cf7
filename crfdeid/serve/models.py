"""The service's settings and the JSON it takes and gives: request and answer models, checked by
pydantic (a lone surrogate code point and an unknown ``known`` field are refused, never echoed)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, model_validator
from pydantic_core import PydanticCustomError

from ..errors import ConfigError, ReaderError
from ..io.jsonl import check_id
from ..site.tables import as_record

Format = Literal["redacted", "masked", "surrogate", "spans"]


@dataclass(frozen=True)
class Settings:
    """What the server is started with (``python -m crfdeid serve`` options)."""

    model: str | None = None
    key_file: str | None = None
    token_file: str | None = None
    max_bytes: int = 1_000_000
    max_documents: int = 100
    body_timeout: float = 30.0
    request_timeout: float = 60.0
    site: str | None = None
    fhir_policy: str | None = None


_SURROGATE = re.compile("[\ud800-\udfff]")


def _unicode(value: str) -> str:
    """Refuse a lone surrogate code point (JSON's ``"\\ud800"``): not text, and not encodable."""
    found = _SURROGATE.search(value)
    if found is not None:
        raise PydanticCustomError("lone_surrogate", "a lone surrogate code point at character "
                                  "{offset}: not valid Unicode text", {"offset": found.start()})
    return value


#: A string field of a request: any Unicode text, no lone surrogate (422).
Text = Annotated[str, AfterValidator(_unicode)]


def _doc_id(value: str) -> str:
    """Refuse as a note's id what the commands refuse (:func:`crfdeid.io.jsonl.check_id`: note text
    in the id's place, more than 128 characters or a line break): the answer would echo it (422,
    its length only)."""
    try:
        check_id(value)
    except ReaderError as exc:
        raise PydanticCustomError("document_id", "{reason}", {"reason": exc.reason}) from None
    return value


#: A note's id, or a patient key: what an output file could be named by, never note text.
DocId = Annotated[str, AfterValidator(_unicode), AfterValidator(_doc_id)]


def _known_fields(value: dict) -> dict:
    """Refuse a field of ``known`` that is not an identifier field (docs/site.md), naming it by
    its length only: a key can be anything, a patient's name included (422, never echoed)."""
    try:
        as_record(value, "known", echo=False)
    except ConfigError as exc:
        raise PydanticCustomError("known_field", "{reason}", {"reason": exc.reason}) from None
    return value


#: A note's own identifiers: fields of docs/site.md, each a string or a list of strings.
Known = Annotated[dict[str, str | list[str]], AfterValidator(_known_fields)]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DocumentIn(_In):
    id: DocId | int | None = Field(None, description="your id for the note (default: its position); at most "
                                                     "128 printable characters")
    text: Text
    patient: DocId | int | None = Field(
        None, description="patient key: a patient's notes share surrogates; without it (and without "
                          "an id) a note is a patient of its own")
    known: Known | None = Field(
        None, description="the note's own identifiers from the record (docs/site.md fields: name, "
                          "first_name, last_name, relative, mrn, phone, birth_date, address...)")


class DeidentifyRequest(_In):
    """One note (``text``) or several (``documents``), and the output style."""

    text: Text | None = None
    id: DocId | int | None = None
    patient: DocId | int | None = None
    known: Known | None = None
    documents: list[DocumentIn] | None = None
    output_format: Format = "redacted"
    explain: StrictBool = Field(
        False, description="add each span's steps (which step found, widened, retyped it) and the "
                           "dropped spans with their steps and reasons (offsets and types, no text)")

    @model_validator(mode="after")
    def _one_kind(self):
        if (self.text is None) == (self.documents is None):
            raise ValueError("give either 'text' or 'documents'")
        if self.documents is not None and (self.id is not None or self.patient is not None
                                           or self.known is not None):
            raise ValueError("'id', 'patient' and 'known' go inside each of 'documents'")
        return self


class WasOut(BaseModel):
    start: int
    end: int
    type: str


class StepOut(BaseModel):
    step: str = Field(description="the step, e.g. crf, rules.v1, junk_spans.v1")
    action: str = Field(description="found, widened, narrowed, moved, retyped, merged or dropped")
    reason: str = Field(description="the step's fixed phrase, never the note's words")
    was: WasOut | None = Field(None, description="the span it changed")


class SpanOut(BaseModel):
    type: str = Field(description="PHI subtype, e.g. DOCTOR")
    category: str = Field(description="parent category, e.g. NAME")
    start: int = Field(description="first character (offsets into the original text)")
    end: int = Field(description="one past the last character")
    confidence: float
    steps: list[StepOut] | None = Field(None, description="what each step did to it (explain only)")


class DroppedOut(BaseModel):
    type: str
    category: str
    start: int
    end: int
    steps: list[StepOut] = Field(description="the steps that made it, the last one dropping it")


class DocumentOut(BaseModel):
    id: str | None = None
    text: str | None = Field(None, description="de-identified text (none for output_format spans)")
    spans: list[SpanOut] | None = None
    dropped: list[DroppedOut] | None = Field(None, description="spans a step dropped (explain only)")
    error: str | None = Field(None, description="why the note failed (never its text)")


class DeidentifyResponse(BaseModel):
    output_format: Format
    id: str | None = None
    text: str | None = None
    spans: list[SpanOut] | None = None
    dropped: list[DroppedOut] | None = Field(None, description="spans a step dropped (explain only)")
    documents: list[DocumentOut] | None = None
    failed: int | None = Field(None, description="documents that failed (documents requests)")


#: What a validation error's location may name: the request's parts and the API's fields.
FIELD_NAMES = frozenset({"body", "query", "path", "header", *DeidentifyRequest.model_fields,
                          *DocumentIn.model_fields})
