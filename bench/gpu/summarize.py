"""Summarizes job JSON files (koptctl status --json) of baseline runs: per run the kernel's
median and spread per benchmark case, PyTorch eager, achieved bandwidth and the profiler's
metrics; across runs the spread of the per-run geomean medians."""
import json
import statistics
import sys
from collections.abc import Iterable


def main(paths: Iterable[str]) -> None:
    runs: list[float] = []
    # name of the run series -> (best speedup or None, highest level reached) per run
    by_policy: dict[str, list[tuple[float | None, int]]] = {}
    for p in sorted(paths, key=lambda x: int(x.rsplit("-", 1)[1].split(".")[0])):
        with open(p) as f:
            job = json.load(f)
        b = job.get("baseline") or {}
        print(f"== {p}: state {job['state']}, worker {job.get('worker')}, error {job.get('error')}")
        bench = b.get("bench") or {}
        env = bench.get("env") or {}
        dev = env.get("device") or {}
        print(f"   device {dev.get('name')}  driver {env.get('driver')}  torch {env.get('torch')}"
              f"  triton {env.get('triton')}  clock {bench.get('clock')}  l2_flush {bench.get('l2_flush')}")
        for c in bench.get("cases", []):
            k, r = c.get("kernel", {}), c.get("reference") or {}
            print(f"   case {c.get('case')}: kernel median {k.get('median_ms'):.4f} ms "
                  f"(p10 {k.get('p10_ms'):.4f}, p90 {k.get('p90_ms'):.4f}, n {k.get('n')}), "
                  f"eager {r.get('median_ms', float('nan')):.4f} ms, "
                  f"vs eager {c.get('speedup_vs_reference') or float('nan'):.3f}x, "
                  f"{c.get('achieved_gbps') or float('nan'):.0f} GB/s")
        g = (bench.get("summary") or {}).get("geomean_median_ms")
        if g:
            runs.append(g)
        prof = b.get("profile") or {}
        print(f"   profile: available {prof.get('available')} tool {prof.get('tool')} "
              f"reason {prof.get('reason')}")
        for kname, m in (prof.get("kernels") or {}).items() if isinstance(prof.get("kernels"), dict) else []:
            print(f"     {kname}: {json.dumps(m)[:400]}")
        if isinstance(prof.get("metrics"), dict):
            print(f"     metrics: {json.dumps(prof['metrics'])[:600]}")
        rp = p.replace("job-", "rounds-")
        try:
            with open(rp) as f:
                rounds = json.load(f).get("rounds", [])
        except (OSError, ValueError):
            rounds = []
        best = job.get("best") or {}
        if rounds or job.get("rounds"):
            print(f"   policy {job.get('policy')}: best {best.get('speedup')}x at round {best.get('round')}, "
                  f"tunables {best.get('tunables')}, levels per round {best.get('levels')}, "
                  f"stop: {best.get('stop_reason')}")
            for rd in rounds:
                t = rd.get("timing") or {}
                print(f"     round {rd['round']}: L{rd['level_reached']} {rd['rewrite_family']} "
                      f"{'ACCEPTED' if rd['accepted'] else 'rejected'} speedup {t.get('speedup')} "
                      f"noise {t.get('noise')} {rd.get('reject_reason') or ''}")
                print(f"        {(rd.get('hypothesis') or '')[:260]}")
            if job.get("policy"):
                by_policy.setdefault((job.get("name") or "").rsplit("-run", 1)[0], []).append(
                    (best.get("speedup"), max([rd["level_reached"] for rd in rounds] or [0])))
        comp = b.get("compile") or {}
        for k in comp.get("kernels", []):
            print(f"   compile {k.get('kernel')}: ptx {k.get('ptx_stats')} regs {k.get('resource_usage')}")
    for name, v in by_policy.items():
        sp = [x[0] for x in v if x[0]]
        if sp:
            print(f"== {name}: speedups {[round(x, 3) for x in sp]}, mean {statistics.mean(sp):.3f}x, "
                  f"spread {100 * (max(sp) - min(sp)) / statistics.mean(sp):.1f}%, max levels {[x[1] for x in v]}")
    if runs:
        mean = statistics.mean(runs)
        spread = (max(runs) - min(runs)) / mean if mean else float("nan")
        sd = statistics.stdev(runs) if len(runs) > 1 else 0.0
        print(f"== {len(runs)} runs: geomean median per run (ms) {[round(x, 5) for x in runs]}; "
              f"mean {mean:.5f} ms, stdev {sd:.5f} ms ({100 * sd / mean:.2f}%), "
              f"max-min {100 * spread:.2f}% of mean")


if __name__ == "__main__":
    main(sys.argv[1:])
