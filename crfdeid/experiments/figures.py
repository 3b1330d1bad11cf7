"""The accuracy figures (docs/figures.md), measured in one run and rendered from one results file.

:func:`measure` produces, for an annotated corpus split into development and locked
patients (docs/protocol.md):

* **development CV** (the headline): the config cross-validated over the development
  patients (patient-grouped folds), pooled over the held-out folds, as configured and
  with Viterbi; with ``stress`` copies, the same fold models on the copies of the
  held-out notes;
* **locked test** (beside it): the config trained on every development patient, scored
  on the locked patients' notes (and their stress copies);
* **zero-shot**: a fixed model (the shipped default model) on both parts.

Each model is also scored as ``tag`` runs it: site mining is ``tag``'s default and applies to
every English model of the i2b2 labels (:func:`crfdeid.site.mining.mines`), so the decoding as
configured is followed by mining over the notes one model tags (each fold's held-out notes, the
locked notes, the zero-shot model's part) as one batch, as a ``tag`` session mines its batch.

Each figure set holds binary token P/R (and gold tokens missed), PHI fully removed,
parent-strict F1 and the share of NAME / LOCATION / DATE gold tokens covered. The
results file (JSON) carries the date, commit and command; :func:`render_table` writes the
README's table from it and :func:`replace_between` puts the table between the README's
markers. Aggregate figures only, never note text.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from ..crf import Model, train_model
from ..errors import ConfigError
from ..io.splits import select_groups
from ..progress import step, track
from ..routing import RoutedModel
from ..site import mining
from .crossval import fold_splits
from .locked import figures

#: The README's markers around the rendered table.
START, END = "<!-- figures:start -->", "<!-- figures:end -->"
DECODINGS = {"as configured": ..., "Viterbi": None}
#: The figures of the decoding as configured followed by site mining, as ``tag`` runs a model.
MINED = "as tag runs it"


def _slim(gold, pred) -> dict:
    """The figures the table shows, from :func:`crfdeid.experiments.locked.figures`."""
    f = figures(gold, pred)
    b = f["binary_token"]
    return {"precision": b["precision"], "recall": b["recall"], "tp": b["tp"], "fp": b["fp"], "fn": b["fn"],
            "fully_removed": f["leak"]["fully_removed"], "parent_strict_f1": f["parent_strict"]["f1"],
            "covered": {c: v["covered"] for c, v in f["categories"].items()}}


def score(pairs, copies: dict | None = None) -> dict:
    """Pooled figures of ``[(system, test documents), ...]`` at each decoding, and on each
    stress copy (``{name: {doc_id: Document}}``) as configured."""
    out: dict = {}
    mined: list = []
    for name, t in DECODINGS.items():
        gold, pred = [], []
        for system, test in pairs:
            gold += test
            tagged = list(system.tag_many(test, o_threshold=t))
            pred += tagged
            if t is ...:
                mined += mine(system, tagged)
        out[name] = _slim(gold, pred)
    out[MINED] = _slim(gold, mined)
    for name, by_id in (copies or {}).items():
        gold, pred = [], []
        for system, test in pairs:
            s_test = [by_id[d.doc_id] for d in test]
            gold += s_test
            pred += list(system.tag_many(s_test))
        out[f"stress {name}"] = _slim(gold, pred)
    return out


def mine(system, tagged: list) -> list:
    """``tagged`` (one batch of ``system``'s notes) after site mining, as a ``tag`` session mines
    its batch (unchanged for a model mining does not apply to)."""
    if not mining.mines(system):
        return tagged
    return [d for _, d, _ in mining.mine_results((d.doc_id, d, None) for d in tagged)]


def _train(args):
    docs, config, path = args
    model = train_model(docs, config)
    if path is not None:
        model.save(path)
    return model.to_bytes() if path is None else None


def train_all(jobs: list, processes: int, cache: Path | None, progress: bool = False) -> list:
    """Models for ``[(name, documents, config)]`` (in processes; reused from ``cache`` when saved)."""
    paths = [cache / f"{name}.model" if cache else None for name, _, _ in jobs]
    todo = [(docs, config, path) for (_, docs, config), path in zip(jobs, paths) if path is None or not path.exists()]
    got: Iterator[bytes] = iter([])
    step("figures: %d model(s) to train, %d from the cache", len(todo), len(jobs) - len(todo))
    if todo:
        with ProcessPoolExecutor(max_workers=max(1, min(processes, len(todo)))) as pool:
            got = iter(list(track(pool.map(_train, todo), "figures: train", len(todo), "model", progress)))
    models = []
    for path in paths:
        if path is not None and path.exists():
            models.append(Model.load(path))
        else:
            models.append(Model.from_bytes(next(got)))
    return models


def measure(docs: Sequence, config: dict, locked: set, folds: int = 5, seed: int | None = None,
            stress: dict | None = None, zero_shot=None, jobs: int = 1, cache: Path | None = None,
            progress: bool = False) -> dict:
    """Development CV, locked test and zero-shot figures (module docstring).

    Parameters
    ----------
    docs : sequence of Document
        The annotated corpus (both parts); ``doc.group`` is the patient.
    config : dict
        Resolved config of the model measured in CV and on the locked test.
    locked : set of str
        The locked patients.
    stress : dict, optional
        ``{name: [Document]}``: stress copies of the corpus, matched by document id.
    zero_shot : model, optional
        A fixed model scored on both parts (no training).
    jobs : int
        Models trained at the same time.
    cache : Path, optional
        Folder where the trained models are saved and reused from.
    progress : bool
        Progress bars on a terminal (the steps are logged either way).
    """
    dev, test = select_groups(docs, locked, keep=False), select_groups(docs, locked, keep=True)
    if not dev or not test:
        raise ConfigError(f"figures: {len(dev)} development and {len(test)} locked notes; both are needed")
    seed = config["seed"] if seed is None else seed
    splits = fold_splits(dev, folds, seed)
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
    jobs_ = [(f"fold{f.index}", [dev[i] for i in f.train], config) for f in splits] + [("all-dev", dev, config)]
    models = train_all(jobs_, jobs, cache, progress)
    copies = {name: {d.doc_id: d for d in c} for name, c in (stress or {}).items()}
    step("figures: tagging and scoring the development folds")
    cv = score([(m, [dev[i] for i in f.test]) for m, f in zip(models, splits)], copies)
    out = {"sizes": {"dev_patients": len({d.group for d in dev}), "dev_notes": len(dev),
                     "locked_patients": len({d.group for d in test}), "locked_notes": len(test),
                     "folds": folds, "seed": seed},
           "model": {"dev_cv": cv, "locked": score([(models[-1], test)], copies)},
           "decoding": {**config["decoding"], "companion_weight": (config.get("companion") or {}).get("weight"),
                        "prior": config.get("prior")}}
    if zero_shot is not None:
        step("figures: scoring the zero-shot model")
        out["zero_shot"] = {"dev": score([(zero_shot, dev)]), "locked": score([(zero_shot, test)]),
                            "decoding": _decoding(zero_shot)}
    return out


def _pr(f: dict, bold: bool = False) -> str:
    r = f"**{f['recall']:.3f}**" if bold else f"{f['recall']:.3f}"
    return f"{f['precision']:.3f} / {r}"


def _pr_fn(f: dict) -> str:
    return f"{f['precision']:.3f} / {f['recall']:.3f} ({f['fn']})"


def _decoding(model) -> dict:
    """A model's decoding settings; a routed model's: each member's (``members``)."""
    if isinstance(model, RoutedModel):
        return {"members": {name: dict(m.config["decoding"]) for name, m in model.members.items()}}
    return dict(model.config["decoding"])


def _threshold(decoding: dict) -> str:
    if "members" in decoding:  # a routed model: each member decodes its notes its own way
        return "routed: " + "; ".join(f"{name} {_threshold(d)}" for name, d in decoding["members"].items())
    t, w, prior = decoding.get("o_threshold"), decoding.get("companion_weight"), decoding.get("prior") or {}
    votes = f", a companion CRF's marginals averaged in (weight {w})" if w else ""
    if prior.get("weight"):
        who = "the shipped model's" if prior.get("model") == "default" else "a prior model's"
        votes += f", {who} {'P(O)' if prior.get('vote') == 'outside' else 'marginals'} averaged in " \
                 f"(weight {prior['weight']})"
    return ("Viterbi" if t is None else f"P(O) < {t}") + votes


def render_table(res: dict) -> str:
    """The README's accuracy table (markdown) and its provenance line, from a results file."""
    s, m = res["sizes"], res["model"]
    cv, lk = m["dev_cv"], m["locked"]
    conf, vit = "as configured", "Viterbi"
    rows = [
        (f"PhysioNet model (`{res['config']}`), as configured ({_threshold(res['decoding'])}): "
         "binary token P / R", _pr(cv[conf], True), _pr(lk[conf], True)),
        ("same: gold PHI tokens missed", str(cv[conf]["fn"]), str(lk[conf]["fn"])),
    ]
    if MINED in cv:
        rows.append(("same, as `tag` runs it (site mining over the notes each model tags): binary token P / R "
                     "(gold PHI tokens missed)", _pr_fn(cv[MINED]), _pr_fn(lk[MINED])))
    rows += [
        ("same: PHI fully removed (every letter and digit of the PHI inside a predicted span)",
         f"{cv[conf]['fully_removed']:.3f}", f"{lk[conf]['fully_removed']:.3f}"),
        ("same, Viterbi: binary token P / R", _pr(cv[vit]), _pr(lk[vit])),
        ("same, as configured: parent-category strict F1", f"{cv[conf]['parent_strict_f1']:.3f}",
         f"{lk[conf]['parent_strict_f1']:.3f}"),
    ]
    for key in cv:
        if key.startswith("stress "):
            name = key[len("stress "):]
            a, b = cv[key]["covered"], lk[key]["covered"]
            rows.append((f"same, `{name}` stress copy (names and places replaced): NAME / LOCATION tokens covered",
                         f"{a.get('NAME', 0):.3f} / {a.get('LOCATION', 0):.3f}",
                         f"{b.get('NAME', 0):.3f} / {b.get('LOCATION', 0):.3f}"))
    if "zero_shot" in res:
        z = res["zero_shot"]
        rows.append((f"shipped default model (synthetic notes only, zero-shot), as configured "
                     f"({_threshold(z['decoding'])}): P / R", _pr(z["dev"][conf]), _pr(z["locked"][conf])))
        rows.append(("same, as configured: DATE tokens covered", f"{z['dev'][conf]['covered'].get('DATE', 0):.3f}",
                     f"{z['locked'][conf]['covered'].get('DATE', 0):.3f}"))
        rows.append(("same, Viterbi: P / R", _pr(z["dev"][vit]), _pr(z["locked"][vit])))
        if MINED in z["dev"]:
            rows.append(("same, as `tag` runs it (site mining): P / R (gold PHI tokens missed)",
                         _pr_fn(z["dev"][MINED]), _pr_fn(z["locked"][MINED])))
    head = (f"| model and decoding | development CV ({s['dev_patients']} patients, {s['dev_notes']:,} notes, "
            f"{s['folds']} folds, pooled) | locked test ({s['locked_patients']} patients, "
            f"{s['locked_notes']:,} notes) |")
    lines = [head, "|---|---|---|"] + [f"| {a} | {b} | {c} |" for a, b, c in rows]
    lines += ["", f"Measured on {res['date']} at commit `{res.get('commit', '?')}` by `{res['command']}` "
                  f"([figures.json](figures.json), beside this page)."]
    return "\n".join(lines)


def replace_between(text: str, block: str, start: str = START, end: str = END) -> str:
    """``text`` with what lies between the ``start`` and ``end`` marker lines replaced by ``block``.

    >>> replace_between("a\\n<!-- figures:start -->\\nold\\n<!-- figures:end -->\\nb", "new")
    'a\\n<!-- figures:start -->\\nnew\\n<!-- figures:end -->\\nb'

    Raises
    ------
    ConfigError
        The markers are missing, repeated or out of order.
    """
    if text.count(start) != 1 or text.count(end) != 1 or text.index(start) > text.index(end):
        raise ConfigError(f"want one {start} line followed by one {end} line")
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{start}\n{block}\n{end}{tail}"


def today() -> str:
    """The date figures are stamped with (UTC)."""
    return datetime.datetime.now(datetime.UTC).date().isoformat()
