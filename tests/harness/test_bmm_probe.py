"""bench/gpu/bmm_probe.py without a GPU: its four forms of the persistent batched matmul
(descriptors per tile or one 3-D descriptor per operand, the output through pointers or a
descriptor) compute the product on the interpreter with fewer programs than tiles, so tiles
of several batches pass through one program; compiled offline for cuda:90 they are what they
are named for (TMA copies and wgmma in all; no global store where the output goes through a
descriptor). What the probe measures needs the GPU."""
import json
import sys

import pytest
import torch
from conftest import GPU_DIR, run_probe

sys.path.insert(0, GPU_DIR)
import bmm_probe as bp
from matmul_probe import REL_TOL

pytestmark = pytest.mark.usefixtures("cpu_allocator")


@pytest.mark.parametrize("variant", list(bp.VARIANTS))
def test_variants_compute_the_product(variant):
    torch.manual_seed(0)
    a = torch.randn(3, 64, 96, dtype=torch.float16)
    b = torch.randn(3, 96, 80, dtype=torch.float16)        # N: two and a half 32-wide tiles
    want = torch.bmm(a.float(), b.float())
    got = bp.launcher(variant, a, b, (32, 32, 32, 2, 4, 2), 5)().float()   # 5 programs, 18 tiles
    assert got.shape == want.shape
    assert float((got - want).abs().max() / want.abs().max()) < REL_TOL


def test_offline_cuda90_facts():
    """The --offline command in a process of its own: this one runs under the interpreter,
    whose jit functions do not compile for a GPU."""
    p = run_probe("bmm_probe.py", "--offline", interp=False, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    rows = [json.loads(line) for line in p.stdout.splitlines()]
    assert [r["variant"] for r in rows] == [v for v in bp.VARIANTS for _ in bp.CONFIGS]
    assert all(r["cp.async.bulk.tensor"] > 0 and r["wgmma.mma_async"] > 0 for r in rows), rows
    for r in rows:
        assert (r["st.global"] == 0) == r["variant"].endswith("_st"), r


def test_cli_refuses_bad_repeat(capsys):
    with pytest.raises(SystemExit):
        bp.main(["--repeat", str(bp.MAX_REPEAT + 1)])
    assert f"--repeat: between 1 and {bp.MAX_REPEAT}" in capsys.readouterr().err
