"""``POST /v1/fhir`` and ``POST /v1/hl7``: a FHIR Bundle or resource (JSON, or NDJSON lines), or
HL7 v2 messages, given back de-identified as the ``fhir`` and ``hl7`` writers write them
(docs/fhir.md): ``?text=redacted`` (default), ``masked`` or ``surrogate`` (with the server's key).

A record that cannot be read or written back fails the request (422, whatever the reader or
writer raised: the body is the client's to fix) with its position (line or message number),
never its content; a text that cannot be tagged fails it too (500): nothing of the body is
given back un-redacted.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from ..errors import CrfdeidError, ReaderError, SchemaError, SpanError
from ..io import fhir, hl7, writer_class
from ..io.records import TEXT_STYLES
from ..progress import Cancelled
from ..tagging.session import Session

#: Format -> (reader of bytes, file name the body is read as, answer's content type).
KINDS = {"fhir": (fhir.documents, "body.json", "application/fhir+json"),
         "hl7": (hl7.documents, "body.hl7", "x-application/hl7-v2+er7")}


def deidentify(fmt: str, body: bytes, text: str, session: Session, key, policy=None) -> tuple[int, str | list]:
    """``(200, the records written back)`` or ``(status, messages)``; messages never hold text."""
    read, name, _ = KINDS[fmt]
    errors: list = []
    try:
        docs = list(read([("request body", body, name)], errors.append))
    except CrfdeidError as exc:  # a body that cannot be read: the client's, never a server error
        return 422, [str(exc)]
    except Exception as exc:  # noqa: BLE001 - a record the reader did not foresee: the type only
        return 422, [f"a record of the body cannot be read ({type(exc).__name__})"]
    if errors:
        return 422, [str(e) for e in errors]
    given = {"key": key} if text == "surrogate" or key is not None else {}  # fhir ids, hl7 links: hashed
    out = writer_class(fmt)(None, text=text, **given, **({"policy": policy} if fmt == "fhir" else {}))
    try:
        for tagged in session.tagged(docs):
            try:
                out.write(tagged)
            except (ReaderError, SpanError, SchemaError) as exc:  # a record that cannot be written back: the body's
                return 422, [str(exc)]
            except UnicodeError as exc:  # a value of the body no answer can hold (a lone surrogate)
                return 422, [f"a record of the body cannot be written back ({type(exc).__name__})"]
    except Cancelled:  # the deadline: 503, from the caller
        raise
    except CrfdeidError as exc:  # names the record and the reason, never the text
        return 500, [str(exc)]
    except Exception as exc:  # noqa: BLE001 - its text could quote the note: the type only
        return 500, [f"tagging failed ({type(exc).__name__})"]
    answer = "".join(out.rendered)
    try:
        answer.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate (a "\ud800" escape) in the body
        return 422, [f"the body holds a value that is not valid Unicode (character {exc.start} of the answer); "
                     "nothing is given back"]
    return 200, answer


def add_routes(app: FastAPI, session: Session, key, locked: Callable, policy=None) -> None:
    """Add the two endpoints; ``locked(request, work)`` runs ``work`` under the model's lock and
    the request's deadline (503 when it passes); ``policy``: the FHIR policy (None: the shipped one)."""

    def route(fmt: str):
        async def endpoint(request: Request, text: str = "redacted") -> Response:
            if text not in TEXT_STYLES:
                raise HTTPException(400, f"text: one of {', '.join(TEXT_STYLES)}")
            if text == "surrogate" and key is None:
                raise HTTPException(400, "surrogate output needs a key: start the server with --key-file")
            body = await request.body()
            request.state.documents = 1
            status, result = await run_in_threadpool(
                locked, request, lambda: deidentify(fmt, body, text, session, key, policy))
            if status != 200:
                raise HTTPException(status, result)
            return Response(result, media_type=KINDS[fmt][2])
        endpoint.__doc__ = (f"De-identify a {'FHIR Bundle, resource or NDJSON' if fmt == 'fhir' else 'HL7 v2 message'} "
                            "body: the same records back, texts and identifiers de-identified (docs/fhir.md).")
        return endpoint

    for fmt in KINDS:
        app.post(f"/v1/{fmt}", responses={422: {"description": "a record cannot be read (by position)"},
                                          503: {"description": "no answer within the request timeout"}})(route(fmt))
