"""Tagging, whatever the model: the tagging model interface, decoding, the model file and the
model kinds' registry, shared by the CRF (:mod:`crfdeid.crf`) and the networks
(:mod:`crfdeid.neural`)."""
