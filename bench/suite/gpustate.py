"""The GPU's state after a timing: SM clock, power draw and temperature, read with nvidia-smi,
so a record shows whether a stretch of slower reads came with lower clocks or a power limit
(the H200's baselines read 5-20% slower mid-way through a run, whichever implementation was
timed there: bench/results/h200-tma-twins-2026-12-04/README.md, section 5). nvidia-smi rather
than NVML bindings: it is on every machine with the driver, and the harness's environment does
not install pynvml. None where there is no nvidia-smi (the CPU, the tests) or it fails."""
from __future__ import annotations

import os
import subprocess
from dataclasses import asdict, dataclass

QUERY = "clocks.sm,power.draw,temperature.gpu"
FIELDS = 3                       # the fields QUERY asks for, in its order
SMI_TIMEOUT_S = 5.0              # one nvidia-smi query
NOT_AVAILABLE = ("[N/A]", "N/A", "[Not Supported]", "")


@dataclass
class GpuState:
    sm_mhz: int | None           # the SM clock when sampled
    power_w: float | None        # board power draw
    temp_c: int | None           # GPU temperature

    def to_json(self) -> dict[str, int | float | None]:
        return asdict(self)


def _number(text: str) -> float | None:
    text = text.strip()
    return None if text in NOT_AVAILABLE else float(text)


def _whole(x: float | None) -> int | None:
    return None if x is None else int(x)


def parse(line: str) -> GpuState:
    """One line of `nvidia-smi --query-gpu=QUERY --format=csv,noheader,nounits` ("1980, 654.32,
    61"; a field may read [N/A]). ValueError for anything else."""
    parts = line.split(",")
    if len(parts) != FIELDS:
        raise ValueError(f"nvidia-smi: expected {FIELDS} fields ({QUERY}), got {line!r}")
    sm, power, temp = (_number(p) for p in parts)
    return GpuState(sm_mhz=_whole(sm), power_w=power, temp_c=_whole(temp))


def device_id(index: int) -> str:
    """nvidia-smi's -i for CUDA device `index` of this process: CUDA_VISIBLE_DEVICES's entry
    (an index or a UUID, both of which -i takes) when the variable renumbers the devices."""
    visible = [v.strip() for v in os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",") if v.strip()]
    return visible[index] if index < len(visible) else str(index)


def sample(index: int) -> GpuState | None:
    """The state of CUDA device `index` now, or None (no nvidia-smi, it failed or said nothing
    parseable)."""
    cmd = ["nvidia-smi", f"--query-gpu={QUERY}", "--format=csv,noheader,nounits", "-i", device_id(index)]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=SMI_TIMEOUT_S, check=True)
    except (OSError, subprocess.CalledProcessError, subprocess.TimeoutExpired):
        return None
    lines = out.stdout.strip().splitlines()
    try:
        return parse(lines[0]) if lines else None
    except ValueError:
        return None
