"""bench/gpu/matmul_probe.py without a GPU: its three kernels (tile, tensor descriptors,
persistent over descriptors) compute the product on the interpreter, for B as given and for
B as nn.Linear's weight, with partial tiles and fewer programs than tiles; and compiled
offline for cuda:90 they are what they are named for (wgmma in all three; TMA copies and no
cp.async in the descriptor kernels). What the probe measures needs the GPU."""
import json
import sys

import pytest
import torch
from conftest import GPU_DIR, run_probe

sys.path.insert(0, GPU_DIR)
import matmul_probe as mp

pytestmark = pytest.mark.usefixtures("cpu_allocator")


@pytest.mark.parametrize("b_t", [False, True], ids=["b", "weight"])
@pytest.mark.parametrize("variant", ["tile", "tma", "persistent"])
def test_variants_compute_the_product(variant, b_t):
    torch.manual_seed(0)
    M, N, K = 96, 160, 128                     # N: two and a half 64-wide tiles
    a = torch.randn(M, K, dtype=torch.float16)
    b = torch.randn(N, K, dtype=torch.float16) if b_t else torch.randn(K, N, dtype=torch.float16)
    want = a.float() @ (b.float().T if b_t else b.float())
    got = mp.launcher(variant, a, b, b_t, (32, 64, 32, 2, 4, 2), 4)().float()   # 4 programs, 9 tiles
    assert got.shape == (M, N)
    assert float((got - want).abs().max() / want.abs().max()) < mp.REL_TOL


def test_offline_cuda90_facts():
    """The --offline command in a process of its own: this one runs under the interpreter,
    whose jit functions do not compile for a GPU."""
    p = run_probe("matmul_probe.py", "--offline", "90", "--configs", "1", interp=False, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    rows = [json.loads(line) for line in p.stdout.splitlines()]
    assert [(r["variant"], r["b_transposed"]) for r in rows] == [
        ("tile", False), ("tma", False), ("tma", True), ("persistent", False), ("persistent", True)]
    assert all("error" not in r and r["wgmma.mma_async"] > 0 for r in rows), rows
    tile, *desc = rows
    assert tile["cp.async.cg"] > 0 and tile["cp.async.bulk.tensor"] == 0
    assert all(r["cp.async.bulk.tensor"] > 0 and r["cp.async.cg"] == 0 and r["ld.global"] == 0 for r in desc)


def test_cli_refuses_bad_input(capsys):
    with pytest.raises(SystemExit):
        mp.main(["--shapes", "matmul,conv"])
    assert "--shapes: unknown conv" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        mp.main(["--configs", "0"])
    assert "--configs: between 1 and" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        mp.main(["--repeat", str(mp.MAX_REPEAT + 1)])
    assert f"--repeat: between 1 and {mp.MAX_REPEAT}" in capsys.readouterr().err
