"""What ``python -m crfdeid spark`` does on one machine so that a killed run leaves no note in
the clear: the workers' interpreter, encrypted local I/O in a private folder, output staged.

- **Interpreter.** PySpark starts its Python workers with ``$PYSPARK_PYTHON``, else the
  ``python3`` on ``PATH``: from a cron job or a service that runs ``venv/bin/python -m
  crfdeid spark`` without activating the environment, that is another Python, without
  crfdeid. In local mode the workers run this interpreter (:data:`sys.executable`) unless
  ``PYSPARK_PYTHON`` names one.
- **Local disk.** Spark spills shuffle blocks (the notes, for ``surrogate``) and broadcasts
  to its local folder. Local mode encrypts that I/O (``spark.io.encryption.enabled``; the key
  lives in the JVM's memory only) and puts it in a private folder (0700) under
  ``crfdeid-spark-UID/run-PID`` of the system temporary folder (or ``--local-dir``), removed
  when the command ends; folders of runs that were killed are removed when the next run
  starts (:func:`private_local_dir`).
- **Output.** Spark writes to ``OUTPUT.incomplete`` (:func:`staging`), renamed to ``OUTPUT``
  when the job has written everything: a killed or failed run never leaves anything at
  ``OUTPUT``.
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path

from ..errors import ConfigError
from ..io.files import running

#: The settings local mode runs with (besides the local folder): loopback only, no web UI,
#: encrypted local I/O.
LOCAL_CONF = {
    "spark.driver.bindAddress": "127.0.0.1",
    "spark.driver.host": "127.0.0.1",
    "spark.ui.enabled": "false",
    "spark.io.encryption.enabled": "true",
}
#: What :func:`staging` adds to an output path.
INCOMPLETE = ".incomplete"


def staging(output: str) -> str:
    """Where the job writes before its output is complete: ``OUTPUT.incomplete`` beside it.

    >>> staging("deid/"), staging("hdfs:///data/deid.parquet")
    ('deid.incomplete', 'hdfs:///data/deid.parquet.incomplete')
    """
    return output.rstrip("/") + INCOMPLETE


def _root(base=None) -> Path:
    """``BASE/crfdeid-spark-UID``, made private if new; refused when not this user's private folder."""
    uid = os.getuid() if hasattr(os, "getuid") else 0
    root = Path(base or tempfile.gettempdir()) / f"crfdeid-spark-{uid}"
    try:
        root.parent.mkdir(parents=True, exist_ok=True)
        root.mkdir(mode=0o700, exist_ok=True)
        info = root.lstat()
    except OSError as exc:
        raise ConfigError(f"cannot make Spark's local folder: {exc.strerror}", path=root) from None
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode) or (
            hasattr(os, "getuid") and (info.st_uid != uid or stat.S_IMODE(info.st_mode) & 0o077)):
        raise ConfigError("not a private folder of this user (Spark's local files would be "
                          "readable by others): remove it or give --local-dir", path=root)
    return root


def remove_stale(base=None) -> Path:
    """Remove the local folders of runs that no longer run (killed: nothing removed them);
    the folder that holds them.

    Raises
    ------
    ConfigError
        When ``BASE/crfdeid-spark-UID`` belongs to someone else, is not private, or cannot
        be made.
    """
    root = _root(base)
    for old in root.glob("run-*"):
        pid = old.name[4:]
        if not pid.isdigit() or not running(int(pid)):
            shutil.rmtree(old, ignore_errors=True)
    return root


def private_local_dir(base=None) -> Path:
    """A new private folder (0700) for Spark's local files of this process,
    ``BASE/crfdeid-spark-UID/run-PID`` (``BASE``: the system temporary folder), after
    :func:`remove_stale` (whose errors it raises)."""
    run = remove_stale(base) / f"run-{os.getpid()}"
    shutil.rmtree(run, ignore_errors=True)  # an earlier session of this process
    run.mkdir(mode=0o700)
    return run


def local_session(master: str, local_dir: Path, app_name: str = "crfdeid"):
    """A new SparkSession on ``master`` (``local...``) with :data:`LOCAL_CONF`, ``local_dir``
    as its only local folder, and this interpreter for the workers unless ``PYSPARK_PYTHON``
    names one."""
    from pyspark.sql import SparkSession
    if not os.environ.get("PYSPARK_PYTHON"):  # read when the context starts
        os.environ["PYSPARK_PYTHON"] = sys.executable
    builder = SparkSession.builder.appName(app_name).master(master)
    for name, value in {**LOCAL_CONF, "spark.local.dir": str(local_dir)}.items():
        builder = builder.config(name, value)
    # the JVM takes SPARK_LOCAL_DIRS over spark.local.dir: the private folder either way
    before = os.environ.get("SPARK_LOCAL_DIRS")
    os.environ["SPARK_LOCAL_DIRS"] = str(local_dir)
    try:
        return builder.getOrCreate()
    finally:
        if before is None:
            os.environ.pop("SPARK_LOCAL_DIRS", None)
        else:
            os.environ["SPARK_LOCAL_DIRS"] = before


class HadoopPaths:
    """Existence, deletion and renaming of output folders through Spark's Hadoop file system
    (local paths, ``hdfs://``, ``s3a://`` alike)."""

    def __init__(self, spark):
        self.jvm, self.conf = spark._jvm, spark._jsc.hadoopConfiguration()

    def _fs(self, path: str):
        p = self.jvm.org.apache.hadoop.fs.Path(path)
        return p.getFileSystem(self.conf), p

    def exists(self, path: str) -> bool:
        fs, p = self._fs(path)
        return bool(fs.exists(p))

    def delete(self, path: str) -> None:
        fs, p = self._fs(path)
        fs.delete(p, True)

    def rename(self, src: str, dst: str) -> None:
        fs, p = self._fs(src)
        if not fs.rename(p, self.jvm.org.apache.hadoop.fs.Path(dst)):
            raise ConfigError(f"cannot rename the finished output to {dst!r}", path=src)

    def files(self, path: str) -> list[tuple[str, str]]:
        """``(full path, name)`` of the data files at ``path``: the file itself, or those in the
        folder Spark would read (sorted; names starting with ``_`` or ``.`` left out)."""
        fs, p = self._fs(path)
        status = fs.getFileStatus(p)
        if not status.isDirectory():
            return [(str(status.getPath()), Path(path).name)]
        found = [(str(s.getPath()), s.getPath().getName()) for s in fs.listStatus(p) if s.isFile()]
        return sorted((full, name) for full, name in found if not name.startswith(("_", ".")))
