"""The ``--scheme`` option of ``evaluate`` and ``corpus surrogate``: a scheme by name or from a file."""

from __future__ import annotations

from pathlib import Path

from .. import schema
from ..config import read_yaml
from ..errors import ConfigError
from ..tagging.modelfile import MAGIC, is_model_file, parse


def load_scheme(spec: str | None):
    """The scheme a command is told to score or read with: ``auto`` (``None``: the corpus'), ``i2b2``,
    a model file (its scheme), or a YAML file: a config (its ``scheme``) or a scheme mapping."""
    if spec is None or spec == "auto":
        return None
    if spec in schema.NAMED:
        return schema.get(spec)
    path = Path(spec)
    try:
        with open(path, "rb") as fh:
            is_model = is_model_file(fh.read(len(MAGIC)))
    except OSError as exc:
        raise ConfigError(f"cannot read scheme: {exc.strerror}", path=path) from None
    if is_model:
        manifest, _ = parse(path.read_bytes(), path)
        return schema.get((manifest.get("config") or {}).get("scheme"), path)
    data = read_yaml(path)
    declared = data.get("scheme") if "labels" not in data else data
    return None if declared is None else schema.get(declared, path)
