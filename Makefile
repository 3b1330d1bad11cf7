# Thin targets: each one calls a crfdeid command.
PYTHON ?= python
CONFIG ?= configs/default.yaml
# The shipped model comes only from the default config; any other config trains into build/.
MODEL ?= $(if $(filter configs/default.yaml,$(CONFIG)),crfdeid/_data/default-model,build/$(basename $(notdir $(CONFIG))).model)
SYNTH_DIR ?= build/synth
# i2b2 2014 (not shipped: data-use agreement): the folder holding training-PHI-Gold-Set1,
# training-PHI-Gold-Set2 and testing-PHI-Gold-fixed, and where `make i2b2` writes.
I2B2 ?= data/i2b2-2014
I2B2_OUT ?= build/i2b2-2014
# Extra arguments for crfdeid train, e.g. TRAIN_ARGS='--set crf.max_iterations=50'.
TRAIN_ARGS ?=
# Test workers (pytest-xdist, in the dev extra): auto = one per core; TEST_JOBS=0 runs in one process.
# loadgroup keeps a module's tests on one worker (conftest.py).
TEST_JOBS ?= auto

.PHONY: install test test-fast lint train synth bench crossval curve ablate stress locked figures i2b2 clean

install:
	$(PYTHON) -m pip install -e .[dev,plot,bench,sklearn,gazetteers]

test:
	$(PYTHON) -m pytest -n $(TEST_JOBS) --dist loadgroup

# The edit loop: everything but the tests marked slow (end-to-end runs).
test-fast:
	$(PYTHON) -m pytest -n $(TEST_JOBS) --dist loadgroup -m "not slow"

lint:
	$(PYTHON) -m ruff check crfdeid tests bench gazetteers
	$(PYTHON) -m mypy

synth:
	$(PYTHON) -m crfdeid synth --docs 1000 --seed 13 --out $(SYNTH_DIR) --overwrite

train:
	$(PYTHON) -m crfdeid train --config $(CONFIG) --output $(MODEL) $(TRAIN_ARGS)

crossval:
	$(PYTHON) -m crfdeid crossval --config configs/physionet.yaml --folds 10 --exclude-groups configs/splits/physionet-locked.txt

# Stress copies of the PhysioNet dev corpus (Sibanda & Uzuner 2006; docs/stress.md).
stress:
	$(PYTHON) -m crfdeid corpus stress --kind unknown physionet:../shared/corpora/physionet-dev --out build/stress-unknown --seed 13 --quiet
	$(PYTHON) -m crfdeid corpus stress --kind ambiguous physionet:../shared/corpora/physionet-dev --out build/stress-ambiguous --seed 13 --quiet

# The locked test, scored once per change set (docs/protocol.md); needs `make stress`.
locked:
	$(PYTHON) -m crfdeid locked --config configs/physionet.yaml --locked configs/splits/physionet-locked.txt \
	    --o-thresholds none,0.9,0.95,0.98,0.99,0.995,0.999 --also unknown=i2b2:build/stress-unknown \
	    --also ambiguous=i2b2:build/stress-ambiguous --out build/locked

# The accuracy table (docs/figures.md, summed up in the README): pooled dev CV, the locked test beside it, the
# shipped model zero-shot; writes docs/figures.json and renders the table. Long: needs `make stress`.
figures:
	nice -n 10 $(PYTHON) -m crfdeid figures --config configs/physionet.yaml \
	    --train physionet:../shared/corpora/physionet-dev --locked configs/splits/physionet-locked.txt \
	    --stress unknown=i2b2:build/stress-unknown --zero-shot default --jobs 2 \
	    --json docs/figures.json --readme docs/figures.md

# Learning curve: 10-fold figures when each fold trains on 25/50/75/100% of its patients.
curve:
	$(PYTHON) -m crfdeid curve --config configs/physionet.yaml --folds 10 \
	    --o-thresholds none,0.5,0.8,0.9,0.95,0.98,0.99 --out build/curve

ablate:
	$(PYTHON) -m crfdeid ablate configs/ablation/physionet.yaml

# He et al. 2015 protocol: train on both training sets, tag the test set, official scores.
i2b2:
	$(PYTHON) -m crfdeid train --config configs/i2b2-2014.yaml --output $(I2B2_OUT)/model \
	    --train i2b2:$(I2B2)/training-PHI-Gold-Set1 --train i2b2:$(I2B2)/training-PHI-Gold-Set2 $(TRAIN_ARGS)
	$(PYTHON) -m crfdeid tag --model $(I2B2_OUT)/model --input-format i2b2 --output-format i2b2 \
	    --output-dir $(I2B2_OUT)/predictions --overwrite --quiet $(I2B2)/testing-PHI-Gold-fixed
	$(PYTHON) -m crfdeid evaluate --gold i2b2:$(I2B2)/testing-PHI-Gold-fixed \
	    --pred i2b2:$(I2B2_OUT)/predictions --json $(I2B2_OUT)/scores.json --quiet

bench:
	$(PYTHON) -m crfdeid bench --json build/bench.json

clean:
	rm -rf build .pytest_cache
