"""bench/fhir_output.py third-party's comparison, offline on made-up records: a value that comes out whole is
counted, one replaced or inside a longer number is not, table codes are not identifying; the sample
messages are read as data."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location("fhir_output",
                                               Path(__file__).parent.parent / "bench" / "fhir_output.py")
check = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check)

MESSAGE = "MSH|^~\\&|LAB|H|OE|B|200202150930||ORU^R01|1|P|2.4\nPID|||4471-22^^^100||MERRIDEW^ANSEL||19620314|M|||" \
          "9 QUILL LANE^^DUNMORE^OH^35292^USA^HOME\nZPI|1|Tansley^Oriel"


def test_the_identifying_parts_of_a_message_and_of_a_z_segment_are_listed():
    values = check.hl7_values(MESSAGE)
    assert ("PID-5", "MERRIDEW") in values and ("PID-3", "4471-22") in values and ("ZPI-2", "Oriel") in values
    assert ("PID-11", "HOME") in values


def test_a_value_counts_as_come_out_only_whole_and_codes_never():
    values = check.hl7_values(MESSAGE)
    left = check.survivors(values, MESSAGE.replace("MERRIDEW", "[**PATIENT**]").replace("19620314", "2019620314"))
    assert ("PID-5", "MERRIDEW") not in left and ("PID-7", "19620314") not in left
    assert ("PID-5", "ANSEL") in left and ("ZPI-2", "Tansley") in left
    assert not any(v in check.CODES for _, v in left)


def test_a_bundles_people_and_what_no_policy_names_are_listed():
    bundle = {"entry": [{"resource": {"resourceType": "Patient", "name": [{"family": "Merridew", "given": ["Ansel"]}],
                                      "extension": [check.ADDED], "x-local-note": "a note", "birthDate": "1962-03-14",
                                      "contact": check.CONTACT}},
                        {"resource": {"resourceType": "Observation", "valueString": "Merridew sign"}}]}
    where = {w for w, _ in check.fhir_values(bundle)}
    assert where == {"Patient.name", "Patient.birthDate", "Patient.contact", "Patient.extension (no policy)",
                     "Patient.x-local-note (no FHIR name)"}


def test_the_sample_module_is_read_without_running_it(tmp_path):
    (tmp_path / "samples.py").write_text('import os\nsample = "\\r".join(["MSH|^~\\\\&|A", "PID|||1"])\n'
                                         'sample_bad = "\\r".join(["MSH|x"])\nos.remove("nothing")\n')
    assert check._samples(tmp_path / "samples.py") == {"sample": "MSH|^~\\&|A\rPID|||1"}
