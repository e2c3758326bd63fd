"""Pure parsers for profiler output (no torch, no subprocess): Nsight Compute CSV and
Ascend `msprof op` CSVs. Tested on sample files in tests/harness/data/ written from the
documented formats (the msprof path has not been run against real Ascend output)."""
import csv
import io
import math
import re
from collections.abc import Callable, Iterable
from typing import Any

# ---------------------------------------------------------------------------- helpers


def parse_number(raw: object) -> int | float | None:
    """'1,234.5' -> 1234.5; '' / 'n/a' / 'N/A' / '-' -> None; '(128, 1, 1)' -> None."""
    if raw is None:
        return None
    s = str(raw).strip().strip('"')
    if s == "" or s.lower() in ("n/a", "na", "-", "nan", "none", "null"):
        return None
    s2 = s.replace(",", "").replace("%", "").strip()
    try:
        v = float(s2)
    except ValueError:
        return None
    if math.isnan(v):
        return None
    return int(v) if re.fullmatch(r"-?\d+", s2) else v


_TIME_US = {"ns": 1e-3, "nsecond": 1e-3, "nanosecond": 1e-3, "us": 1.0, "usecond": 1.0, "microsecond": 1.0,
            "ms": 1e3, "msecond": 1e3, "millisecond": 1e3, "s": 1e6, "second": 1e6}
_BYTES = {"byte": 1, "b": 1, "kbyte": 1e3, "kb": 1e3, "mbyte": 1e6, "mb": 1e6, "gbyte": 1e9, "gb": 1e9,
          "tbyte": 1e12, "kib": 1024, "mib": 1 << 20, "gib": 1 << 30}


def _to_us(value: float | None, unit: str | None) -> float | None:
    if value is None:
        return None
    f = _TIME_US.get((unit or "").strip().lower())
    return value * f if f is not None else None


def _to_bytes(value: float | None, unit: str | None) -> float | None:
    if value is None:
        return None
    f = _BYTES.get((unit or "").strip().lower())
    return value * f if f is not None else None


def _csv_rows(text: str, header_predicate: Callable[[str], bool]) -> list[dict[str, Any]]:
    """DictReader over the first line that satisfies header_predicate (skipping profiler
    chatter such as '==PROF== Connected to process')."""
    text = text.removeprefix("\ufeff")
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if header_predicate(l)), None)
    if start is None:
        return []
    reader = csv.DictReader(io.StringIO("\n".join(lines[start:])))
    rows = []
    for row in reader:
        if row is None:
            continue
        row = {(k or "").strip(): (v.strip() if isinstance(v, str) else v) for k, v in row.items()}
        rows.append(row)
    return rows


# ---------------------------------------------------------------------------- ncu

# summary field -> candidate metric keys (section display name "Section/Metric", plain display
# name, or raw metric name), first found wins
NCU_FIELDS = {
    "duration_us": ["GPU Speed Of Light Throughput/Duration", "Duration", "gpu__time_duration.sum"],
    "memory_throughput_pct": ["GPU Speed Of Light Throughput/Memory Throughput",
                              "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"],
    "dram_throughput_pct": ["GPU Speed Of Light Throughput/DRAM Throughput", "DRAM Throughput",
                            "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
                            "dram__throughput.avg.pct_of_peak_sustained_elapsed"],
    "sm_throughput_pct": ["GPU Speed Of Light Throughput/Compute (SM) Throughput", "Compute (SM) Throughput",
                          "SM Compute Throughput", "sm__throughput.avg.pct_of_peak_sustained_elapsed"],
    "l1_throughput_pct": ["GPU Speed Of Light Throughput/L1/TEX Cache Throughput", "L1/TEX Cache Throughput"],
    "l2_throughput_pct": ["GPU Speed Of Light Throughput/L2 Cache Throughput", "L2 Cache Throughput"],
    "achieved_occupancy_pct": ["Occupancy/Achieved Occupancy", "Achieved Occupancy",
                               "sm__warps_active.avg.pct_of_peak_sustained_active"],
    "theoretical_occupancy_pct": ["Occupancy/Theoretical Occupancy", "Theoretical Occupancy"],
    "registers_per_thread": ["Launch Statistics/Registers Per Thread", "Registers Per Thread",
                             "launch__registers_per_thread"],
    "block_size": ["Launch Statistics/Block Size", "launch__block_size"],
    "grid_size": ["Launch Statistics/Grid Size", "launch__grid_size"],
    "waves_per_sm": ["Launch Statistics/Waves Per SM", "launch__waves_per_multiprocessor"],
    "static_shared_bytes_per_block": ["Launch Statistics/Static Shared Memory Per Block"],
    "dynamic_shared_bytes_per_block": ["Launch Statistics/Dynamic Shared Memory Per Block"],
    "block_limit_registers": ["Occupancy/Block Limit Registers"],
    "block_limit_shared_mem": ["Occupancy/Block Limit Shared Mem"],
    "block_limit_warps": ["Occupancy/Block Limit Warps"],
    "memory_throughput_gbps": ["Memory Workload Analysis/Memory Throughput"],
    "l1_hit_rate_pct": ["Memory Workload Analysis/L1/TEX Hit Rate", "L1/TEX Hit Rate"],
    "l2_hit_rate_pct": ["Memory Workload Analysis/L2 Hit Rate", "L2 Hit Rate"],
    "mem_busy_pct": ["Memory Workload Analysis/Mem Busy", "Mem Busy"],
    "max_bandwidth_pct": ["Memory Workload Analysis/Max Bandwidth", "Max Bandwidth"],
    "warp_cycles_per_issued_instruction": ["Warp State Statistics/Warp Cycles Per Issued Instruction",
                                           "Warp Cycles Per Issued Instruction"],
    "issue_slots_busy_pct": ["Compute Workload Analysis/Issue Slots Busy", "Issue Slots Busy"],
    "sm_frequency": ["GPU Speed Of Light Throughput/SM Frequency"],
    "dram_frequency": ["GPU Speed Of Light Throughput/DRAM Frequency"],
    "dram_bytes_read": ["dram__bytes_read.sum"],
    "dram_bytes_write": ["dram__bytes_write.sum"],
}


def parse_ncu_csv(text: str) -> list[dict[str, Any]]:
    """Nsight Compute `--csv --page details` (one row per metric per kernel launch, header
    "ID","Process ID","Process Name","Host Name","Kernel Name",...,"Section Name","Metric Name",
    "Metric Unit","Metric Value"[,"Rule Name","Rule Type","Rule Description",...]) or raw
    `--metrics` output (same layout, raw metric names). Returns a list of launches:
    {"id", "kernel", "block", "grid", "device", "cc", "metrics": {key: {value, unit, raw}},
     "rules": [...], "summary": {...}} in ID order."""
    rows = _csv_rows(text, lambda l: l.startswith(('"ID"', "ID,")))
    launches: dict[str, dict[str, Any]] = {}
    for row in rows:
        rid = row.get("ID")
        if rid in (None, "", "ID") or not str(rid).strip().isdigit():
            continue
        k = launches.get(rid)
        if k is None:
            k = launches[rid] = {
                "id": parse_number(rid), "kernel": row.get("Kernel Name"), "block": row.get("Block Size"),
                "grid": row.get("Grid Size"), "device": row.get("Device"), "cc": row.get("CC"),
                "process": row.get("Process Name"), "metrics": {}, "rules": []}
        name = row.get("Metric Name") or ""
        sect = row.get("Section Name") or ""
        unit = row.get("Metric Unit") or ""
        raw = row.get("Metric Value")
        if name:
            entry = {"value": parse_number(raw), "unit": unit, "raw": raw}
            key = f"{sect}/{name}" if sect else name
            k["metrics"][key] = entry
            k["metrics"].setdefault(name, entry)
        rule = row.get("Rule Name")
        if rule:
            r = {"rule": rule, "type": row.get("Rule Type"), "section": sect,
                 "description": row.get("Rule Description")}
            if row.get("Estimated Speedup") not in (None, ""):
                r["estimated_speedup"] = parse_number(row.get("Estimated Speedup"))
                r["estimated_speedup_type"] = row.get("Estimated Speedup Type")
            if r not in k["rules"]:
                k["rules"].append(r)
    out = sorted(launches.values(), key=lambda x: (x["id"] is None, x["id"]))
    for k in out:
        k["summary"] = summarize_ncu_launch(k)
    return out


def summarize_ncu_launch(k: dict[str, Any]) -> dict[str, Any]:
    m = k["metrics"]
    s = {"kernel": k["kernel"]}
    for field, keys in NCU_FIELDS.items():
        for key in keys:
            e = m.get(key)
            if e is None or e["value"] is None:
                continue
            v = e["value"]
            if field == "duration_us":
                v = _to_us(v, e["unit"]) if e["unit"] else v
            elif field.startswith("dram_bytes"):
                v = _to_bytes(v, e["unit"]) if e["unit"] else v
            elif field == "memory_throughput_gbps":
                u = (e["unit"] or "").lower()
                if "%" in u:
                    continue
                per = {"gbyte/second": 1.0, "tbyte/second": 1e3, "mbyte/second": 1e-3, "byte/second": 1e-9}.get(u)
                v = v * per if per is not None else None
                if v is None:
                    continue
            s[field] = v
            break
    if "dram_bytes_read" in s or "dram_bytes_write" in s:
        s["dram_bytes"] = (s.get("dram_bytes_read") or 0) + (s.get("dram_bytes_write") or 0)
    mem = max(s.get("memory_throughput_pct") or 0, s.get("dram_throughput_pct") or 0)
    sm = s.get("sm_throughput_pct") or 0
    if mem or sm:
        if mem >= 60 and mem >= sm:
            s["bound"], why = "memory", f"memory throughput {mem:.0f}% of peak >= 60% and >= SM throughput {sm:.0f}%"
        elif sm >= 60:
            s["bound"], why = "compute", f"SM throughput {sm:.0f}% of peak >= 60%"
        elif mem < 40 and sm < 40:
            s["bound"], why = "latency", f"memory {mem:.0f}% and SM {sm:.0f}% both below 40% of peak"
        else:
            s["bound"], why = "balanced", f"memory {mem:.0f}%, SM {sm:.0f}% of peak"
        s["bound_reason"] = why
    return s


# ---------------------------------------------------------------------------- msprof

MSPROF_RATIOS = ["aiv_vec_ratio", "aiv_scalar_ratio", "aiv_mte2_ratio", "aiv_mte3_ratio", "aic_cube_ratio",
                 "aic_scalar_ratio", "aic_mte1_ratio", "aic_mte2_ratio", "aic_mte3_ratio", "aic_fixpipe_ratio"]
MSPROF_TIMES = ["aiv_time(us)", "aic_time(us)", "aiv_vec_time(us)", "aiv_scalar_time(us)", "aiv_mte2_time(us)",
                "aiv_mte3_time(us)", "aic_cube_time(us)", "aic_scalar_time(us)", "aic_mte1_time(us)",
                "aic_mte2_time(us)", "aic_mte3_time(us)", "aic_fixpipe_time(us)"]


def parse_msprof_csv(text: str) -> list[dict[str, Any]]:
    """Any `msprof op` / `msprof` CSV (PipeUtilization.csv, OpBasicInfo.csv, op_summary_*.csv,
    ...): list of row dicts with numbers converted (strings kept under the same key when not
    numeric)."""
    rows = _csv_rows(text, lambda l: "," in l and not l.startswith("#") and l.strip() != "")
    out = []
    for row in rows:
        r = {}
        for k, v in row.items():
            if not k:
                continue
            n = parse_number(v)
            r[k] = n if n is not None else v
        if any(v not in (None, "") for v in r.values()):
            out.append(r)
    return out


def _mean(vals: Iterable[object]) -> float | None:
    nums = [v for v in vals if isinstance(v, (int, float))]
    return sum(nums) / len(nums) if nums else None


def summarize_msprof(pipe_rows: list[dict[str, Any]] | None = None, basic_rows: list[dict[str, Any]] | None = None,
                     op_summary_rows: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Kernel-level summary: aiv/aic time (max over blocks = kernel time bound, and mean),
    pipe ratios (mean over blocks, raw fractions as msprof writes them), the bound class of
    the ops-profiling guide (MTE2/CUBE/VEC/SCALAR/MTE3/FIXP bound when a pipe is > 80%, or
    the largest and > 70%), and OpBasicInfo fields."""
    s: dict[str, Any] = {}
    pipe_rows = pipe_rows or []
    if pipe_rows:
        s["blocks"] = len(pipe_rows)
        for t in MSPROF_TIMES:
            vals = [v for r in pipe_rows if isinstance(v := r.get(t), (int, float))]
            if vals:
                key = t.replace("(us)", "_us")
                s[key + "_max"] = max(vals)
                s[key + "_mean"] = sum(vals) / len(vals)
        ratios: dict[str, float] = {}
        for rname in MSPROF_RATIOS:
            m = _mean([r.get(rname) for r in pipe_rows])
            if m is not None:
                ratios[rname] = m
        s["ratios"] = ratios
        bw = _mean([r.get("aiv_mte2_active_bw(GB/s)") for r in pipe_rows])
        if bw is not None:
            s["aiv_mte2_active_bw_gbps_mean"] = bw
        s.update(_msprof_bound(ratios))
    if op_summary_rows:
        r = op_summary_rows[0]
        s["op_summary"] = {k: r.get(k) for k in ("Op Name", "OP Type", "Task Type", "Task Duration(us)", "Block Dim",
                                                 "Mix Block Dim", "aicore_time(us)", "aiv_time(us)", "aic_time(us)",
                                                 "aiv_vec_ratio", "aiv_scalar_ratio", "aiv_mte2_ratio",
                                                 "aiv_mte3_ratio") if k in r}
        if "ratios" not in s:
            ratios = {k: r[k] for k in MSPROF_RATIOS if isinstance(r.get(k), (int, float))}
            if ratios:
                s["ratios"] = ratios
                s.update(_msprof_bound(ratios))
    if basic_rows:
        r = basic_rows[0]
        s["basic"] = {k: r.get(k) for k in ("Op Name", "Op Type", "Task Type", "Task Duration(us)", "Block Dim",
                                            "Mix Block Dim", "Current Freq", "Rated Freq", "Device Id") if k in r}
        bd = r.get("Block Dim")
        if isinstance(bd, (int, float)):
            s["block_dim"] = bd
    return s


def _msprof_bound(ratios: dict[str, float]) -> dict[str, Any]:
    groups = {
        "MTE2": max(ratios.get("aiv_mte2_ratio", 0) or 0, ratios.get("aic_mte2_ratio", 0) or 0),
        "CUBE": ratios.get("aic_cube_ratio", 0) or 0,
        "VEC": ratios.get("aiv_vec_ratio", 0) or 0,
        "SCALAR": max(ratios.get("aiv_scalar_ratio", 0) or 0, ratios.get("aic_scalar_ratio", 0) or 0),
        "MTE3": max(ratios.get("aiv_mte3_ratio", 0) or 0, ratios.get("aic_mte3_ratio", 0) or 0),
        "FIXP": ratios.get("aic_fixpipe_ratio", 0) or 0,
        "MTE1": ratios.get("aic_mte1_ratio", 0) or 0,
    }
    if not any(groups.values()):
        return {}
    top = max(groups, key=groups.__getitem__)
    v = groups[top]
    if v > 0.7:  # the largest pipe: "> 80%, or the largest and > 70%"
        bound = f"{top} BOUND"
        why = f"{top} busy {v:.0%} of the kernel time (> 80%, or the largest and > 70%)"
    else:
        bound = "no dominant pipe"
        why = f"largest pipe {top} at {v:.0%} (< 70%): latency, sync or scalar overhead"
    return {"pipes": groups, "bound": bound, "bound_reason": why}
