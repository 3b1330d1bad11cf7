"""FHIR through Spark, in local mode: the files ``tag --output-format fhir --site-mining off`` writes,
byte for byte, for the made-up resources of tests/data/fhir (every Spark job is marked slow), and
the first pass's tables as ``tag`` builds them (fast)."""

from __future__ import annotations

import base64
import json
import re

import pytest

pytest.importorskip("pyspark")  # before crfdeid.spark.fhir, which needs the spark extra (pandas)
pytest.importorskip("pyarrow")

from crfdeid.io import fhir  # noqa: E402
from crfdeid.io.runmanifest import notes_only  # noqa: E402
from crfdeid.spark import fhir as spark_fhir  # noqa: E402
from crfdeid.spark.fhir import components, people_tables  # noqa: E402

SPARK_WARNING = "ignore:.*pandas >= 3.0.0.*:FutureWarning"


def _tag(tmp_path, src, *opts):
    from crfdeid.cli import tag
    out = tmp_path / "tag"
    assert tag.main(["--quiet", "--input-format", "fhir", "--output-format", "fhir", "--output-dir", str(out),
                     "--site-mining", "off", *opts, str(src)]) == 0
    return {p.name: p.read_bytes() for p in notes_only(out.iterdir())}  # tag also writes its run manifest


def _spark(tmp_path, src, *opts):
    from crfdeid.cli import spark as cli
    out = tmp_path / "spark"
    code = cli.main(["--input-format", "fhir", "--input", str(src), "--output", str(out), "--quiet",
                     "--partitions", "3", *opts])
    return code, ({p.name: p.read_bytes() for p in out.iterdir()} if out.exists() else {})


@pytest.mark.slow
@pytest.mark.filterwarnings(SPARK_WARNING)
@pytest.mark.parametrize("style", ["surrogate", "redacted"])
@pytest.mark.parametrize("where", ["bulk", "bundle.json"])
@pytest.mark.usefixtures("spark")
def test_spark_writes_the_files_tag_writes(tmp_path, data_dir, style, where):
    src = data_dir / "fhir" / where
    expected = _tag(tmp_path, src, "-o", f"text={style}", "--seed", "5")
    code, got = _spark(tmp_path, src, "--output-format", style, "--seed", "5")
    assert code == 0 and got == expected  # byte for byte: ids, displays, surrogates, date offsets
    assert set(got) == ({p.name for p in src.iterdir()} if src.is_dir() else {where})
    everything = b"".join(got.values())
    decoded = b"".join(base64.b64decode(m) for m in re.findall(rb'"data": ?"([A-Za-z0-9+/=]+)"', everything))
    files = [(str(p), p.read_bytes(), p.name) for p in (sorted(src.iterdir()) if src.is_dir() else [src])]
    patients = {k: v for k, v in fhir.people_of(fhir._records(files, pytest.fail, None)).items()
                if k.startswith("Patient/")}
    assert patients
    for key, words in patients.items():  # the made-up patients' ids and names, in no file nor note
        for value in [key.split("/")[1], *(w for w in words if len(w) > 2)]:
            assert value.encode() not in everything + decoded, value


@pytest.mark.slow
@pytest.mark.filterwarnings(SPARK_WARNING)
@pytest.mark.usefixtures("spark")
def test_a_policy_file_is_applied_as_tag_applies_it(tmp_path, data_dir):
    policy = tmp_path / "mine.yaml"
    policy.write_text("extends: safe-harbor\nrules:\n  - {path: Observation.valueQuantity, method: keep}\n",
                      encoding="utf-8")
    src = data_dir / "fhir" / "bulk"
    expected = _tag(tmp_path, src, "--fhir-policy", str(policy), "--seed", "3")
    code, got = _spark(tmp_path, src, "--fhir-policy", str(policy), "--seed", "3")
    assert code == 0 and got == expected


def _note(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


@pytest.mark.slow
@pytest.mark.filterwarnings(SPARK_WARNING)
@pytest.mark.usefixtures("spark")
def test_a_bad_line_or_resource_is_named_and_never_takes_the_rest(tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    good = {"resourceType": "DocumentReference", "id": "d1", "subject": {"reference": "Patient/p9"},
            "content": [{"attachment": {"contentType": "text/plain", "data": _note("Seen by Dr. Quillon today.")}}]}
    bad_data = {"resourceType": "DocumentReference", "id": "d2", "subject": {"reference": "Patient/p9"},
                "content": [{"attachment": {"contentType": "text/plain", "data": "Zorba Quinlan!!"}}]}
    lines = [json.dumps(good), '{"resourceType": "Patient", "name": "Zorba Quinlan"', json.dumps(bad_data),
             json.dumps({"name": "Zorba Quinlan"}), json.dumps({**good, "id": "d3"})]
    (src / "DocumentReference.ndjson").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (src / "Patient.ndjson").write_text(json.dumps({"resourceType": "Patient", "id": "p9", "name": [
        {"family": "Quillon", "given": ["Zorba"]}]}) + "\n", encoding="utf-8")
    code, got = _spark(tmp_path, src)
    err = capsys.readouterr().err
    assert code == 1
    for line in (2, 3, 4):
        assert f"line {line}" in err
    assert "Zorba" not in err and "Quinlan" not in err and "Quillon" not in err
    out = got["DocumentReference.ndjson"].decode().splitlines()
    assert len(out) == 2 and set(got) == {"DocumentReference.ndjson", "Patient.ndjson"}
    notes = [base64.b64decode(json.loads(x)["content"][0]["attachment"]["data"]).decode() for x in out]
    assert all("Quillon" not in n and n.startswith("Seen by") for n in notes)


@pytest.mark.parametrize("args, message", [
    (["--fhir-policy", "x.yaml"], "--fhir-policy is for FHIR input"),
    (["--input-format", "fhir", "--write-format", "parquet"], "need"),
    (["--input-format", "fhir", "-o", "text=masked"], "--output-format"),
    (["--input-format", "fhir", "--fhir-policy", "no-such-policy"], "no such FHIR policy"),
])
def test_fhir_options_are_refused_before_spark_starts(tmp_path, data_dir, capsys, args, message):
    from crfdeid.cli import spark as cli
    assert cli.main(["--input", str(data_dir / "fhir" / "bulk"), "--output", str(tmp_path / "o"), *args]) == 2
    assert message in capsys.readouterr().err and not (tmp_path / "o").exists()


def test_the_first_pass_tables_are_those_of_the_whole_input(data_dir):
    """Merged record by record in file and line order, the people tables equal tag's, read at once."""
    files = [(str(p), p.read_bytes(), p.name) for p in sorted((data_dir / "fhir" / "bulk").iterdir())]
    files.append((str(data_dir / "fhir" / "export.ndjson"), (data_dir / "fhir" / "export.ndjson").read_bytes(),
                  "export.ndjson"))
    records = fhir._records(files, pytest.fail, None)
    rows = [(json.dumps(fhir.known_of([r])), json.dumps(fhir.people_of([r]))) for r in records]
    known, people = people_tables(rows)
    assert known == fhir.known_of(records) and people == fhir.people_of(records)
    assert known and people  # the test data has people


def test_records_that_share_a_group_are_one_component():
    found = components([["PractitionerRole/r1", "Practitioner/x"], ["Patient/a", "Patient/b"],
                        ["Practitioner/x", "Organization/o"]])
    assert found["PractitionerRole/r1"] == found["Organization/o"] == found["Practitioner/x"]
    assert found["Patient/a"] == found["Patient/b"] != found["Practitioner/x"]


def test_a_practitioner_role_touches_its_practitioner_a_patient_record_only_its_patient(data_dir):
    files = [(str(p), p.read_bytes(), p.name) for p in sorted((data_dir / "fhir" / "bulk").iterdir())]
    records = fhir._records(files, pytest.fail, None)
    list(fhir.record_documents(records, pytest.fail, {}, {}))
    touched = {r.payload["resourceType"]: fhir.touched(r) for r in records}
    assert any(g.startswith("Practitioner/") for g in touched["PractitionerRole"])
    assert len(touched["PractitionerRole"]) == 2
    for kind in ("Encounter", "Claim", "DocumentReference"):
        assert len(touched[kind]) == 1 and next(iter(touched[kind])).startswith("Patient/"), kind
    assert spark_fhir.DEID == "deid_fhir"
