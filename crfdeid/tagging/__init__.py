"""Tagging, whatever the model: what the CRF (:mod:`crfdeid.crf`) and the networks
(:mod:`crfdeid.neural`) share, and the session every entry point runs.

- :mod:`.model`: :class:`~crfdeid.tagging.model.TaggingModel` (tokens, segments, a backend's
  labels -> spans -> the post-CRF chain; batches, long notes; loading a file of any kind).
- :mod:`.decoding`: the recall-oriented threshold, a companion CRF's averaged marginals, the o-words.
- :mod:`.modelfile`, :mod:`.crfsuite_check`: the model file and its checks.
- :mod:`.kinds`: the model kinds' registry (``crf``, and the networks).
- :mod:`.session`: :class:`~crfdeid.tagging.session.Session`, what ``tag``, ``serve``,
  ``spark``, the review app, the adapters and the Python API run.
"""
