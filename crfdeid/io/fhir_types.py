"""FHIR R4 element types as data: what the policy walk (:mod:`crfdeid.io.fhir_walk`) takes an
element to be, from its name, its resource and the suffix of a choice element (``valueString``).

The walk reads plain JSON (no FHIR model: a model validates, and drops or refuses the shapes it
does not know, where crfdeid must de-identify them). An element is typed by, in order:
:data:`BY_RESOURCE` (``Patient.name`` is a ``HumanName``, ``Organization.name`` a ``string``),
:data:`BY_NAME` (``identifier`` is an ``Identifier`` in every resource and data type), then the
type a choice element names (``onsetDateTime``, ``valueQuantity``: :data:`CHOICE_TYPES`), then
its shape (a string of date form is a ``dateTime``). An element of none of them is of no known
type, and its value is de-identified by its JSON shape (a string removed, an object walked).
"""

from __future__ import annotations

import re

#: Complex types that de-identification treats as a whole.
PHI_TYPES = frozenset({"HumanName", "Address", "ContactPoint", "Identifier", "Reference", "Attachment",
                       "Narrative", "Extension", "Annotation", "Age"})

#: The data types a choice element (``value[x]``, ``onset[x]``...) can name in its suffix.
CHOICE_TYPES = frozenset({
    "Base64Binary", "Boolean", "Canonical", "Code", "Date", "DateTime", "Decimal", "Id", "Instant",
    "Integer", "Markdown", "Oid", "PositiveInt", "String", "Time", "UnsignedInt", "Uri", "Url", "Uuid",
    "Address", "Age", "Annotation", "Attachment", "CodeableConcept", "Coding", "ContactPoint", "Count",
    "Distance", "Duration", "HumanName", "Identifier", "Money", "Period", "Quantity", "Range", "Ratio",
    "Reference", "SampledData", "Signature", "Timing", "ContactDetail", "Contributor", "DataRequirement",
    "Expression", "ParameterDefinition", "RelatedArtifact", "TriggerDefinition", "UsageContext", "Dosage",
    "Meta"})

#: Element name -> type, in any resource or data type (unless :data:`BY_RESOURCE` says otherwise).
BY_NAME = {
    "identifier": "Identifier", "masterIdentifier": "Identifier",
    "telecom": "ContactPoint", "address": "Address",
    "extension": "Extension", "modifierExtension": "Extension",
    "coding": "Coding", "period": "Period", "meta": "Meta", "note": "Annotation",
    "subject": "Reference", "patient": "Reference", "beneficiary": "Reference", "encounter": "Reference",
    "context": "Reference", "performer": "Reference", "requester": "Reference", "author": "Reference",
    "individual": "Reference", "assigner": "Reference", "managingOrganization": "Reference",
    "organization": "Reference", "serviceProvider": "Reference", "partOf": "Reference",
    "generalPractitioner": "Reference", "recorder": "Reference", "asserter": "Reference",
    "provider": "Reference", "insurer": "Reference", "payor": "Reference", "prescription": "Reference",
    "basedOn": "Reference", "location": "Reference", "practitioner": "Reference", "custodian": "Reference",
    "attachment": "Attachment", "presentedForm": "Attachment", "photo": "Attachment",
    "code": "CodeableConcept", "category": "CodeableConcept", "type": "CodeableConcept",
    "quantity": "Quantity", "low": "Quantity", "high": "Quantity",
}

#: ``(resource, element)`` -> type, where the element's name means another type there.
BY_RESOURCE = {
    ("Patient", "name"): "HumanName", ("Practitioner", "name"): "HumanName",
    ("RelatedPerson", "name"): "HumanName", ("Person", "name"): "HumanName",
    ("Bundle", "type"): "code", ("Bundle", "link"): "BackboneElement",
    ("Coding", "code"): "code", ("Quantity", "code"): "code", ("ContactPoint", "system"): "code",
    ("Attachment", "url"): "url", ("Extension", "url"): "uri", ("Reference", "type"): "uri",
    ("Identifier", "type"): "CodeableConcept", ("Location", "position"): "BackboneElement",
}

#: Primitive elements kept as they are when their value has the form of a code of a value set
#: (a few lower-case words joined by ``-``, ``.`` or ``_``): codes of required bindings.
CODE_ELEMENTS = frozenset({"status", "gender", "use", "intent", "priority", "mode", "kind", "resourceType",
                           "language", "contentType", "comparator", "method", "docStatus", "criticality",
                           "severity", "rank", "unit", "code"})
#: The form of such a code.
CODE_FORM = re.compile(r"[a-z][a-z0-9]*(?:[-._][a-z0-9]+){0,4}|[A-Z]{1,5}")

#: Elements whose value is a URI naming a code system, a profile or a type: kept when it has the
#: form of a URL or an OID (:data:`URI_FORM`).
URI_ELEMENTS = frozenset({"system", "profile", "valueSet", "tag", "security"})
URI_FORM = re.compile(r"(?:https?://[A-Za-z0-9.\-]+(?:/[A-Za-z0-9._\-]+)*/?|urn:oid:[0-9.]+|urn:ietf:[a-z0-9:\-]+)")

#: Numbers kept under these element names (a measurement, an order, a count); any other number
#: (an identifier written as a number, an age) is removed unless the policy keeps it.
NUMBER_ELEMENTS = frozenset({"value", "sequence", "rank", "numerator", "denominator", "factor", "lowerLimit",
                             "upperLimit", "dimensions", "count", "countMax", "duration", "durationMax",
                             "frequency", "frequencyMax", "periodMax", "offset", "size", "number",
                             "numberOfSeries", "numberOfInstances", "total", "multipleBirthInteger",
                             "valueInteger", "valueDecimal", "valuePositiveInt", "valueUnsignedInt",
                             "decimal", "min", "max", "repeats"})


def choice_type(key: str, step: str) -> str | None:
    """The type a choice element names (``valueString`` of ``value``: ``String``), or None when
    ``key`` is not ``step`` followed by a type name."""
    rest = key[len(step):]
    return rest if key.startswith(step) and rest in CHOICE_TYPES else None


def element_type(resource: str, parent: str | None, key: str) -> str | None:
    """The type of element ``key`` of ``resource`` under a node of type ``parent`` (None: unknown)."""
    for scope in (parent, resource):
        if scope and (scope, key) in BY_RESOURCE:
            return BY_RESOURCE[scope, key]
    if key in BY_NAME:
        return BY_NAME[key]
    m = re.match(r"[a-z]+(?=[A-Z])", key)
    if m:
        suffix = key[m.end():]
        if suffix in CHOICE_TYPES:
            return suffix[0].lower() + suffix[1:] if suffix[0].isupper() and suffix.lower() in (
                "string", "markdown", "boolean", "integer", "decimal", "code", "uri", "url", "id", "date",
                "datetime", "instant", "time", "base64binary", "oid", "uuid", "canonical", "positiveint",
                "unsignedint") else suffix
    return None
