"""The commands run OpenBLAS single-threaded unless the user set OPENBLAS_NUM_THREADS."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _threads_seen(env: dict, first: str = "") -> str:
    code = f"{first}import crfdeid.cli, numpy, os; print(os.environ.get('OPENBLAS_NUM_THREADS'))"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-300:]
    return out.stdout.strip()


@pytest.mark.parametrize("given, expected", [(None, "1"), ("3", "3")])
def test_commands_run_openblas_single_threaded_unless_the_user_chose(given, expected):
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given:
        env["OPENBLAS_NUM_THREADS"] = given
    assert _threads_seen(env) == expected


def test_a_program_that_loaded_numpy_first_is_left_alone():
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    assert _threads_seen(env, first="import numpy; ") == "None"
