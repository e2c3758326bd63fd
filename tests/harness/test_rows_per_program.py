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
    ("sort", '''    pid = tl.program_id(0)
    x = tl.load(x_ptr + pid * n + tl.arange(0, N))
    tl.store(y_ptr + pid * n + tl.arange(0, N), tl.sort(x))''', "(x.shape[0],)", ["k line 10: calls tl.sort", "mixes lanes"]),
    ("sum along axis 1", '''    pid = tl.program_id(0)
    x = tl.load(x_ptr + pid * n + tl.arange(0, N))
    tl.store(y_ptr + pid, tl.sum(x, axis=1))''', "(x.shape[0],)", ["k line 10: tl.sum along axis `1`"]),
    ("keep_dims not a literal", '''    pid = tl.program_id(0)
    x = tl.load(x_ptr + pid * n + tl.arange(0, N))
    tl.store(y_ptr + pid, tl.max(x, 0, keep_dims=N > 1))''', "(x.shape[0],)",
     ["k line 10: tl.max with keep_dims `N > 1`, not a literal"]),
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


REDUCING = '''import torch
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, s_ptr, n, reps, N: tl.constexpr):
    """Per row: softmax by position-given axes, a running sum, k rounds of take-the-largest
    accumulated in a vector bound before the loop (carried: widened to the tile), a scan,
    and a pointer carried through the loop that no row changes."""
    row = tl.program_id(0)
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + row * n + offs, mask=offs < n, other=float("-inf"))
    p = tl.exp(x - tl.max(x, 0))
    p = p / tl.sum(p)
    acc = tl.zeros([N], dtype=tl.float32)
    best = 0.0
    out = y_ptr
    for j in range(reps):
        m = tl.max(tl.where(offs < n, p, -1.0), axis=-1, keep_dims=False)
        i = tl.argmin(tl.where(p == m, offs, N), 0)
        acc = tl.where(offs == j, m, acc)
        best += m
        p = tl.where(offs == i, -1.0, p)
        out += 0
    c = tl.cumsum(tl.where(offs < n, acc, 0.0), axis=0)
    tl.store(out + row * n + offs, c + best, mask=offs < n)
    tl.store(s_ptr + row, tl.sum(acc, axis=None))


class ModelNew(torch.nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        s = torch.empty(x.shape[0], device=x.device)
        k[(x.shape[0],)](x, y, s, x.shape[1], 3, N=64)
        return y, s
'''


def _reducing_expect(x):
    p = torch.softmax(x, dim=1)
    top = torch.topk(p, 3, dim=1).values
    acc = torch.zeros(x.shape[0], x.shape[1])
    acc[:, :3] = top
    y = torch.cumsum(acc, dim=1) + top.sum(dim=1, keepdim=True)
    return y, top.sum(dim=1)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")              # rows past the grid: -inf - -inf
@pytest.mark.filterwarnings("ignore:Conversion of an array:DeprecationWarning")
def test_reductions_scans_and_carried_values(tmp_path):
    """Reductions and scans of row values run along axis 1 with the axis kept (given by
    position, by keyword, as -1 or not at all); names a loop rebinds to row values while their
    binding before it is not one (a vector, a float) are widened to
    the tile before the loop. The result matches the original kernel and torch over grids no
    ROWS divides."""
    launch_rec.install()
    orig = _import(tmp_path / "orig.py", REDUCING, "kopt_rpp_red_orig")
    with launch_rec.recording() as recs:
        orig.ModelNew()(torch.randn(9, 50))
    rec = launch_rec.summarize(recs)
    fit = {f.name: f for f in survey(REDUCING, rec)}["rows_per_program"]
    assert fit.fits, fit.why
    cand = apply(REDUCING, "rows_per_program", {"ROWS": 4, "num_warps": 2}, rec)
    assert "tl.max(x, 1, keep_dims=True)" in cand and "tl.sum(p, axis=1, keep_dims=True)" in cand
    assert "axis=1, keep_dims=True)" in cand and "tl.argmin(tl.where(p == m, offs, N), 1, keep_dims=True)" in cand
    assert "tl.cumsum(tl.where(offs < n, acc, 0.0), axis=1)" in cand
    for v in ("acc", "best"):
        assert f"{v} = tl.where(row_mask, {v}, {v})" in cand, v
    assert "p = tl.where(row_mask, p, p)" not in cand         # already a tile before the loop
    assert "out = tl.where(row_mask" not in cand              # never a row value: the same pointer
    mod = _import(tmp_path / "cand.py", cand, "kopt_rpp_red_cand")
    for n_rows in (9, 6):
        x = torch.randn(n_rows, 50)
        (y0, s0), (y1, s1) = orig.ModelNew()(x), mod.ModelNew()(x)
        ye, se = _reducing_expect(x)
        torch.testing.assert_close(y1, y0)
        torch.testing.assert_close(s1, s0)
        torch.testing.assert_close(y1, ye)
        torch.testing.assert_close(s1, se)
