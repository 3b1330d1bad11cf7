"""crfdeid: find and remove protected health information in clinical notes with a CRF."""

__version__ = "0.1.0"
