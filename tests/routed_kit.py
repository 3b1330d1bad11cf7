"""Tiny routed models for the tests: member and routed configs written to a folder, trained in seconds.

Two members (``icu``: made-up ICU notes; ``specialty``: ICU and specialty notes), each a CRF of a
few L-BFGS iterations on a few synthetic notes, and a router trained on 300 synthetic notes of
each kind. ``OPERATIVE`` and ``NURSING`` are made-up notes the router sends one to each member.
"""

from __future__ import annotations

from pathlib import Path

from crfdeid.cli import train as train_cli
from crfdeid.crf import Model
from crfdeid.routing import RoutedModel

OPERATIVE = ("OPERATIVE REPORT\nDate of operation: 03/02/2031. Theatre 4.\nSurgeon: Mr A. Halvorsen, consultant. "
             "Assistant: Dr P. Nair. Anaesthetist: Dr L. Moreau.\nIndication: morbid obesity, BMI 44.\n"
             "Preoperative diagnosis: morbid obesity. Postoperative diagnosis: same.\n"
             "Procedure: laparoscopic Roux-en-Y gastric bypass.\nFindings: the jejunum was divided 40 cm distal "
             "to the ligament of Treitz; gastrojejunostomy closed with 3-0 Vicryl.\nSpecimen to pathology. "
             "Estimated blood loss 20 mL.\nPlan: review in clinic in 6 weeks.\n")
NURSING = ("Nursing progress note 0700-1900. Neuro: alert, oriented x3, MAE. CV: HR 80s SR, SBP 110-130. "
           "Resp: LS clear, sat 97% on 2L NC. GI: abd soft, +BS, tol clears. GU: foley draining clear "
           "yellow urine. Plan: cont to monitor, wean O2 as tol.\n")

MEMBER = ("train: [{train}]\nfeatures: no_dict\ncrf: {{algorithm: lbfgs, max_iterations: 8}}\n"
          "decoding: {{o_threshold: 0.9, o_words_min_count: 2}}\n")
ROUTED = """model: routed
routing:
  members: {{icu: {icu}, specialty: {specialty}}}
  notes: {{icu: ["synth:300,9,mix_icu"], specialty: ["synth:300,9,specialty"]}}
  threshold: 0.5
"""


def write_configs(folder: Path, icu: str = "icu.yaml", specialty: str = "specialty.yaml") -> Path:
    """The member configs and the routed config (members ``icu``, ``specialty``) in ``folder``."""
    (folder / "icu.yaml").write_text(MEMBER.format(train='"synth:25,7,mix_icu"'))
    (folder / "specialty.yaml").write_text(MEMBER.format(train='"synth:15,7,mix_icu", "synth:15,7,specialty"'))
    (folder / "routed.yaml").write_text(ROUTED.format(icu=icu, specialty=specialty))
    return folder / "routed.yaml"


def train_routed(folder: Path, name: str = "routed.model") -> Path:
    """A tiny routed model trained by ``python -m crfdeid train`` into ``folder`` (its configs there too)."""
    out = folder / name
    assert train_cli.main(["--config", str(write_configs(folder)), "--output", str(out), "--quiet"]) == 0
    return out


def shipped_crf(model=None):
    """The shipped model's CRF: the shipped model, or its default member if the shipped file is routed
    (the tests of a CRF's internals run on it either way); ``model``: the shipped model already loaded
    (conftest's ``shipped_model``), else it is loaded."""
    model = Model.load() if model is None else model
    return model.default if isinstance(model, RoutedModel) else model
