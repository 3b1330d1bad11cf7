# Thin targets: each one calls a crfdeid command.
PYTHON ?= python
CONFIG ?= configs/default.yaml
# The shipped model comes only from the default config; any other config trains into build/.
MODEL ?= $(if $(filter configs/default.yaml,$(CONFIG)),crfdeid/data/default-model,build/$(basename $(notdir $(CONFIG))).model)
SYNTH_DIR ?= build/synth

.PHONY: install test train synth bench crossval ablate lint clean

install:
	$(PYTHON) -m pip install -e .[dev,plot,bench,gazetteers]

test:
	$(PYTHON) -m pytest

synth:
	$(PYTHON) -m crfdeid.synth --docs 1000 --seed 13 --out $(SYNTH_DIR)

train:
	$(PYTHON) -m crfdeid.train --config $(CONFIG) --output $(MODEL)

crossval:
	$(PYTHON) -m crfdeid.crossval --config configs/physionet.yaml --folds 10

ablate:
	$(PYTHON) -m crfdeid.ablate configs/ablation/physionet.yaml

bench:
	$(PYTHON) -m crfdeid.bench --json build/bench.json

clean:
	rm -rf build .pytest_cache
