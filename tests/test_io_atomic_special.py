"""Writing an output whose path is a device or a pipe writes into it, never renames over it
(a rename would put a plain file where ``/dev/null`` was, for every program on the machine)."""

from __future__ import annotations

import os
import stat
import threading

import pytest

from crfdeid.io import atomic_write


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_output_stays_a_fifo_and_gets_the_bytes(tmp_path):
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []

    def read():
        with open(fifo, "rb") as f:
            got.append(f.read())
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    atomic_write(fifo, "scores\n")
    reader.join(10)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)             # still a pipe, not a plain file
    assert got == [b"scores\n"]
    assert [p.name for p in tmp_path.iterdir()] == ["out.fifo"]  # no temporary file left


def test_a_plain_file_is_still_replaced_whole(tmp_path):
    out = tmp_path / "a.json"
    out.write_text("old and longer\n")
    atomic_write(out, "new\n")
    assert out.read_text() == "new\n" and stat.S_ISREG(os.stat(out).st_mode)
