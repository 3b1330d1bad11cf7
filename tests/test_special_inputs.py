"""Issue 61: a FIFO or a device given where crfdeid reads a file is refused by name, never read:
through every reader (a FIFO blocked the FHIR, HL7 and i2b2 readers forever, ``/dev/zero`` read
until memory was gone) and as every side file (key, token, site, tables, lists, group table).
Each probe runs in a child process with a time limit: a read that waits fails the test, not the run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time

import pytest

from crfdeid.errors import ConfigError

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo") or not os.path.exists("/dev/zero"),
                                reason="FIFOs and /dev/zero (POSIX)")

READERS = ("text", "brat", "i2b2", "physionet", "jsonl", "csv", "fhir", "hl7")

PROBE = textwrap.dedent("""
    import json, resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))  # /dev/zero read whole: MemoryError, not a hung machine
    from crfdeid.errors import CrfdeidError
    from crfdeid.io import read
    out = {}
    for fmt in sys.argv[2:]:
        errors = []
        try:
            docs = list(read(f"{fmt}:{sys.argv[1]}", errors=errors))
            out[fmt] = [len(docs), [str(e) for e in errors]]
        except CrfdeidError as exc:
            out[fmt] = [0, [str(exc)]]
    print(json.dumps(out))
""")


def _probe(path, formats=READERS) -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE, str(path), *formats], capture_output=True, text=True,
                          timeout=180)  # a reader that waits on the FIFO hangs here
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_every_reader_refuses_a_fifo_or_a_device_by_name(tmp_path, special):
    if special == "fifo":
        special = tmp_path / "notes.in"
        os.mkfifo(special)
    for fmt, (docs, errors) in _probe(special).items():
        assert docs == 0, fmt
        said = " ".join(errors)
        assert ("FIFO" in said or "character device" in said) and "not read" in said, (fmt, said)


def _side_file_calls(path) -> dict:
    from crfdeid.config import read_yaml
    from crfdeid.deid import grouping
    from crfdeid.deid.key import read_key_file
    from crfdeid.io.brat import load_label_map
    from crfdeid.review.credentials import Credentials, set_token
    from crfdeid.site import Site
    from crfdeid.site.tables import read_list, read_table
    return {"--key-file": lambda: read_key_file(path), "--token-file": lambda: Credentials.from_file(path),
            "review token --token-file": lambda: set_token(path, "ann"), "--site": lambda: Site.load(path),
            "--site-table": lambda: read_table(path), "--site-list": lambda: read_list(path),
            "--group-table": lambda: grouping.read_table(path), "--config": lambda: read_yaml(path),
            "label_map=": lambda: load_label_map(path)}


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_every_side_file_refuses_a_fifo_or_a_device_by_name(tmp_path, special):
    if special == "fifo":
        special = tmp_path / "side.in"
        os.mkfifo(special)
    for option, call in _side_file_calls(special).items():
        started = time.monotonic()
        with pytest.raises(ConfigError, match="FIFO|character device") as caught:
            call()  # the FIFO has no writer: opening it to read would block this test forever
        assert "not read" in str(caught.value), option
        assert time.monotonic() - started < 5, option


def test_a_large_key_file_is_refused_quickly_by_name(tmp_path):
    from crfdeid.deid.key import MAX_SECRET_BYTES, _period, read_key_file
    big = tmp_path / "big.key"
    big.write_bytes(os.urandom(2 * MAX_SECRET_BYTES).hex().encode())
    big.chmod(0o600)
    started = time.monotonic()
    with pytest.raises(ConfigError, match="more than 1,048,576 bytes: not a key"):
        read_key_file(big)
    assert time.monotonic() - started < 2
    value = os.urandom(1 << 20)  # the check of a repeated key was quadratic: 28 s for 1 MB
    started = time.monotonic()
    assert _period(value) is None and _period(value[:1000] * 3) == 1000
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("value", [b"abababab", b"abcabcab", b"abcdefgh", b"", b"a", b"aa", b"aab", b"abaababa"])
def test_the_linear_period_is_the_shortest_repeat(value):
    from crfdeid.deid.key import _period
    naive = next((p for p in range(1, len(value) // 2 + 1) if value[p:] == value[:-p]), None)
    assert _period(value) == naive


def test_a_site_table_cell_over_the_csv_limit_is_a_named_error(tmp_path):
    from crfdeid.site.tables import read_table
    table = tmp_path / "site.csv"
    table.write_text("patient,first_name\np1," + "A" * (200 * 1024) + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="line .*: not a table row .*field limit"):
        read_table(table)


def test_spark_input_that_is_a_fifo_is_named(tmp_path):
    from crfdeid.cli.spark import _special
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.jsonl").write_text('{"id": "a", "text": "x"}\n', encoding="utf-8")
    assert _special(str(folder)) is None
    os.mkfifo(folder / "b.jsonl")
    assert "is a FIFO (named pipe), not a file: not read" in _special(str(folder))
    assert "character device" in _special("/dev/zero")
