"""Readable tables, CSV rows and a plot of a :class:`~crfdeid.scoring.report.Report`.

The text layout follows the official i2b2 2014 script's blocks (overall,
HIPAA, binary, per parent category), each row with micro and macro figures,
then per-subtype counts like He et al. (2015) table 4, the leak view and,
when asked, the error analysis.
"""

from __future__ import annotations

import csv
import io

from .analysis import ERROR_CLASSES

#: (block title, [(row label, metric name)]) in the official order.
BLOCKS = (
    ("Overall", [("Strict", "strict"), ("Relaxed", "relaxed"), ("Token", "token"),
                 ("Strict, parent only", "parent_strict")]),
    ("HIPAA", [("Token", "hipaa_token"), ("Strict", "hipaa_strict"), ("Relaxed", "hipaa_relaxed")]),
    ("Binary", [("Token", "binary_token"), ("Strict", "binary_strict"),
                ("HIPAA token", "binary_hipaa_token"), ("HIPAA strict", "binary_hipaa_strict")]),
)

#: Rows of each category in the per-category block (HIPAA rows where the category has HIPAA labels).
CATEGORY_ROWS = (("token", "token"), ("strict", "strict"), ("parent", "parent_strict"),
                 ("HIPAA token", "hipaa_token"), ("HIPAA strict", "hipaa_strict"))

_HEAD = (f"{'':<22}{'P micro':>9}{'R micro':>9}{'F1 micro':>9}  "
         f"{'P macro (SD)':>15}{'R macro (SD)':>15}{'F1 macro':>9}")


def _row(label: str, micro, macro) -> str:
    return (f"{label:<22}{micro.precision:>9.4f}{micro.recall:>9.4f}{micro.f1:>9.4f}  "
            f"{macro.precision:>8.4f} ({macro.precision_sd:.2f}){macro.recall:>8.4f} "
            f"({macro.recall_sd:.2f}){macro.f1:>9.4f}")


def _ids(ids: list, limit: int = 20) -> str:
    shown = ", ".join(ids[:limit])
    return shown + (f", ... ({len(ids) - limit} more)" if len(ids) > limit else "")


def render(report, errors=None) -> str:
    """The full text report (no PHI: the error examples carry text only if collected with it)."""
    out = [f"Documents scored: {report.docs}"
           + (f"   scheme: {report.scheme}" if report.scheme != "i2b2-2014" else "")
           + (f"   filter: {' '.join(report.filter)}" if report.filter else "")
           + ("   (IDNUM counted as HIPAA)" if report.include_idnum else "")]
    for side, ids in (("without prediction", report.missing_in_pred),
                      ("predicted but not in gold", report.missing_in_gold)):
        if ids:
            out.append(f"Documents {side} (not scored): {len(ids)}: {_ids(ids)}")
    for title, rows in BLOCKS:
        rows = [(label, m) for label, m in rows if m in report.micro]  # no HIPAA rows without HIPAA labels
        if rows:
            out += ["", title, _HEAD]
            out += [_row(label, report.micro[m], report.macro[m]) for label, m in rows]
    out += ["", "Per parent category", _HEAD]
    for cat in report.by_category:
        for label, m in CATEGORY_ROWS:
            if m in report.by_category[cat]:
                out.append(_row(f"{cat} {label}", report.by_category[cat][m],
                                report.by_category_macro[cat][m]))
    out += ["", "Per subtype (micro; agree = gold items found)",
            f"{'':<24}{'gold':>7}{'system':>7}{'agree':>7}{'P':>9}{'R':>9}{'F1':>9}"]
    for sub, block in report.by_subtype.items():
        for m in ("strict", "relaxed", "token"):
            s = block[m]
            out.append(f"{sub + ' ' + m:<24}{s.tp + s.fn:>7}{s.tp_sys + s.fp:>7}{s.tp:>7}"
                       f"{s.precision:>9.4f}{s.recall:>9.4f}{s.f1:>9.4f}")
    lk = report.leak
    out += ["", "Leak view", f"Gold PHI fully removed: {lk.removed}/{lk.total} ({100 * lk.fully_removed:.2f}%)",
            f"Leaked characters (letters/digits of gold PHI outside every predicted span): "
            f"{lk.leaked_chars}/{lk.phi_chars}"]
    if errors is not None:
        out += ["", render_errors(errors)]
    return "\n".join(out) + "\n"


def render_errors(ea) -> str:
    """Error classes with counts and percentages, the confusion matrix and examples."""
    out = [f"Error analysis (correct: {ea.correct}, errors: {ea.total_errors})",
           f"{'class':<18}{'count':>7}{'%':>8}"]
    out += [f"{c:<18}{ea.counts[c]:>7}{ea.percent(c):>8.2f}" for c in ERROR_CLASSES]
    if ea.confusion:
        gold = sorted({g for g, _ in ea.confusion})
        system = sorted({s for _, s in ea.confusion})
        width = max(len(s) for s in system + gold) + 2
        out += ["", "Type confusion (rows gold, columns system)",
                " " * width + "".join(f"{s:>{width}}" for s in system)]
        out += [f"{g:<{width}}" + "".join(f"{ea.confusion.get((g, s), 0) or '.':>{width}}"
                                          for s in system) for g in gold]
    for c in ERROR_CLASSES:
        for ex in ea.examples[c]:
            gold_part = f"gold [{ex.gold[0]}, {ex.gold[1]}) {ex.gold[2]}" if ex.gold else "gold -"
            system_part = "; ".join(f"[{a}, {b}) {t}" for a, b, t in ex.system) or "-"
            line = f"  {c:<16} {ex.doc_id}  {gold_part}  system {system_part}"
            if ex.gold_text is not None or ex.system_text:
                line += f"  text {ex.gold_text!r} -> {list(ex.system_text)!r}"
            out.append(line)
            out += [f"{'':<19}system [{a}, {b}) by {', '.join(steps)}"
                    for (a, b, _), steps in zip(ex.system, ex.steps) if steps]
            out += [f"{'':<19}dropped [{a}, {b}) {t} by {why}" for a, b, t, why in ex.dropped]
    return "\n".join(out)


CSV_FIELDS = ("block", "name", "metric", "average", "precision", "recall", "f1",
              "tp", "fp", "fn", "tp_sys", "precision_sd", "recall_sd")


def csv_rows(report):
    """One row per (block, name, metric, micro|macro)."""
    def rows(block, name, metric, micro, macro):
        for avg, s in (("micro", micro), ("macro", macro)):
            if s is None:
                continue
            yield {"block": block, "name": name, "metric": metric, "average": avg,
                   **{k: v for k, v in s.as_dict().items() if k in CSV_FIELDS}}
    for m in report.micro:
        yield from rows("overall", "ALL", m, report.micro[m], report.macro[m])
    for cat, block in report.by_category.items():
        for m, s in block.items():
            yield from rows("category", cat, m, s, report.by_category_macro[cat][m])
    for sub, block in report.by_subtype.items():
        for m, s in block.items():
            yield from rows("subtype", sub, m, s, None)


def to_csv(report) -> str:
    """The CSV text of :func:`csv_rows`."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=CSV_FIELDS, lineterminator="\n")
    w.writeheader()
    w.writerows(csv_rows(report))
    return buf.getvalue()


def plot(report, path) -> None:
    """Bar chart of micro F1: overall metrics and token F1 per parent category (PNG)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    names = list(report.micro)
    ax1.barh(names, [report.micro[m].f1 for m in names])
    ax1.set_xlim(0, 1)
    ax1.set_title("Micro F1 per metric")
    cats = list(report.by_category)
    ax2.barh(cats, [report.by_category[c]["token"].f1 for c in cats], label="token")
    ax2.barh(cats, [report.by_category[c]["strict"].f1 for c in cats], height=0.4, label="strict")
    ax2.set_xlim(0, 1)
    ax2.set_title("Micro F1 per parent category")
    ax2.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
