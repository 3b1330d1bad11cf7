"""The audit report: from the reviewed sample, the figures a release is signed on, as JSON
and as an HTML page with plots (PNG inline) that a person can read, print and sign.

Rates are exact binomial (Clopper-Pearson) bounds, one-sided at the chosen level for the
figure a release is held against, with the rule of three beside them when nothing was found;
the projection multiplies the release's notes or tokens by the rates. The reviewers' own
misses are estimated by capture-recapture on the double-review notes and kept apart from the
bound, as is the note on surrogates (docs/audit.md says why). No note text, only counts,
types, digests and ids.
"""

from __future__ import annotations

import base64
import html
import io
import json
import re
from collections import Counter
from datetime import UTC, datetime
from pathlib import PurePath

from .. import schema
from ..scoring import audit as stats
from . import canary, diligence
from . import hips as hips_measure
from .findings import FOUND, MISSED, PARTIAL, collect, recapture_counts
from .sample import load
from .verify import verify

#: HIPAA Safe Harbor, 45 CFR 164.514(b)(2)(i): the identifier each i2b2 label falls under.
SAFE_HARBOR = {
    "PATIENT": "(A) names", "ORGANIZATION": "(A) names (employers)",
    "STREET": "(B) geographic subdivisions", "CITY": "(B) geographic subdivisions",
    "ZIP": "(B) geographic subdivisions", "AGE": "(C) dates and ages over 89", "DATE": "(C) dates and ages over 89",
    "PHONE": "(D) telephone numbers", "FAX": "(E) fax numbers", "EMAIL": "(F) e-mail addresses",
    "SSN": "(G) social security numbers", "MEDICALRECORD": "(H) medical record numbers",
    "HEALTHPLAN": "(I) health plan beneficiary numbers", "ACCOUNT": "(J) account numbers",
    "LICENSE": "(K) certificate/license numbers", "VEHICLE": "(L) vehicle identifiers",
    "DEVICE": "(M) device identifiers", "URL": "(N) URLs", "IPADDR": "(O) IP addresses",
    "BIOID": "(P) biometric identifiers", "IDNUM": "(R) other unique identifying numbers",
}
OUTSIDE = "not a Safe Harbor identifier (i2b2 PHI)"
CARRELL = ("The release is surrogate output: identifiers the model missed stand among realistic "
           "surrogates, so a reader cannot tell a real name from a made-up one (\"hiding in plain sight\", "
           "Carrell et al. 2013, JAMIA 20(2):342-348). This lowers the chance that a residual identifier is "
           "recognised; it is not part of the bound above, which counts every residual identifier.")


def compute(folder, level: float = 0.95, checked: dict | None = None, hips: dict | None = None,
            tokens=None) -> dict:
    """The report of the audit in ``folder`` (see the module docstring) as a JSON-ready dict,
    with the result of :func:`crfdeid.audit.verify.verify` (``checked``: one already run);
    ``hips``: a summary of ``audit hips`` (:func:`crfdeid.audit.hips.load_summary`) to show beside;
    ``tokens``: the review app's token file, which proves personal sign-ins (see ``verify``)."""
    manifest = load(folder)
    checked = verify(folder, tokens=tokens) if checked is None else checked
    found, progress = collect(folder, manifest)
    release = manifest["release"]
    notes = len(found)
    tokens = sum(f.tokens for f in found)
    idents = [i for f in found for i in f.identifiers]
    residual = [i for i in idents if i.status != FOUND]
    phi_tokens = sum(i.tokens for i in idents)
    leaked = sum(i.leaked_tokens for i in idents)
    by_type: dict = {}
    for i in idents:
        row = by_type.setdefault(i.subtype, {"category": schema.parent_of(i.subtype) if schema.I2B2.label(i.subtype)
                                             else None, "safe_harbor": SAFE_HARBOR.get(i.subtype, OUTSIDE),
                                             "identifiers": 0, FOUND: 0, PARTIAL: 0, MISSED: 0})
        row["identifiers"] += 1
        row[i.status] += 1
    by_harbor: dict = {}
    for row in by_type.values():
        h = by_harbor.setdefault(row["safe_harbor"], {"identifiers": 0, FOUND: 0, PARTIAL: 0, MISSED: 0})
        for k in ("identifiers", FOUND, PARTIAL, MISSED):
            h[k] += row[k]
    with_residual = [f for f in found if f.residual]
    note_rate = stats.rate(len(with_residual), notes, level)
    token_rate = stats.rate(len(residual), tokens, level)
    phi_rate = stats.rate(leaked, phi_tokens, level)
    rc = recapture_counts(found)
    recap = recapture(rc, level)
    factor = (recap["total"] / recap["seen"]) if recap and recap["estimable"] and recap["seen"] else None
    strata: dict = {}
    for f in found:
        key = " / ".join(f.stratum)
        row = strata.setdefault(key, {"notes": 0, "tokens": 0, "residual": 0})
        row["notes"] += 1
        row["tokens"] += f.tokens
        row["residual"] += len(f.residual)
    strata = {" / ".join(k): {"release_notes": release["strata"].get(json.dumps(list(k)), {}).get("notes"),
                              **strata[" / ".join(k)]}
              for k in sorted({tuple(f.stratum) for f in found}, key=_order)}
    reviewers: Counter = Counter()
    for part in progress.values():
        reviewers.update(part["by_reviewer"])
    sampled = sum(p["sampled"] for p in progress.values())
    project = {
        "expected_residual_identifiers": release["tokens"] * token_rate.estimate,
        "upper_residual_identifiers": release["tokens"] * token_rate.upper_one_sided,
        "expected_notes_with_residual": release["notes"] * note_rate.estimate,
        "upper_notes_with_residual": release["notes"] * note_rate.upper_one_sided,
    }
    if factor is not None:
        project["expected_residual_identifiers_with_reviewer_misses"] = \
            project["expected_residual_identifiers"] * factor
    warnings = []
    if notes < sampled:
        warnings.append(f"{sampled - notes} of the {sampled} sampled notes are not reviewed yet: notes left out "
                        "of a random sample can bias the rate (review them all before signing)")
    if not checked["ok"]:
        failed = [k for k, v in checked["checks"].items() if not v]
        warnings.append(f"`audit verify` found {len(checked['differences'])} difference(s) between the audit folder "
                        f"and what it recomputes ({', '.join(failed)}): these figures cannot be signed")
    reviewing = diligence.reviewing(folder, manifest)
    warnings += diligence.warnings(reviewing)
    birds = canary_recall(manifest, progress)
    warnings += birds["warnings"]
    if rc["notes"] < progress.get("double", {}).get("sampled", 0):
        warnings.append(f"only {rc['notes']} of the {progress['double']['sampled']} double-review notes have "
                        "two reviews")
    return {
        "title": "crfdeid release audit",
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "level": level,
        "model": _model(manifest["model"]),
        "config": manifest["model"]["config"],
        "output": manifest["output"],
        "release": {k: release[k] for k in ("inputs", "notes", "tokens", "digest")},
        "sample": {"seed": manifest["sample"]["seed"], "strata": manifest["sample"]["strata"],
                   "drawn": sampled, "reviewed": notes, "tokens": tokens, "double_review": manifest["sample"]["double"],
                   "reviewed_twice": rc["notes"], "by_stratum": strata, "release_strata": release["strata"]},
        "reviewers": dict(sorted(reviewers.items())),
        "reviewer_tokens": {w: checked["reviewers"].get(w, {}).get("personal_token", False) for w in sorted(reviewers)},
        "digests": {"release": release["digest"], "model_sha256": manifest["model"]["sha256"],
                    "config_sha256": manifest["model"]["config_sha256"], "seed": manifest["sample"]["seed"]},
        "verify": {k: checked[k] for k in ("ok", "checks", "differences", "changed_after_adjudication")},
        "identifiers": {"total": len(idents), FOUND: len(idents) - len(residual),
                        PARTIAL: sum(i.status == PARTIAL for i in idents),
                        MISSED: sum(i.status == MISSED for i in idents),
                        "phi_tokens": phi_tokens, "leaked_phi_tokens": leaked},
        "recall": {"identifiers": (len(idents) - len(residual)) / len(idents) if idents else None,
                   "phi_tokens": 1 - leaked / phi_tokens if phi_tokens else None},
        "by_type": dict(sorted(by_type.items())),
        "by_safe_harbor": dict(sorted(by_harbor.items())),
        "rates": {"notes_with_residual": note_rate.as_dict(),
                  "residual_identifiers_per_token": token_rate.as_dict(),
                  "leaked_phi_tokens_per_phi_token": phi_rate.as_dict(), "per": stats.PER},
        "projection": project,
        "reviewer_misses": {"counts": rc, "chapman": recap, "inflation": factor},
        "reviewing": reviewing,
        "canaries": {k: birds[k] for k in ("planted", "by_reviewer", "min_recall")},
        "surrogate_note": CARRELL if manifest["output"] == "surrogate" else None,
        "hips": hips,
        "notes_with_residual": [f.doc_id for f in with_residual],
        "warnings": warnings,
    }


def recapture(rc: dict, level: float) -> dict | None:
    """Chapman's estimate from :func:`~crfdeid.audit.findings.recapture_counts`, ``None`` without
    notes reviewed twice, and ``estimable: False`` (no total, no interval) when the two reviewers
    share no find: nothing was recaptured, so nothing says how many both missed (the formula
    would still give a number, and a zero-width interval when one of them found nothing).

    >>> recapture({"notes": 3, "first": 4, "second": 0, "both": 0}, 0.95)["estimable"]
    False
    """
    if not rc["notes"]:
        return None
    recap = stats.chapman(rc["first"], rc["second"], rc["both"], level).as_dict()
    if not rc["both"]:
        return {**recap, "estimable": False, "total": None, "unseen": None, "lower": None, "upper": None}
    return {**recap, "estimable": True}


def canary_recall(manifest: dict, progress: dict) -> dict:
    """Each reviewer's canaries caught (:mod:`crfdeid.audit.canary`) and the warnings: a
    reviewer below :data:`~crfdeid.audit.canary.MIN_RECALL`, or an audit without canaries."""
    by: dict = {}
    for part in progress.values():
        for who, c in part.get("canaries", {}).items():
            row = by.setdefault(who, {"planted": 0, "caught": 0})
            row["planted"] += c["planted"]
            row["caught"] += c["caught"]
    for row in by.values():
        row["recall"] = row["caught"] / row["planted"]
    planted = len(manifest.get("canaries", []))
    warnings = [f"{who} found {r['caught']} of the {r['planted']} canaries in their notes (recall "
                f"{100 * r['recall']:.0f} %, below {100 * canary.MIN_RECALL:.0f} %): their reviews miss identifiers; "
                "the audit fails" for who, r in sorted(by.items()) if r["recall"] < canary.MIN_RECALL]
    if not planted:
        warnings.append("no canaries were planted (`audit sample --canaries N`): the reviewers' miss rates are "
                        "not measured")
    return {"planted": planted, "by_reviewer": dict(sorted(by.items())), "min_recall": canary.MIN_RECALL,
            "warnings": warnings}


def _model(model: dict) -> dict:
    """The audited model as the report names it: its file's name and digests."""
    # Not the manifest's path (kept for verify): it would tell the reader the data holder's
    # folders and nothing they can check; the SHA-256 is what identifies the model. A manifest
    # written before it recorded "file" has only the path.
    name = model.get("file") or PurePath(model["path"]).name
    return {"file": name, "sha256": model["sha256"], "config_sha256": model["config_sha256"]}


def _order(stratum) -> tuple:
    """Strata in reading order: length bins by their bounds (``<100``, ``100-299``, ``>=300``)."""
    out = []
    for v in stratum:
        m = re.fullmatch(r"(<|>=)?(\d+)(?:-\d+)?", v)
        out.append((0, {"<": 0, None: 1, ">=": 2}[m.group(1)] if m else 0, int(m.group(2)), "") if m else (1, 0, 0, v))
    return tuple(out)


# -- plots ------------------------------------------------------------------------------
def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode("ascii")


def bound_curve(report: dict, points: int = 40) -> list[tuple[int, float, float]]:
    """``(notes, upper bound, rule of three)`` per 10,000 tokens for samples of other sizes,
    at the rate observed (the count found scaled to the sample, rounded up)."""
    s = report["sample"]
    if not s["reviewed"]:
        return []
    per_note = s["tokens"] / s["reviewed"]
    p = report["rates"]["residual_identifiers_per_token"]["estimate"]
    level = report["level"]
    top = max(4 * s["reviewed"], 50)
    out = []
    for k in range(1, points + 1):
        n = max(1, round(top * k / points))
        t = max(1, round(n * per_note))
        out.append((n, stats.PER * stats.upper_bound(stats.expected_found(t, p), t, level),
                    stats.PER * stats.rule_of_three(t, level)))
    return out


def plots(report: dict) -> dict:
    """Base64 PNGs: ``bound`` (the bound against sample size) and ``types`` (misses by type)."""
    import matplotlib  # the extra [plot], checked by the command before it starts
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = {}
    curve = bound_curve(report)
    if curve:
        fig, ax = plt.subplots(figsize=(6.4, 3.4))
        ax.plot([c[0] for c in curve], [c[1] for c in curve], label="exact upper bound at the observed rate")
        ax.plot([c[0] for c in curve], [c[2] for c in curve], ":", label="rule of three (none found)")
        r = report["rates"]["residual_identifiers_per_token"]
        ax.plot([report["sample"]["reviewed"]], [stats.PER * r["upper_one_sided"]], "o", color="C3",
                label="this audit")
        ax.set_xlabel("notes reviewed")
        ax.set_ylabel("residual identifiers / 10,000 tokens")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        ax.set_title(f"{round(100 * report['level'])} % upper bound against sample size", fontsize=10)
        out["bound"] = _png(fig)
        plt.close(fig)
    rows = [(k, v[MISSED], v[PARTIAL]) for k, v in report["by_type"].items() if v[MISSED] or v[PARTIAL]]
    fig, ax = plt.subplots(figsize=(6.4, 0.45 * max(3, len(rows)) + 1))
    if rows:
        names = [r[0] for r in rows]
        ax.barh(names, [r[1] for r in rows], color="C3", label="missed")
        ax.barh(names, [r[2] for r in rows], left=[r[1] for r in rows], color="C1", label="partly missed")
        ax.legend(fontsize=8)
        ax.invert_yaxis()
    else:
        ax.text(0.5, 0.5, "the reviewers found no identifier the model missed", ha="center", va="center")
        ax.set_yticks([])
    ax.set_xlabel("identifiers in the sample")
    ax.set_title("identifiers the model missed, by PHI type", fontsize=10)
    out["types"] = _png(fig)
    plt.close(fig)
    return out


# -- HTML -------------------------------------------------------------------------------
def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.2f} %"


def _per(x) -> str:
    return f"{stats.PER * x:.2f}"


def _table(head, rows) -> str:
    th = "".join(f"<th>{html.escape(str(h))}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><tr>{th}</tr>{body}</table>"


STYLE = """body{font:14px/1.45 system-ui,sans-serif;max-width:60em;margin:1.5em auto;padding:0 1em;color:#222}
h1{font-size:1.5em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}
th{background:#f3f3f3}.big{font-size:1.25em;font-weight:600}.warn{color:#a40}.mono{font-family:monospace;
font-size:.9em;word-break:break-all}.sign{width:100%}.sign td{height:2.4em;width:25%}
.note{background:#f7f7f0;padding:.5em}"""


def to_html(report: dict, images: dict | None = None) -> str:
    """The report as one self-contained HTML page (plots inline)."""
    images = plots(report) if images is None else images
    r, lvl = report["rates"], round(100 * report["level"])
    tok, note, phi = (r["residual_identifiers_per_token"], r["notes_with_residual"],
                      r["leaked_phi_tokens_per_phi_token"])
    p, s, ids = report["projection"], report["sample"], report["identifiers"]
    esc = html.escape
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{esc(report['title'])}</title>"
             f"<style>{STYLE}</style></head><body><h1>{esc(report['title'])}</h1>",
             f"<p>{esc(report['date'])} &middot; release: {report['release']['notes']:,} notes, "
             f"{report['release']['tokens']:,} tokens ({esc(', '.join(report['release']['inputs']))}) &middot; "
             f"output: {esc(report['output'])}</p>"]
    for w in report["warnings"]:
        parts.append(f"<p class='warn'>Warning: {esc(w)}</p>")
    rule = f" (rule of three: {_per(tok['rule_of_three'])})" if tok["rule_of_three"] is not None else ""
    parts.append(
        "<h2>Result</h2>"
        f"<p class='big'>Residual identifiers: {_per(tok['estimate'])} per 10,000 tokens; at most "
        f"{_per(tok['upper_one_sided'])} with {lvl} % confidence{rule}.</p>"
        f"<p class='big'>In the whole release: about {p['expected_residual_identifiers']:,.0f} residual identifiers, "
        f"at most {p['upper_residual_identifiers']:,.0f} ({lvl} % upper bound).</p>")
    rows = [["residual identifiers per 10,000 tokens", f"{tok['found']} in {tok['trials']:,} tokens",
             _per(tok["estimate"]), f"{_per(tok['lower'])} - {_per(tok['upper'])}", _per(tok["upper_one_sided"])],
            ["notes with a residual identifier", f"{note['found']} of {note['trials']} notes",
             _pct(note["estimate"]), f"{_pct(note['lower'])} - {_pct(note['upper'])}",
             _pct(note["upper_one_sided"])],
            ["leaked PHI tokens per 10,000 PHI tokens", f"{phi['found']} of {phi['trials']:,}",
             _per(phi["estimate"]), f"{_per(phi['lower'])} - {_per(phi['upper'])}", _per(phi["upper_one_sided"])]]
    parts.append(_table(["rate", "found", "estimate", f"{lvl} % interval (Clopper-Pearson)",
                         f"{lvl} % upper bound (one-sided)"], rows))
    parts.append(_table(["projection to the release", "expected", f"{lvl} % upper bound"], [
        ["residual identifiers", f"{p['expected_residual_identifiers']:,.1f}",
         f"{p['upper_residual_identifiers']:,.1f}"],
        ["notes with a residual identifier", f"{p['expected_notes_with_residual']:,.1f}",
         f"{p['upper_notes_with_residual']:,.1f}"]]))
    parts.append("<h2>What the reviewers found</h2>"
                 f"<p>{ids['total']} identifiers in {s['reviewed']} reviewed notes ({s['tokens']:,} tokens) of the "
                 f"{s['drawn']} drawn: the model covered {ids['found']} fully, {ids['partial']} partly and missed "
                 f"{ids['missed']}. Recall on the sample: {_pct(report['recall']['identifiers'])} of identifiers "
                 f"fully removed, {_pct(report['recall']['phi_tokens'])} of PHI tokens.</p>")
    parts.append(_table(["PHI type", "Safe Harbor", "identifiers", "missed", "partly missed"],
                        [[k, v["safe_harbor"], v["identifiers"], v[MISSED], v[PARTIAL]]
                         for k, v in report["by_type"].items()]))
    parts.append(_table(["Safe Harbor identifier", "identifiers", "missed", "partly missed"],
                        [[k, v["identifiers"], v[MISSED], v[PARTIAL]] for k, v in report["by_safe_harbor"].items()]))
    if images.get("types"):
        parts.append(f"<p><img alt='misses by PHI type' src='data:image/png;base64,{images['types']}'></p>")
    rm = report["reviewer_misses"]
    parts.append("<h2>The reviewers' own misses</h2>")
    if rm["chapman"] and not rm["chapman"]["estimable"]:
        c = rm["chapman"]
        parts.append(
            f"<p>{rm['counts']['notes']} notes were reviewed by two reviewers independently. Of the identifiers the "
            f"model left, the first reviewer found {c['first']}, the second {c['second']}, and none was found by "
            "both: capture-recapture cannot estimate how many neither saw (it needs finds in common). The figures "
            "above assume the reviewers missed nothing.</p>")
    elif rm["chapman"]:
        c = rm["chapman"]
        parts.append(
            f"<p>{rm['counts']['notes']} notes were reviewed by two reviewers independently. Of the identifiers the "
            f"model left, the first reviewer found {c['first']}, the second {c['second']}, both {c['both']}. "
            f"Chapman's estimate: {c['total']:.1f} such identifiers in these notes ({lvl} % interval "
            f"{c['lower']:.1f} - {c['upper']:.1f}), of which about {c['unseen']:.1f} neither reviewer saw. "
            "Scaled by that, the release would hold about "
            f"{p.get('expected_residual_identifiers_with_reviewer_misses', p['expected_residual_identifiers']):,.1f} "
            "residual identifiers. This estimate assumes the two reviews independent; identifiers both reviewers "
            "are blind to alike (a shared blind spot) are not in it, nor in the bound above.</p>")
    else:
        parts.append("<p>No note was reviewed twice: the figures above assume the reviewers missed nothing.</p>")
    cn = report.get("canaries") or {"by_reviewer": {}}
    if cn["by_reviewer"]:
        parts.append(f"<h2>Canaries</h2><p>{cn['planted']} made-up identifiers were planted in sampled notes, "
                     f"unknown to the reviewers; a reviewer below {100 * cn['min_recall']:.0f} % fails the audit.</p>"
                     + _table(["reviewer", "canaries in their notes", "found", "recall"],
                              [[k, v["planted"], v["caught"], _pct(v["recall"])]
                               for k, v in cn["by_reviewer"].items()]))
    rv = report.get("reviewing") or {"by_reviewer": {}}
    if rv["by_reviewer"]:
        parts.append("<h2>How the reviewers reviewed</h2>" + _table(
            ["reviewer", "signed in", "notes done", "median seconds a note", "decisions a note",
             f"notes done faster than {rv['tokens_per_second']:g} tokens a second", "suggestions undecided at done",
             "reopened after done"],
            [[k, ", ".join(v["signed_in"]), v["notes"], v["median_seconds"], v["decisions_per_note"], v["unread"],
              v["undecided_at_done"], v["reopened_after_done"]] for k, v in rv["by_reviewer"].items()]))
    if report["surrogate_note"]:
        parts.append(f"<h2>Surrogate output</h2><p class='note'>{esc(report['surrogate_note'])}</p>")
    if report.get("hips"):
        parts.append(hips_measure.section(report["hips"]))
    parts.append("<h2>The bound and the sample size</h2>")
    if images.get("bound"):
        parts.append("<p><img alt='upper bound against sample size' "
                     f"src='data:image/png;base64,{images['bound']}'></p>")
    parts.append(_table(["stratum", "notes in the release", "notes reviewed", "tokens reviewed",
                         "residual identifiers"],
                        [[k or "all", v["release_notes"], v["notes"], f"{v['tokens']:,}", v["residual"]]
                         for k, v in s["by_stratum"].items()]))
    m = report["model"]
    parts.append("<h2>What was audited</h2>" + _table(["", ""], [
        ["model file", m["file"]], ["model file SHA-256", m["sha256"]], ["config SHA-256", m["config_sha256"]],
        ["release digest", report["release"]["digest"]], ["sample seed", s["seed"]],
        ["strata", ", ".join(s["strata"]["fields"]) or "none"], ["double review", f"{s['double_review']} notes"],
        ["reviewers", ", ".join(f"{k} ({v} notes) " + ("with" if report["reviewer_tokens"].get(k) else "without")
                                + " a personal token" for k, v in report["reviewers"].items()) or "none"],
        ["confidence level", f"{lvl} %"], ["audit verify", _verified(report["verify"])]]))
    v = report["verify"]
    if v["differences"]:
        parts.append("<h2>What verify found</h2>" + _table(["note", "project", "difference"], [
            [d["doc_id"] or "(audit)", d["part"] or "", d["what"]] for d in v["differences"]]))
    if v["changed_after_adjudication"]:
        parts.append("<h2>Reviews changed after adjudication</h2>" + _table(["note", "project", "reviewer", "change"], [
            [c["doc_id"], c["part"], c["annotator"], c["action"]] for c in v["changed_after_adjudication"]]))
    parts.append("<p>The bound covers the identifier types the reviewers were asked to mark, in notes like the "
                 "sample's; not PHI types outside the scheme, nor what every reviewer overlooks alike "
                 "(docs/audit.md).</p>")
    parts.append("<h2>Sign-off</h2><table class='sign'><tr><th>name</th><th>role</th><th>date</th><th>signature</th>"
                 "</tr><tr><td></td><td></td><td></td><td></td></tr><tr><td></td><td></td><td></td><td></td></tr></table>")
    parts.append("</body></html>\n")
    return "".join(parts)


def _verified(v: dict) -> str:
    if v["ok"]:
        # the report recomputes the evidence; the officer's signatures are checked by `audit verify
        # --key --ledger` only, so this never says the audit passed verify
        return ("evidence recomputed alike (the draw, the tokens, the model's spans, the stores and their logs); "
                "the officer's signed plan and statement are not checked here: `audit verify --key --ledger`")
    return f"FAILED: {len(v['differences'])} difference(s), listed below"


def to_json(report: dict) -> str:
    return json.dumps(report, indent=1, default=str) + "\n"
