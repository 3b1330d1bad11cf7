"""Experiments: patient-grouped splits, cross-validation, learning curves, ablations, benchmark."""
