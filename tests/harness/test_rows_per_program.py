"""rows_per_program (harness/kharness/structural/rows_per_program.py) beyond the fixtures of
test_structural.py: the refusals a small kernel triggers, each naming its line, and, run in
this process on the interpreter, a rewritten kernel whose masks and program ids sit inside
positional arguments, over grids no ROWS value divides."""
import importlib.util

import pytest
import torch
from kharness import launches as launch_rec
from kharness.srcedit import RewriteRefused
from kharness.structural import apply, survey

HEAD = '''import torch
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, n, N: tl.constexpr):
'''
TAIL = '''

class ModelNew(torch.nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        k[GRID](x, y, x.shape[1], N=64)
        return y
'''
BODY_OK = '''    pid = tl.program_id(0)
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + pid * n + offs, mask=offs < n)
    tl.store(y_ptr + pid * n + offs, x, mask=offs < n)'''


def module(body, grid="(x.shape[0],)"):
    return HEAD + body + TAIL.replace("GRID", grid)


def records(grid=(10,)):
    """What launches.summarize gives for one launch of k (sizes are data the rewrite reads)."""
    t = {"kind": "tensor", "dtype": "float32", "shape": [10, 64]}
    return [{"kernel": "k", "launches": 1, "last": {"args": [t, t, {"kind": "int", "value": 64}],
                                                    "kwargs": {"N": {"kind": "int", "value": 64}},
                                                    "grid": list(grid)}}]


REFUSALS = [
    ("sum", '''    pid = tl.program_id(0)
    x = tl.load(x_ptr + pid * n + tl.arange(0, N))
    tl.store(y_ptr + pid, tl.sum(x, axis=0))''', "(x.shape[0],)", ["k line 10: calls tl.sum", "mixes lanes"]),
    ("loop over a loaded bound", '''    pid = tl.program_id(0)
    end = tl.load(x_ptr + pid).to(tl.int32)
    for i in range(0, end, N):
        tl.store(y_ptr + pid * n + i + tl.arange(0, N), 1.0)''', "(x.shape[0],)",
     ["k line 10: the loop header depends on the program id (end)"]),
    ("2-D grid", BODY_OK, "(x.shape[0], 2)", ["the grid has 2 axes", "1-D grid"]),
    ("rank change", '''    pid = tl.program_id(0)
    offs = tl.arange(0, N)[:, None] * n + tl.arange(0, N)[None, :]
    tl.store(y_ptr + pid * n + offs, tl.load(x_ptr + pid * n + offs))''', "(x.shape[0],)",
     ["k line 9: subscript `tl.arange(0, N)[None, :]` changes a tensor's rank"]),
    ("num_programs", '''    pid = tl.program_id(0)
    offs = tl.arange(0, N) + tl.num_programs(0)
    tl.store(y_ptr + pid * n + offs, 1.0)''', "(x.shape[0],)", ["k line 9: uses tl.num_programs"]),
    ("store to a shared place", '''    pid = tl.program_id(0)
    x = tl.load(x_ptr + pid * n + tl.arange(0, N))
    tl.store(y_ptr + tl.arange(0, N), x)''', "(x.shape[0],)",
     ["k line 10: tl.store to `y_ptr + tl.arange(0, N)`, which does not depend on the program id"]),
    ("2-D zeros", '''    pid = tl.program_id(0)
    z = tl.zeros([N, N], tl.float32)
    tl.store(y_ptr + pid, 1.0)''', "(x.shape[0],)", ["k line 9: tl.zeros with shape `[N, N]`"]),
    ("pid in an if", '''    pid = tl.program_id(0)
    if pid > 3:
        tl.store(y_ptr + pid, 1.0)''', "(x.shape[0],)", ["k line 9: the `if` header depends on the program id (pid)"]),
    ("return", '''    pid = tl.program_id(0)
    tl.store(y_ptr + pid, 1.0)
    return''', "(x.shape[0],)", ["k line 10: returns early"]),
    ("hint on a row value", '''    pid = tl.program_id(0)
    base = tl.multiple_of(pid * n, 16)
    tl.store(y_ptr + base + tl.arange(0, N), 1.0)''', "(x.shape[0],)", ["k line 9: tl.multiple_of of a value derived"]),
]


@pytest.mark.parametrize("body,grid,words", [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_refusals(body, grid, words):
    src = module(body, grid)
    with pytest.raises(RewriteRefused) as e:
        apply(src, "rows_per_program", {}, records())
    for w in words:
        assert w in str(e.value), str(e.value)
    fit = {f.name: f for f in survey(src, records())}["rows_per_program"]
    assert not fit.fits and str(e.value) in fit.why


def test_survey_domain_and_default():
    """The per-program block (64 here) bounds ROWS by 16384 elements and the grid; the
    default makes a tile of at least 1024 elements."""
    fit = {f.name: f for f in survey(module(BODY_OK), records((1000,)))}["rows_per_program"]
    assert fit.fits and "block of 64 element(s)" in fit.why, fit.why
    assert fit.domain == {"ROWS": [2, 4, 8, 16, 32, 64], "num_warps": [1, 2, 4, 8, 16]}
    assert fit.params == {"kernel": "k", "ROWS": 16, "num_warps": 4}
    fit = {f.name: f for f in survey(module(BODY_OK), records((5,)))}["rows_per_program"]
    assert fit.domain["ROWS"] == [2, 4, 8] and fit.params["ROWS"] == 8
    fit = {f.name: f for f in survey(module(BODY_OK), records((1,)))}["rows_per_program"]
    assert not fit.fits and "1 program(s)" in fit.why


POSITIONAL = '''import torch
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, n, N: tl.constexpr):
    """|x| * (row + 1) over rows of n <= N elements; masks given by position."""
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + tl.program_id(0) * n + offs, offs < n, other=0.0)
    y = tl.where(x > 0, x, -x) * (tl.program_id(0) + 1)
    tl.store(y_ptr + tl.program_id(0) * n + offs, y, (offs < n) & (tl.program_id(0) >= 0))


class ModelNew(torch.nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        k[(x.shape[0],)](x, y, x.shape[1], N=64)
        return y
'''


def _import(path, text, modname):
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(modname, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.filterwarnings("ignore:Conversion of an array:DeprecationWarning")  # the interpreter's own loop
def test_positional_masks_and_partial_tiles(tmp_path):
    """Masks given by position (one holding tl.program_id) are AND-ed with the row mask; for
    21 and 11 rows the last tile of 4 or 16 rows is partly past the grid: the rows' output is
    the original kernel's, and the rows of the buffer past n_rows keep what they held."""
    launch_rec.install()
    orig = _import(tmp_path / "orig.py", POSITIONAL, "kopt_rpp_orig")
    with launch_rec.recording() as recs:
        orig.ModelNew()(torch.randn(21, 50))
    rec = launch_rec.summarize(recs)
    for rows in (4, 16):
        cand = apply(POSITIONAL, "rows_per_program", {"ROWS": rows, "num_warps": 2}, rec)
        assert f"ROWS={rows}, num_warps=2)" in cand
        assert "(offs < n) & (tl.program_id(0) >= 0)" not in cand and "& row_mask" in cand
        mod = _import(tmp_path / f"cand{rows}.py", cand, f"kopt_rpp_cand{rows}")
        for n_rows in (21, 11):
            x = torch.randn(n_rows, 50)
            expect = x.abs() * torch.arange(1, n_rows + 1)[:, None]
            torch.testing.assert_close(mod.ModelNew()(x), orig.ModelNew()(x))
            torch.testing.assert_close(mod.ModelNew()(x), expect)
            # the kernel itself on buffers one tile longer than the rows
            big_x, big_y = torch.randn(n_rows + rows, 50), torch.full((n_rows + rows, 50), 7.0)
            big_x[:n_rows] = x
            mod.k[(-(-n_rows // rows),)](big_x, big_y, 50, N=64, n_rows=n_rows, ROWS=rows)
            torch.testing.assert_close(big_y[:n_rows], expect)
            assert torch.equal(big_y[n_rows:], torch.full((rows, 50), 7.0))
