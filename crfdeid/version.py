"""The version of crfdeid, in the lowest layer: model files and result files record it."""

__version__ = "0.2.0"
