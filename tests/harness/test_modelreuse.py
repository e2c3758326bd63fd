"""A sweep's candidates that construct alike share one construction (kharness/modelreuse.py):
the key leaves out exactly the kernels and forward; a copy behaves as the candidate's own
build; models whose behaviour lives in the user's module are never copied; and a real sweep
of the suite's linear_bias builds one model and copies the rest, every candidate correct."""
import os
import types
from pathlib import Path

import pytest
import torch
from conftest import ROOT, start_harness
from kharness.modelreuse import construction_key, copy_as, reusable
from torch import nn

LINEAR = os.path.join(ROOT, "bench", "suite", "ops", "linear_bias")

BASE = '''
import torch
import triton
import triton.language as tl
from torch import nn

SCALE = 2


@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    pass


class ModelNew(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.lin = nn.Linear(n, n)

    def forward(self, x):
        return self.lin(x) * SCALE
'''


def _key(src, tunables=None):
    return construction_key(src, "ModelNew", tunables)


def test_key_ignores_kernels_and_forward_only():
    base = _key(BASE)
    assert base is not None
    assert _key(BASE.replace("    pass", "    tl.store(x_ptr, 1)")) == base            # a kernel body
    assert _key(BASE.replace("* SCALE", "* SCALE + 0")) == base                     # forward
    assert _key(BASE.replace("@triton.jit", "@triton.jit(do_not_specialize=[0])")) == base
    assert _key(BASE.replace("nn.Linear(n, n)", "nn.Linear(n, n, bias=False)")) != base   # the constructor
    assert _key(BASE.replace("SCALE = 2", "SCALE = 3")) != base                     # module state
    assert _key(BASE, {"n": 4}) != base                                             # tunables
    assert _key("def broken(:") is None and construction_key(BASE, "Other", None) is None


def _module(name, src):
    mod = types.ModuleType(name)
    exec(compile(src, name, "exec"), mod.__dict__)  # noqa: S102 - the fixture text above, ours
    return mod


def test_copy_behaves_as_its_own_build():
    a = _module("cand_a", BASE)
    b = _module("cand_b", BASE.replace("* SCALE", "* SCALE * 10"))
    torch.manual_seed(0)
    first = a.ModelNew(8)
    torch.manual_seed(0)
    fresh = b.ModelNew(8)
    assert reusable(first)
    copied = copy_as(first, b.ModelNew)
    assert type(copied) is b.ModelNew
    x = torch.randn(3, 8)
    torch.testing.assert_close(copied(x), fresh(x), rtol=0, atol=0)              # b's forward, a's weights
    torch.testing.assert_close(copied(x), first(x) * 10)
    assert copied.lin.weight.data_ptr() != first.lin.weight.data_ptr()           # its own storage
    with torch.no_grad():
        copied.lin.weight.zero_()
    assert first.lin.weight.abs().sum() > 0


class _UserBlock(nn.Module):     # a submodule whose methods belong to a user's module
    def forward(self, x):
        return x


@pytest.mark.parametrize("setup, why", [
    (lambda m: setattr(m, "block", _UserBlock()), "a submodule of a user class"),
    (lambda m: setattr(m, "act", lambda x: x), "a function attribute"),
    (lambda m: m.register_forward_hook(lambda mod, i, o: o), "a forward hook"),
    (lambda m: setattr(m, "helper", object()), "an object of no plain type"),
])
def test_not_reusable(setup, why):
    m = _module("cand_c", BASE).ModelNew(4)
    assert reusable(m)
    setup(m)
    assert not reusable(m), why


def test_plain_attributes_are_reusable():
    m = _module("cand_d", BASE).ModelNew(4)
    m.eps, m.shape, m.cfg, m.table = 1e-5, (4, 4), {"a": [1, 2]}, torch.arange(3)
    assert reusable(m)
    c = copy_as(m, type(m))
    assert c.cfg == {"a": [1, 2]} and torch.equal(c.table, m.table)


def test_sweep_copies_the_linear_layer(tmp_path: Path) -> None:
    with open(os.path.join(LINEAR, "ref.py")) as f:
        ref = f.read()
    with open(os.path.join(LINEAR, "kernel.py")) as f:
        ker = f.read()
    h = start_harness(tmp_path)
    try:
        r = h.request("load", reference_source=ref, kernel_source=ker, workdir="lb", seed=0,
                      correctness_cases=1, benchmark_cases=1)
        assert r["ok"], r
        cands = [{"id": f"c{i}", "changes": ch} for i, ch in
                 enumerate([{"BLOCK_M": 32}, {"BLOCK_N": 32}, {"BLOCK_K": 16}])]
        r = h.request("sweep", candidates=cands, return_sources=False, timeout_s=600)
        assert r["ok"], r
        res = r["result"]
        assert [c["status"] for c in res["candidates"]] == ["ok"] * 3, res["candidates"]
        assert res["phases"]["models_reused"] == 2          # one built, two copied
        assert res["phases"]["screen_constructed"] == 0     # the screen ran those models
        assert all(c["screen"]["passed"] for c in res["candidates"])
    finally:
        h.close()
