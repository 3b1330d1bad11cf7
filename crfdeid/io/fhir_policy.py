"""The FHIR de-identification policy: rules by resource type and path, read from YAML.

A policy is data (``configs/fhir/safe-harbor.yaml`` is the shipped default; a user's own is
given with ``tag --fhir-policy FILE``)::

    rules:
      - {path: "nodesByType('Extension')", method: redact}
      - {path: Observation.valueString, method: text}
      - {path: "*.identifier.value", method: hash}
    extends: safe-harbor     # optional: these rules first, then the shipped policy's

A path is a resource type (``Patient``), ``*`` or ``Resource`` (any resource), or
``nodesByType('Type')`` (any element of that data type, :mod:`crfdeid.io.fhir_types`), then
element names joined by dots; a name matches a choice element of it too (``Observation.value``
matches ``valueQuantity``). The first rule that matches an element decides; an element no rule
matches is de-identified by its data type (:data:`DEIDENTIFY`), never written as it came.

Methods (:data:`METHODS`): ``keep``; ``text`` (the notes and free texts the reader reads,
:data:`TEXT_PATHS` and :data:`FREE_TEXTS`, through the model); ``redact`` (removed);
``deidentify`` (by its data type: names, identifiers, telecom and addresses removed, or
replaced by the patient's surrogates with ``-o text=surrogate``; dates
cut to the year or moved; strings removed); ``shift`` (a date moved by the patient's offset,
else cut to its year); ``hash`` (a keyed hash of the value, the key of the surrogates);
``generalize`` (a postal code to its first 3 digits, ``000`` where those name fewer than
20,000 people; a date to its year; anything else removed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .. import _data
from ..errors import ConfigError

#: The methods a rule may name.
METHODS = ("keep", "text", "redact", "deidentify", "shift", "hash", "generalize")
#: What an element no rule names gets.
DEIDENTIFY = "deidentify"
#: The paths whose text the reader reads (``text`` is valid there only: elsewhere no model sees it).
TEXT_PATHS = frozenset({("DocumentReference", ("content", "attachment", "data")),
                        ("DiagnosticReport", ("presentedForm", "data")),
                        ("Observation", ("valueString",))})
#: The free texts the reader reads besides the notes, through the model with the patient's
#: surrogates (``text`` is valid there too): ``(resource type or None for any, element names)``.
#: Annotations (``note.text``), a message's payload, descriptions and conclusions.
FREE_TEXTS: tuple[tuple[str | None, tuple[str, ...]], ...] = (
    (None, ("note", "text")),
    ("AllergyIntolerance", ("reaction", "description")),
    ("AllergyIntolerance", ("reaction", "note", "text")),
    ("CarePlan", ("activity", "progress", "text")),
    ("ClaimResponse", ("processNote", "text")),
    ("ClinicalImpression", ("description",)),
    ("ClinicalImpression", ("summary",)),
    ("Communication", ("payload", "contentString")),
    ("CommunicationRequest", ("payload", "contentString")),
    ("DiagnosticReport", ("conclusion",)),
    ("DocumentReference", ("description",)),
    ("ExplanationOfBenefit", ("processNote", "text")),
)
#: The shipped default policy.
DEFAULT = "safe-harbor"

_PATH = re.compile(r"(?:nodesByType\('([A-Z][A-Za-z]*)'\)|([A-Z][A-Za-z]*|\*))((?:\.[a-z][A-Za-z0-9]*)*)")
_KEYS = frozenset({"path", "method", "comment"})
_TOP = frozenset({"rules", "extends", "description"})


@dataclass(frozen=True)
class Rule:
    """One rule: ``resource`` (None: any) or ``node_type``, the element names after it, the method."""

    path: str
    resource: str | None
    node_type: str | None
    steps: tuple[str, ...]
    method: str


class Policy:
    """Rules in order; :meth:`method` gives the first that matches an element, or None.

    Parameters
    ----------
    rules : list of Rule
    source : str
        The file the rules were read from (for messages).
    """

    def __init__(self, rules: list[Rule], source: str):
        self.rules = rules
        self.source = source
        # resource type -> (last step -> [(order, rule)], [(order, rule) of node types alone]): only
        # the rules whose last step can name an element are tried on it (the walk asks per element)
        self._index: dict[str, tuple[dict[str, list], list]] = {}

    def method(self, resource: str, path: tuple[str, ...], types: list[tuple[int, str]]) -> str | None:
        """The method of the first rule matching the element at ``path`` (element keys from the
        resource) of ``resource``; ``types``: ``(depth, type)`` of the typed nodes on the way
        (depth: how many keys of ``path`` lead to the node)."""
        index = self._index.get(resource)
        if index is None:
            index = self._index[resource] = self._of(resource)
        last, bare = index
        key = path[-1] if path else ""
        names = [key] + [key[:i] for i in range(1, len(key)) if key[i].isupper()]
        found = [c for n in names for c in last.get(n, ())]
        for _, rule in sorted(found + bare, key=lambda c: c[0]) if found else bare:
            if rule.node_type is None:
                if _matches(rule.steps, path):
                    return rule.method
            else:
                for depth, kind in types:
                    if kind == rule.node_type and _matches(rule.steps, path[depth:]):
                        return rule.method
        return None

    def _of(self, resource: str) -> tuple[dict[str, list], list]:
        last: dict[str, list] = {}
        bare: list = []
        for n, rule in enumerate(self.rules):
            if rule.resource in (None, resource):
                (last.setdefault(rule.steps[-1], []) if rule.steps else bare).append((n, rule))
        return last, bare


def _matches(steps: tuple[str, ...], keys: tuple[str, ...]) -> bool:
    if len(steps) != len(keys):
        return False
    for step, key in zip(steps, keys):
        if key != step and not (key.startswith(step) and key[len(step):len(step) + 1].isupper()):
            return False
    return True


def load_policy(spec=None, depth: int = 0) -> Policy:
    """The policy of a YAML file, or the shipped one of that name (None: :data:`DEFAULT`).

    Raises
    ------
    ConfigError
        The file cannot be read or is no policy; a rule has an unknown key or method or a
        malformed path (the message names the file and the rule's number and path).
    """
    import yaml

    spec = DEFAULT if spec is None else spec
    path = Path(spec)
    if not path.is_file():
        shipped = _data.folder("configs") / "fhir" / f"{spec}.yaml"
        if not shipped.is_file():
            raise ConfigError("no such FHIR policy file (nor a shipped policy of that name: "
                              f"{DEFAULT})", path=path)
        path = shipped
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read the FHIR policy ({type(exc).__name__})", path=path) from None
    if not isinstance(data, dict) or set(data) - _TOP or not isinstance(data.get("rules"), list):
        raise ConfigError("a FHIR policy is a mapping with 'rules' (a list) and optionally 'extends' (a "
                          f"policy whose rules follow these) and 'description'; allowed: {', '.join(sorted(_TOP))}",
                          path=path)
    rules = [_rule(r, n, path) for n, r in enumerate(data["rules"], 1)]
    base = data.get("extends")
    if base is not None:
        if not isinstance(base, str) or Path(base).resolve() == path.resolve() or depth > 4:
            raise ConfigError(f"extends: {base!r} is not a policy to extend (a shipped name such as {DEFAULT}, "
                              "or another file)", path=path)
        rules += load_policy(base if not (path.parent / base).is_file() else path.parent / base, depth + 1).rules
    return Policy(rules, str(path))


def _rule(raw, n: int, path: Path) -> Rule:
    where = f"rule {n}"
    if not isinstance(raw, dict):
        raise ConfigError(f"{where}: a rule is a mapping with path and method", path=path)
    unknown = set(raw) - _KEYS
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {', '.join(sorted(map(str, unknown)))}; allowed: "
                          f"{', '.join(sorted(_KEYS))}", path=path)
    text, method = raw.get("path"), raw.get("method")
    if method not in METHODS:
        raise ConfigError(f"{where} ({text}): unknown method {method!r}; known: {', '.join(METHODS)}", path=path)
    m = _PATH.fullmatch(text) if isinstance(text, str) else None
    if m is None:
        raise ConfigError(f"{where}: malformed path {text!r}: a resource type, '*' or nodesByType('Type'), "
                          "then element names joined by dots (Patient.name, *.identifier.value)", path=path)
    node_type, resource, rest = m.groups()
    steps = tuple(s for s in rest.split(".") if s)
    resource = None if resource in ("*", "Resource") else resource
    if method == "text" and not reads(resource, node_type, steps):
        raise ConfigError(f"{where} ({text}): method text only where the reader reads a note or a free "
                          f"text ({', '.join(r + '.' + '.'.join(s) for r, s in sorted(TEXT_PATHS))}, "
                          f"nodesByType('Annotation').text, "
                          f"{', '.join((r or '*') + '.' + '.'.join(s) for r, s in FREE_TEXTS)})", path=path)
    return Rule(str(text), resource, node_type, steps, method)


def reads(resource: str | None, node_type: str | None, steps: tuple[str, ...]) -> bool:
    """Whether the reader reads the text a rule's path names (a note or a free text), so that
    ``text`` may be its method."""
    if node_type is not None:
        return node_type == "Annotation" and steps == ("text",)
    return (resource, steps) in TEXT_PATHS or any(
        r in (None, resource) and s == steps for r, s in FREE_TEXTS)
