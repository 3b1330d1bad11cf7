"""The benchmark's targets (issues 6 and 37) and its plain-text table."""

from __future__ import annotations


def ratios(e2e: dict, crf: dict, marginals: bool) -> dict:
    """End to end / CRFsuite only, wall and CPU; ``crf`` gains its ``baseline`` figures.

    The baseline is CRFsuite doing the model's decoding: ``set`` + ``tag``, plus one
    ``marginal`` per token when the model decodes with ``o_threshold`` (``marginals``).
    The ratios to ``set`` + ``tag`` alone are kept as ``..._viterbi_only``.

    >>> crf = {"seconds": 1.0, "cpu_seconds": 1.0, "marginal_seconds": 0.5, "marginal_cpu_seconds": 0.5}
    >>> ratios({"seconds": 3.0, "cpu_seconds": 3.0}, crf, marginals=True)["ratio_end_to_end_vs_crfsuite"]
    2.0
    """
    crf["baseline"] = "set+tag+marginals" if marginals else "set+tag"
    out = {}
    for label, key, extra in (("", "seconds", "marginal_seconds"),
                              ("cpu_", "cpu_seconds", "marginal_cpu_seconds")):
        plain = crf[key]
        base = crf[f"baseline_{key}"] = round(plain + (crf.get(extra) or 0.0 if marginals else 0.0), 3)
        out[f"ratio_{label}end_to_end_vs_crfsuite"] = round(e2e[key] / base, 2) if base else None
        out[f"ratio_{label}end_to_end_vs_crfsuite_viterbi_only"] = round(e2e[key] / plain, 2) if plain else None
    return out


def targets(res: dict) -> dict:
    """Each target of issue 6 with the measured value and whether it is met (None: not
    measured, or a ``--quick`` smoke run, whose tiny corpus the targets are not about).

    >>> targets({"tag_end_to_end": {"tokens_per_s": 120000}})["tag_tokens_per_s"]
    {'target': '>= 100000', 'value': 120000, 'met': True}
    """
    quick = bool(res.get("quick"))

    def check(value, op, bound):
        met = None if value is None or quick else (value >= bound if op == ">=" else value <= bound)
        return {"target": f"{op} {bound}", "value": value, "met": met}

    e2e = res.get("tag_end_to_end") or {}
    corpus_train = res.get("train_corpus") or {}
    big = res.get("train_synth_1m") or {}
    mem = res.get("memory") or {}
    growth = None
    if len(mem) == 2:
        small, large = (mem[k]["peak_rss_mb"] for k in sorted(mem, key=int))
        growth = round(large / small, 2)
    physionet = str(res.get("corpus", "")).startswith("physionet:") and not quick
    start = res.get("startup") or {}
    deid_pl = res.get("deid_pl") or {}
    return {
        # issue 37
        "startup_cpu_seconds": check(start.get("cpu_seconds_min"), "<=", 0.3),
        "words_per_cpu_s_vs_deid_pl": check(deid_pl.get("ratio_crfdeid_vs_deid_pl"), ">=", 40),
        # CPU: on a shared machine the wall clock of two runs measures the other jobs as much
        "end_to_end_vs_crfsuite_cpu": check(res.get("ratio_cpu_end_to_end_vs_crfsuite"), "<=", 1.5),
        "jobs_2_vs_1": check(res.get("jobs_speedup"), ">=", 1.8),
        # issue 6
        "tag_tokens_per_s": check(e2e.get("tokens_per_s"), ">=", 100000),
        "end_to_end_vs_crfsuite": check(res.get("ratio_end_to_end_vs_crfsuite"), "<=", 2),
        "physionet_train_seconds": check(corpus_train.get("seconds") if physionet else None, "<=", 60),
        "train_1m_peak_rss_mb": check(big.get("peak_rss_mb") if not quick else None, "<=", 2048),
        "tag_rss_4n_vs_n": check(growth, "<=", 1.1),
    }


def _member_rows(members: dict) -> list[tuple[str, str]]:
    """A routed model's members in the end to end run: each one's notes and time, then its stages."""
    rows = []
    for name, m in members.items():
        rows.append((f"  member {name}", f"{m['documents']} notes, {m['tokens']:,} tokens, {m['seconds']} s "
                     f"({m['share_of_whole']:.1%} of the run; CPU {m['cpu_seconds']} s)"))
        rows += [(f"    {s}", f"{share:.1%} of the member ({m['stage_seconds'][s]} s)")
                 for s, share in m["stage_share"].items()]
    return rows


def format_table(res: dict) -> str:
    """The results as an aligned plain-text table (figures, ratios, targets)."""
    rows = [("corpus", res["corpus"]),
            ("machine", f"{res['machine']['cpu']}, {res['machine']['cores']} cores, "
                        f"{res['machine']['ram_gb']} GB, load {res['machine']['load_average']}")]
    start = res.get("startup")
    if start:
        rows += [("start-up (tag of one short note)", f"{start['cpu_seconds_min']} CPU-s lowest of {start['runs']} "
                  f"(median {start['cpu_seconds_median']}; bytecode cached), {start['crfdeid_modules']} crfdeid "
                  "modules imported")]
        if start.get("without_cache_cpu_seconds_min") is not None:
            rows += [("  without that cache", f"{start['without_cache_cpu_seconds_min']} CPU-s lowest of 3 "
                                              "(bytecode only where the environment has it; none written)")]
    deid_pl = res.get("deid_pl")
    if deid_pl:
        if "skipped" in deid_pl:
            rows += [("whole process vs deid.pl", f"skipped: {deid_pl['skipped']}")]
        else:
            rows += [("tag, whole process (redacted)", f"{deid_pl['crfdeid_words_per_cpu_s']:,} words/CPU-s "
                      f"({deid_pl['words']:,} words, {deid_pl['crfdeid_cpu_seconds']} CPU-s with start-up)")]
            rows += [("whole process vs deid.pl", f"skipped: {deid_pl['deid_pl_skipped']}"
                      if "deid_pl_skipped" in deid_pl else
                      f"deid.pl {deid_pl['deid_pl_words_per_cpu_s']:,} words/CPU-s "
                      f"({deid_pl['deid_pl_cpu_seconds']} CPU-s): crfdeid {deid_pl['ratio_crfdeid_vs_deid_pl']}x")]
    e2e = res.get("tag_end_to_end")
    if e2e:
        rows += [("tag end to end (1 process)", f"{e2e['tokens_per_s']:,} tokens/s, "
                  f"{e2e['notes_per_s']} notes/s ({e2e['tokens']:,} tokens, {e2e['documents']} notes, "
                  f"{e2e['seconds']} s; CPU {e2e['cpu_seconds']} s = {e2e['tokens_per_cpu_s']:,} tokens/CPU-s)")]
        if e2e.get("write_dir"):
            rows += [("  output", f"{e2e.get('output_format', 'i2b2')} under {e2e['write_dir']} "
                                  f"({e2e.get('write_fs') or 'file system unknown'})")]
        rows += [(f"  {s}", f"{share:.1%} ({e2e['stage_seconds'][s]} s)") for s, share in e2e["stage_share"].items()]
        rows += _member_rows(e2e.get("members") or {})
    crf = res.get("crfsuite_only")
    if crf:
        rows += [("CRFsuite only (set+tag)", f"{crf['tokens_per_s']:,} tokens/s ({crf['seconds']} s, "
                  f"CPU {crf['cpu_seconds']} s; marginals P(O) +{crf['marginal_seconds']} s, "
                  f"CPU +{crf.get('marginal_cpu_seconds')} s)")]
        rows += [(f"  member {name}", f"{m['tokens_per_s'] or 0:,} tokens/s ({m['seconds']} s, CPU "
                  f"{m['cpu_seconds']} s; marginals P(O) +{m['marginal_seconds']} s; {m['tokens']:,} tokens)")
                 for name, m in (crf.get("members") or {}).items()]
        rows += [(f"ratio end to end / CRFsuite ({crf.get('baseline', 'set+tag')})",
                  f"{res['ratio_end_to_end_vs_crfsuite']}x wall, "
                  f"{res.get('ratio_cpu_end_to_end_vs_crfsuite')}x CPU")]
        if crf.get("baseline", "set+tag") != "set+tag":  # the model decodes with marginals: also against Viterbi alone
            rows += [("ratio end to end / CRFsuite (set+tag)",
                      f"{res.get('ratio_end_to_end_vs_crfsuite_viterbi_only')}x wall, "
                      f"{res.get('ratio_cpu_end_to_end_vs_crfsuite_viterbi_only')}x CPU")]
    for key, label in (("train_corpus", "train on corpus"), ("train_synth_1m", "train on synthetic")):
        t = res.get(key)
        if t:
            rows.append((label, f"{t['seconds']} s wall, {t.get('cpu_seconds')} CPU-s "
                         f"(featurize {t['featurize_seconds']} s, CRFsuite "
                         f"{t['crfsuite_seconds']} s), peak RSS {t['peak_rss_mb']} MB; {t['documents']} "
                         f"notes, {t['tokens']:,} tokens, {t['features']:,} features, "
                         f"{t['iterations']} iterations"))
    for jobs, r in (res.get("jobs") or {}).items():
        rows.append((f"tag CLI --jobs {jobs}", f"{r['tokens_per_s']:,} tokens/s ({r['seconds']} s, "
                     f"{r.get('cpu_seconds')} CPU-s, with "
                     f"start-up, peak RSS {r['peak_rss_mb']} MB + workers {r['children_peak_rss_mb']} MB)"
                     + (f"; median of {len(r['runs_seconds'])} runs: {', '.join(map(str, r['runs_seconds']))} s"
                        if len(r.get("runs_seconds") or []) > 1 else "")))
    if res.get("jobs_speedup") is not None:
        rows.append(("tag CLI --jobs 2 / --jobs 1", f"{res['jobs_speedup']}x (wall, medians)"))
    for n, r in (res.get("memory") or {}).items():
        rows.append((f"tag CLI, {n} synthetic notes", f"peak RSS {r['peak_rss_mb']} MB ({r['seconds']} s)"))
    if res.get("large_note"):
        r = res["large_note"]
        rows.append(("one single-line note", f"{r['bytes'] / 2**20:.0f} MB: {r['seconds']} s, peak RSS "
                     f"{r['peak_rss_mb']} MB, exit {r['exit_code']}"))
    unjudged = "not judged (--quick smoke run)" if res.get("quick") else "not measured"
    for name, t in res.get("targets", {}).items():
        verdict = {True: "met", False: "NOT met",
                   None: "not measured" if t["value"] is None else unjudged}[t["met"]]
        rows.append((f"target {name}", f"{t['target']}: {t['value']} -> {verdict}"))
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)
