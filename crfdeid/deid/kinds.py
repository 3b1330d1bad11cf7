"""How a label reaches one of the surrogate generators a declared label scheme can name
(:data:`crfdeid.schema.SURROGATE_KINDS`).

Each kind is registered under a name and stands for the i2b2 2014 label whose
generator, date shifting, age policy and leak checks :class:`~crfdeid.deid.Surrogator`
applies (``date`` shifts by the patient's offset, ``name`` draws consistent names,
``age`` keeps ages of 89 or less...). ``random`` is the shape-keeping random
replacement (letters to letters, digits to digits, consistent per patient): the
kind of every label a scheme gives no generator, and of every label of a scheme
read from a corpus.

>>> SURROGATE_KINDS.get("date"), SURROGATE_KINDS.get("random")
(('DATE', 'DATE'), ('ID', 'IDNUM'))
>>> from crfdeid.document import Span
>>> from crfdeid.schema import Scheme
>>> s = Scheme.from_dict({"labels": {"Fecha": {"surrogate": "date"}, "Codigo": {}}})
>>> stand_in(Span(0, 4, "Fecha", "Fecha"), s), stand_in(Span(0, 4, "Codigo", "Codigo"), s)
(Span(start=0, end=4, category='DATE', subtype='DATE'), Span(start=0, end=4, category='ID', subtype='IDNUM'))
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import replace

from ..document import Span
from ..errors import ConfigError
from ..schema import DEFAULT_KIND, I2B2, SURROGATE_KINDS, Scheme

__all__ = ["DEFAULT_KIND", "SURROGATE_KINDS", "stand_in", "guess_kind", "settle_kinds", "parse_kinds"]



def stand_in(span: Span, scheme) -> Span:
    """The i2b2-labelled span whose surrogate rules ``span`` follows under ``scheme``.

    Spans of the i2b2 scheme (``scheme`` ``None`` or with i2b2 labels) are their own stand-ins.
    """
    if scheme is None or scheme is I2B2:
        return span
    lab = scheme.label(span.subtype)
    kind = (lab.surrogate if lab is not None else None) or DEFAULT_KIND
    return Span(span.start, span.end, *SURROGATE_KINDS.get(kind))


#: Words of a label's name that tell its generator, tried in this order (a date of birth is a
#: date, a patient's age an age, a patient's name a name): a word of the name equal to one of
#: them, or beginning with one of four letters or more, gives the kind. Accents are ignored.
GUESSES = {
    "date": ("date", "fecha", "datum", "data", "dato", "datetime", "dob", "дата", "ημερομηνια",
             "日付", "日期"),
    "age": ("age", "edad", "alter", "eta", "idade", "leeftijd", "возраст", "ηλικια", "年齢"),
    "phone": ("phone", "telephone", "telefono", "telefon", "tel", "tlf", "movil", "mobile", "телефон",
              "τηλεφωνο", "電話"),
    "fax": ("fax",),
    "email": ("email", "mail", "correo", "courriel"),
    "url": ("url", "web", "website"),
    "zip": ("zip", "postal", "postcode", "plz", "cp"),
    "street": ("street", "address", "direccion", "domicilio", "calle", "adresse", "strasse", "indirizzo",
               "endereco", "adres", "улица", "адрес", "διευθυνση", "住所"),
    "city": ("city", "ciudad", "ville", "stadt", "citta", "cidade", "town", "municipio", "localidad",
             "город", "πολη"),
    "country": ("country", "pais", "pays", "paese", "страна"),
    "hospital": ("hospital", "hopital", "krankenhaus", "ospedale", "clinic", "clinica", "klinik",
                 "больница"),
    "profession": ("profession", "profesion", "occupation", "ocupacion", "beruf"),
    "username": ("username", "usuario", "login"),
    "name": ("name", "nombre", "nom", "nome", "naam", "apellido", "surname", "vorname", "nachname",
             "cognome", "patient", "paciente", "patiente", "doctor", "medico", "medecin", "arzt",
             "nurse", "enfermera", "relative", "familiar", "person", "persona", "имя", "фамилия",
             "пациент", "врач", "ονομα", "ασθενης", "ιατρος"),
}


def _words(label: str) -> list[str]:
    """The words of a label's name, lower-cased, accents removed: ``NombrePaciente`` ->
    ``nombre``, ``paciente``; ``FECHA_INGRESO`` -> ``fecha``, ``ingreso``."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", label) if not unicodedata.combining(c))
    return [w.lower() for part in re.split(r"[\W_]+", plain)
            for w in re.findall(r"[A-Z]?[^\WA-Z\d_]+|[A-Z]+(?![^\WA-Z\d_])|\d+", part) or [part] if w]


def guess_kind(label: str) -> str | None:
    """The surrogate generator a label's name suggests (:data:`GUESSES`), or None.

    >>> [guess_kind(n) for n in ("Fecha", "FechaNacimiento", "EdadPaciente", "NombreMedico", "Telefono",
    ...                          "DIRECCION", "Ciudad", "NumHistoria", "DATUM", "Возраст")]
    ['date', 'date', 'age', 'name', 'phone', 'street', 'city', None, 'date', 'age']
    """
    words = _words(label)
    for kind, stems in GUESSES.items():
        if any(w == s or (len(s) >= 4 and w.startswith(s)) for w in words for s in stems):
            return kind
    return None


def _needs_generator(label) -> bool:
    """Whether a label without a generator would be surrogated wrongly by the random
    replacement: its name suggests a generator that is not the random one's."""
    kind = guess_kind(label.name)
    return label.surrogate is None and kind is not None and \
        SURROGATE_KINDS.get(kind) != SURROGATE_KINDS.get(DEFAULT_KIND)


def parse_kinds(value) -> dict[str, str]:
    """The writer option ``kinds``: ``guess``, ``LABEL:KIND`` pairs separated by commas, or
    both (``guess,Codigo:random``); a mapping is taken as it is.

    >>> parse_kinds("guess,Codigo:random")
    {'*': 'guess', 'Codigo': 'random'}
    """
    if isinstance(value, Mapping):
        return {str(k): str(v) for k, v in value.items()}
    out: dict[str, str] = {}
    for item in str(value).split(","):
        item = item.strip()
        if item == "guess":
            out["*"] = "guess"
        elif item:
            label, sep, kind = item.partition(":")
            if not sep or not label.strip() or not kind.strip():
                raise ConfigError(f"kinds: want guess or LABEL:KIND pairs separated by commas, not {item!r}")
            out[label.strip()] = kind.strip()
    return out


def settle_kinds(scheme, kinds=None) -> tuple[Scheme | None, list[str]]:
    """``(scheme, notes)``: the scheme whose labels surrogates are made for, with the generators
    ``kinds`` gives (:func:`parse_kinds`; ``guess``: :func:`guess_kind` for every label without
    one), and one note a label that got a generator this way (for the summary).

    A label with no generator, whose name suggests one (a date, an age, a name: the random
    replacement would leave a date unshifted, an age over 89, a name of random letters), is
    refused unless ``kinds`` covers it: surrogates are never made that way without the user's
    word. The i2b2 scheme (its labels have their own generators) and an open one pass as they are.

    Raises
    ------
    ConfigError
        Names the labels, the generators their names suggest and the ways to give them.
    """
    if scheme is None or scheme is I2B2 or scheme.open:
        return scheme, []
    given = parse_kinds(kinds) if kinds else {}
    guess = given.pop("*", None) == "guess"
    unknown = sorted(k for k in given if scheme.label(k) is None)
    if unknown:
        raise ConfigError(f"kinds: no label {', '.join(unknown)} in the model's scheme; its labels: "
                          f"{', '.join(lab.name for lab in scheme.labels)}")
    for name in given.values():
        SURROGATE_KINDS.get(name)  # an unknown kind: the error lists the known ones
    by_label = {scheme.label(k).name: v for k, v in given.items()}
    labels, notes = [], []
    for lab in scheme.labels:
        kind: str | None = by_label.get(lab.name)
        how = "given"
        if kind is None and guess and lab.surrogate is None:
            kind, how = guess_kind(lab.name) or DEFAULT_KIND, "guessed"
        if kind is not None:
            notes.append(f"{lab.name} {kind} ({how})")
            lab = replace(lab, surrogate=kind)
        labels.append(lab)
    missing = [lab for lab in labels if _needs_generator(lab)]
    if missing:
        named = ", ".join(f"{lab.name} (looks like {guess_kind(lab.name)})" for lab in missing)
        pairs = ",".join(f"{lab.name}:{guess_kind(lab.name)}" for lab in missing)
        raise ConfigError(
            f"surrogate output: no surrogate generator for label(s) {named} of the scheme "
            f"{scheme.name!r}; the random replacement of the same shape would leave dates unshifted, "
            f"ages over 89 as they are, names and places of random letters. Take the guesses with the writer option "
            f"kinds=guess (tag -o kinds=guess), name them (kinds={pairs}; generators: "
            f"{', '.join(SURROGATE_KINDS.names())}), or declare them in the config's scheme "
            f"(labels: {{{missing[0].name}: {{surrogate: {guess_kind(missing[0].name)}}}}}; docs/byo.md)")
    return Scheme(scheme.name, labels, scheme.hipaa_optional), notes
