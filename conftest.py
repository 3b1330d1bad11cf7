"""pytest, whole repository: modules of an optional extra that is not installed are not
collected for doctests (importing them says which extra to install); their tests skip."""

import importlib.util

_EXTRA_MODULES = {
    "crfdeid/adapters/presidio.py": "presidio_analyzer",
    "crfdeid/adapters/spacy.py": "spacy",
    "crfdeid/serve/app.py": "fastapi",
    # the networks (the `neural` extra: PyTorch and safetensors); tests/test_neural.py skips
    **{f"crfdeid/neural/{name}.py": "torch" for name in ("batch", "crf_layer", "model", "networks", "train")},
}

collect_ignore = [path for path, module in _EXTRA_MODULES.items()
                  if importlib.util.find_spec(module) is None]
