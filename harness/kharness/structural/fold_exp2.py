"""fold_exp2: an online softmax computes ``tl.exp(s - m)`` on scores ``s = dot * scale``; Triton
lowers ``exp(x)`` to ``exp2(x * log2 e)``, a multiply per element on top of the scale's. Kept
in base-2 units from the start (``s = dot * (scale * log2 e)``, the maximum and every value
derived from them likewise), each exponential becomes ``tl.exp2(s - m)``: the two multiplies
fold into one, computed once for the scalar factor. On the H100, the unseen attention kernel
(with even_bounds) written so by hand took 0.80 of its first draft's time where even_bounds
alone took 0.93 (bench/results/h200-split-reuse-2026-12-05, call BS).

Precondition: in kernel K (launched from one place, not autotuned), a set D of names, each
assigned only by *scaled* expressions, where a scaled expression is a *source* ``A * c`` (or
``c * A``: c a scalar factor, a number, a constexpr or a parameter the recorded launch passed
an int or float, or arithmetic of those; A reading no name of D), a name of D, a constant
``float("-inf")``, ``float("inf")`` or 0 (``tl.full(shape, v, dtype)`` of one), ``tl.max`` or
``tl.min`` of one, ``tl.maximum`` or ``tl.minimum`` of two, ``tl.where(cond, x, y)`` of two
(cond reading no name of D), one indexed by ``None`` and ``:`` only; and each name of D read
only inside such expressions, as what a name of D is assigned, or in ``tl.exp(x - y)`` with x
and y scaled. At least one such ``tl.exp`` and one source. ``s = E`` followed at once by ``s = s *
c`` or ``s *= c`` is the one source ``E * c`` (_two_step). With the parameter ``defer`` the
scores stay raw and the factor moves to their uses (_Defer; measured on an H100, call BX:
0.95-0.97 of the folded form on attention).

Why it is correct: with L = log2 e > 0, every scaled expression of the rewritten kernel is L
times the original's (up to rounding): a source by construction, a maximum or minimum because
multiplying by a positive number keeps order (and rounding is monotone, so the maximum of the
rounded values is the rounded maximum), a selection, an index and a copy trivially, and the
constants because L times 0 or an infinity is itself. No scaled value leaves these
expressions except through ``tl.exp(x - y)``, and exp(x - y) = exp2(L x - L y)."""
from __future__ import annotations

import ast
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..srcedit import Edit, RewriteRefused, apply_edits
from .common import (
    Fit,
    Kernel,
    Module,
    Plan,
    bindings,
    call_arg,
    check_params,
    check_wrappers,
    names_in,
    option_domain,
    option_edits,
    pick,
    survey_one,
)
from .patterns import grouped, strip_broadcast

NAME = "fold_exp2"
DEFAULTS: dict[str, Any] = {"kernel": "", "defer": 0}
LOG2E = "1.4426950408889634"   # log2(e), the factor Triton's exp lowering multiplies by
# the pipeline and warps move with the arithmetic per element (the launch's own are the
# defaults and always in the domain)
OPTION_DOMAIN = {"num_warps": [4, 8], "num_stages": [2, 3, 4]}
SCALE_INVARIANT = (0.0, float("inf"), float("-inf"))
REDUCE = ("max", "min")
COMBINE = ("maximum", "minimum")


@dataclass
class FoldPlan(Plan):
    factors: list[ast.expr] = field(default_factory=list)    # the scalar factor c of each product A * c
    exps: list[ast.Call] = field(default_factory=list)
    defer: _Defer | None = None    # what the parameter ``defer`` = 1 changes; None where it does not fit


def _const_value(mod: Module, e: ast.AST) -> float | None:
    """The number of ``0``/``0.0``, ``float("inf")``, ``-float("inf")``, ``float("-inf")``."""
    neg = isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub)
    if neg:
        assert isinstance(e, ast.UnaryOp)
        e = e.operand
    v: float | None = None
    if isinstance(e, ast.Constant) and isinstance(e.value, (int, float)) and not isinstance(e.value, bool):
        v = float(e.value)
    elif (isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "float" and len(e.args) == 1
          and isinstance(e.args[0], ast.Constant) and isinstance(e.args[0].value, str)):
        try:
            v = float(e.args[0].value)
        except ValueError:
            return None
    if v is None:
        return None
    return -v if neg else v


class _Scan:
    """The scaled-expression analysis of one kernel under a candidate set D of names."""

    def __init__(self, mod: Module, k: Kernel, scalars: set[str]) -> None:
        self.mod, self.k, self.scalars = mod, k, scalars
        # strict: a source's A and a selection's condition may read no name of D (A would be
        # scaled twice, the condition would compare scaled values); the search for D relaxes
        # that first (_scaled_names)
        self.strict = True

    def invariant(self, e: ast.AST) -> bool:
        """A constant that multiplying by L leaves as it is (0, +-inf), or tl.full of one."""
        if self.mod.tl_func(e) == "full" and isinstance(e, ast.Call):
            v = call_arg(e, 1, "value")
            return v is not None and self.invariant(v)
        c = _const_value(self.mod, e)
        return c is not None and c in SCALE_INVARIANT

    def scalar(self, e: ast.AST) -> bool:
        """A scalar factor: numbers, scalar parameters and constexprs, arithmetic of those."""
        if isinstance(e, ast.Constant):
            return isinstance(e.value, (int, float)) and not isinstance(e.value, bool)
        if isinstance(e, ast.Name):
            return e.id in self.scalars
        if isinstance(e, ast.UnaryOp):
            return self.scalar(e.operand)
        if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
            return self.scalar(e.left) and self.scalar(e.right)
        return False

    def source(self, e: ast.AST, dom: set[str]) -> tuple[ast.BinOp, ast.expr] | None:
        """(the product, its scalar factor) when e is ``A * c`` or ``c * A``, A reading no D name."""
        if not (isinstance(e, ast.BinOp) and isinstance(e.op, ast.Mult)):
            return None
        for a, c in ((e.left, e.right), (e.right, e.left)):
            if self.scalar(c) and not self.scalar(a) and not (self.strict and names_in(a) & dom):
                return e, c
        return None

    def scaled(self, e: ast.AST, dom: set[str]) -> bool:
        """e is a scaled expression (module docstring) under D = dom."""
        if isinstance(e, ast.Name):
            return e.id in dom
        if isinstance(e, ast.Subscript) and strip_broadcast(e) is not e:
            return self.scaled(strip_broadcast(e), dom)
        if self.invariant(e) or self.source(e, dom) is not None:
            return True
        f = self.mod.tl_func(e)
        if not isinstance(e, ast.Call) or f is None:
            return False
        if f in REDUCE:
            return bool(e.args) and self.scaled(e.args[0], dom)
        if f in COMBINE:
            return len(e.args) == 2 and not e.keywords and all(self.scaled(a, dom) for a in e.args)
        if f == "where":
            return (len(e.args) == 3 and not e.keywords and not (self.strict and names_in(e.args[0]) & dom)
                    and self.scaled(e.args[1], dom) and self.scaled(e.args[2], dom))
        return False

    def sources_in(self, e: ast.AST, dom: set[str]) -> list[tuple[ast.BinOp, ast.expr]]:
        """Every source inside scaled expression e, where ``scaled`` found them: each must get
        the factor L, wherever it sits (a product inside a maximum as much as one assigned)."""
        if isinstance(e, ast.Name) or self.invariant(e):
            return []
        if isinstance(e, ast.Subscript):
            return self.sources_in(e.value, dom)
        src = self.source(e, dom)
        if src is not None:
            return [src]
        assert isinstance(e, ast.Call)
        f = self.mod.tl_func(e)
        parts = e.args[:1] if f in REDUCE else e.args[1:] if f == "where" else e.args
        return [x for a in parts for x in self.sources_in(a, dom)]

    def exp_of_difference(self, e: ast.AST | None, dom: set[str]) -> bool:
        return (isinstance(e, ast.Call) and self.mod.tl_func(e) in ("exp", "math.exp") and len(e.args) == 1
                and not e.keywords and isinstance(e.args[0], ast.BinOp) and isinstance(e.args[0].op, ast.Sub)
                and self.scaled(e.args[0].left, dom) and self.scaled(e.args[0].right, dom))

    def use_ok(self, n: ast.Name, dom: set[str]) -> bool:
        """A read of a D name sits inside scaled expressions up to an assignment to a D name or
        the difference of a tl.exp."""
        node: ast.AST = n
        while True:
            up = self.mod.parents.get(node)
            if isinstance(up, ast.Assign):
                return (len(up.targets) == 1 and isinstance(up.targets[0], ast.Name) and up.targets[0].id in dom
                        and self.scaled(up.value, dom))
            if isinstance(up, ast.BinOp) and isinstance(up.op, ast.Sub):
                return self.exp_of_difference(self.mod.parents.get(up), dom)
            if up is None or not self.scaled(up, dom):
                return False
            node = up


def _stores(mod: Module, k: Kernel) -> dict[str, list[ast.AST]]:
    """Every store of each name in the kernel: the value of a plain ``name = value``, else the
    storing node itself (a loop target, an augmented assignment, a walrus...), which is never
    a scaled expression."""
    stores: dict[str, list[ast.AST]] = {}
    covered: set[int] = set()
    for node, targets, srcs in bindings(k):
        plain = isinstance(node, (ast.Assign, ast.AnnAssign)) and len(targets) == 1 and isinstance(targets[0], ast.Name)
        for x in (x for t in targets for x in ast.walk(t)):
            if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Store):
                covered.add(id(x))
                stores.setdefault(x.id, []).append(srcs[0] if plain else node)
    for x in ast.walk(k.node):          # stores no binding statement makes
        if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Store) and id(x) not in covered:
            stores.setdefault(x.id, []).append(mod.parents[x])
    return stores


def _two_step(k: Kernel, scan: _Scan, stores: dict[str, list[ast.AST]], reads: dict[str, list[ast.Name]]) -> set[int]:
    """Scores scaled in a statement of their own: ``s = E`` followed at once, in the same
    block, by ``s = s * c`` (or ``c * s``) or ``s *= c``, c a scalar factor and E not reading s.
    Nothing reads s between the two, so the pair stores ``E * c`` and nothing else: the two
    stores become one product (a node made here, at the second statement's line, whose factor
    is the real c the rewrite edits) and the read of s inside the second leaves ``reads``.
    Returns the ids of the products made."""
    made: set[int] = set()
    blocks = [b for n in ast.walk(k.node) for b in (getattr(n, "body", None), getattr(n, "orelse", None))
              if isinstance(b, list)]
    for block in blocks:
        for first, second in itertools.pairwise(block):
            if not (isinstance(first, ast.Assign) and len(first.targets) == 1 and isinstance(first.targets[0], ast.Name)):
                continue
            name = first.targets[0].id
            if name in names_in(first.value):
                continue
            c, read = _scaled_again(second, name, scan)
            if c is None:
                continue
            prod = ast.copy_location(ast.BinOp(left=first.value, op=ast.Mult(), right=c), second)
            stores[name] = [v for v in stores[name] if v is not first.value and v is not second
                            and v is not getattr(second, "value", None)] + [prod]
            if read is not None:
                reads[name] = [x for x in reads.get(name, []) if x is not read]
            made.add(id(prod))
    return made


def _scaled_again(st: ast.stmt, name: str, scan: _Scan) -> tuple[ast.expr | None, ast.Name | None]:
    """(c, the read of name) when st is ``name = name * c``, ``name = c * name`` (c a scalar
    factor) or ``name *= c`` (no read); (None, None) otherwise."""
    if (isinstance(st, ast.AugAssign) and isinstance(st.op, ast.Mult) and isinstance(st.target, ast.Name)
            and st.target.id == name and scan.scalar(st.value)):
        return st.value, None
    if (isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name)
            and st.targets[0].id == name and isinstance(st.value, ast.BinOp) and isinstance(st.value.op, ast.Mult)):
        for a, c in ((st.value.left, st.value.right), (st.value.right, st.value.left)):
            if isinstance(a, ast.Name) and a.id == name and scan.scalar(c):
                return c, a
    return None, None


def _shrink(dom: set[str], ok: Callable[[str, set[str]], bool]) -> set[str]:
    """The greatest subset of dom whose every name n has ok(n, subset)."""
    while True:
        keep = {n for n in dom if ok(n, dom)}
        if keep == dom:
            return dom
        dom = keep


def _scalednames_in(scan: _Scan, stores: dict[str, list[ast.AST]], reads: dict[str, list[ast.Name]],
                  dom: set[str]) -> set[str]:
    """D: the greatest set of names whose stores are all scaled and whose reads all stay inside
    scaled expressions. A source's A and a selection's condition must read no name of D,
    conditions that removing names can only satisfy more: so the set is found with them
    relaxed, then the names one of whose stores breaks them are dropped, and the search runs
    again, until none does."""
    while True:
        scan.strict = False
        dom = _shrink(dom, lambda n, d: all(scan.scaled(v, d) for v in stores[n])
                      and all(scan.use_ok(x, d) for x in reads.get(n, [])))
        scan.strict = True
        bad = {n for n in dom if not all(scan.scaled(v, dom) for v in stores[n])}
        if not bad:
            return dom
        dom -= bad


def _why_not(scan: _Scan, k: Kernel, stores: dict[str, list[ast.AST]], reads: dict[str, list[ast.Name]],
             dom: set[str]) -> str:
    """The reads that kept scores out of D: among the names whose stores alone would be scaled
    (D0) and that feed a tl.exp's argument through stores of such names, each read that does
    not stay inside scaled expressions of D0, first one per name."""
    scan.strict = False
    d0 = _shrink(set(stores), lambda n, d: all(scan.scaled(v, d) for v in stores[n]))
    scan.strict = True
    feed = {n.id for c in ast.walk(k.node) if scan.mod.tl_func(c) in ("exp", "math.exp")
            for n in ast.walk(c) if isinstance(n, ast.Name)} & d0
    while True:
        more = feed | {n for m in feed for v in stores[m] for n in names_in(v)} & d0
        if more == feed:
            break
        feed = more
    out = []
    for n in sorted(feed - dom):
        bad = [x for x in reads.get(n, []) if not scan.use_ok(x, d0)]
        if bad:
            first = min(bad, key=lambda x: (x.lineno, x.col_offset))
            out.append(f"{n} is used at line {first.lineno} other than through maxima, minima, selections "
                       "and the difference in a tl.exp")
    return "; " + "; ".join(out) if out else ""


class _Defer:
    """The scale deferred to the scores' uses: names whose every store is *raw-form* (a source,
    whose factor is dropped; a raw name; a constant of SCALE_INVARIANT; a selection of two
    raw-form values; an index by ``None`` and ``:``) keep raw scores, A instead of A * c, and
    the factor is applied where base-2 units are needed: a maximum or minimum of a raw name is
    taken first and multiplied after (``tl.max(s, axis=1) * (c * L)``: one multiply per row, and
    equal to the maximum of the products, rounding being monotone), a raw name elsewhere is
    multiplied where it is read (``tl.exp2(s * (c * L) - m)``: one fused multiply-add per score
    where fold alone spends a multiply and a subtraction). Every source stored into raw names
    must have the same factor; otherwise nothing is deferred. The exponent's argument is rounded
    once instead of twice, so where a score is its row's maximum it may come out an ulp above 0
    rather than 0: its exponential is 1 within rounding, and the sum that normalizes the
    result is taken over the same values. A row of -inf gives NaN as the original does."""

    def __init__(self, scan: _Scan, stores: dict[str, list[ast.AST]], dom: set[str], exps: list[ast.Call]) -> None:
        self.scan, self.stores, self.dom, self.exps = scan, stores, dom, exps
        self.raw: set[str] = set()
        self.factor: ast.expr | None = None

    def raw_form(self, e: ast.AST, raw: set[str]) -> bool:
        if isinstance(e, ast.Name):
            return e.id in raw
        if isinstance(e, ast.Subscript) and strip_broadcast(e) is not e:
            return self.raw_form(strip_broadcast(e), raw)
        if self.scan.invariant(e) or self.scan.source(e, self.dom) is not None:
            return True
        return (isinstance(e, ast.Call) and self.scan.mod.tl_func(e) == "where" and len(e.args) == 3
                and not e.keywords and self.raw_form(e.args[1], raw) and self.raw_form(e.args[2], raw))

    def find(self, synthetic: set[int]) -> None:
        """raw: the greatest set of names of D whose stores are all raw-form (a name of the
        constants alone counts: L times it is itself, so multiplying it where it is read changes
        nothing but a multiply; the attention kernels' names of constants also store maxima,
        which are not raw-form); emptied unless their sources share one factor and none is a
        two-step product (_two_step: its A is a statement of its own, which the deferred form
        would have to remove)."""
        raw = _shrink(set(self.dom), lambda n, d: all(self.raw_form(v, d) for v in self.stores[n]))
        found = [x for n in raw for v in self.stores[n] for x in self.scan.sources_in(v, self.dom)]
        factors = {ast.dump(c) for _, c in found}
        if len(factors) != 1 or any(id(b) in synthetic for b, _ in found):
            return
        self.raw, self.factor = raw, found[0][1]

    def is_raw_read(self, e: ast.AST) -> bool:
        e = strip_broadcast(e) if isinstance(e, ast.expr) else e
        return isinstance(e, ast.Name) and e.id in self.raw

    def edits(self) -> list[Edit]:
        """The deferred form: each source stored into a raw name becomes its A; the stores of
        the other names of D and the exps' operands take the factor where they read raw names."""
        assert self.raw and self.factor is not None
        mod = self.scan.mod
        f = f"({_factor_product(mod, self.factor)})"
        out = [mod.replace(b, mod.text(b.left if b.right is c else b.right))
               for n in sorted(self.raw) for v in self.stores[n] for b, c in self.scan.sources_in(v, self.dom)]
        roots = [v for n in sorted(self.dom - self.raw) for v in self.stores[n]]
        roots += [x for e in self.exps for x in _operands(e)]
        return out + [x for r in roots for x in self.scaled_edits(r, f)]

    def scaled_edits(self, e: ast.AST, f: str) -> list[Edit]:
        """Edits that put scaled expression e in base-2 units when the raw names hold raw scores."""
        mod = self.scan.mod
        if self.is_raw_read(e):
            return [mod.replace(e, _times(mod, e, f))]
        src = self.scan.source(e, self.dom)
        if src is not None:
            return [mod.replace(src[1], _factor_text(mod, src[1]))]
        if isinstance(e, ast.Subscript):
            return self.scaled_edits(e.value, f)
        if not isinstance(e, ast.Call):
            return []               # a name of D that is not raw, a constant
        fn = mod.tl_func(e)
        if fn in REDUCE and e.args and self.is_raw_read(e.args[0]):
            return [mod.replace(e, _times(mod, e, f))]
        parts = e.args[:1] if fn in REDUCE else e.args[1:] if fn == "where" else e.args
        return [x for a in parts for x in self.scaled_edits(a, f)]


def _operands(e: ast.Call) -> tuple[ast.expr, ast.expr]:
    """x and y of an exp of a difference ``tl.exp(x - y)`` (exp_of_difference found it)."""
    diff = e.args[0]
    assert isinstance(diff, ast.BinOp)
    return diff.left, diff.right


def _times(mod: Module, e: ast.AST, f: str) -> str:
    """e's text multiplied by f, grouped unless e is a call's argument or a side of a sum or
    difference (where a product needs no parentheses)."""
    up = mod.parents.get(e)
    text = f"{mod.text(e)} * {f}"
    if isinstance(up, ast.Call) or (isinstance(up, ast.BinOp) and isinstance(up.op, (ast.Add, ast.Sub))):
        return text
    return grouped(mod, e, text)


def analyze(mod: Module, k: Kernel) -> FoldPlan:
    name = k.name
    check_wrappers(mod, k, "num_warps and num_stages")
    rec = mod.recorded_values(name)
    scalars = set(k.constexprs) | {p for p in k.params if rec.get(p, {}).get("kind") in ("int", "float")}
    stores = _stores(mod, k)
    scalars -= {s for s in scalars if stores.get(s)}       # a parameter the kernel reassigns is not the one passed
    reads: dict[str, list[ast.Name]] = {}
    for x in ast.walk(k.node):
        if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Load):
            reads.setdefault(x.id, []).append(x)
    scan = _Scan(mod, k, scalars)
    synthetic = _two_step(k, scan, stores, reads)
    dom = _scalednames_in(scan, stores, reads, set(stores) - scalars)
    exps = [c for c in ast.walk(k.node) if isinstance(c, ast.Call) and scan.exp_of_difference(c, dom)]
    scaled_roots = [v for n in sorted(dom) for v in stores[n]] + [x for c in exps for x in _operands(c)]
    found: list[tuple[ast.BinOp, ast.expr]] = []
    for r in scaled_roots:
        found += [x for x in scan.sources_in(r, dom) if all(x[0] is not y[0] for y in found)]
    if not exps or not found:
        why = (f"{name}: no tl.exp(x - y) of scores kept only for it (x, y from a product with a scalar factor "
               "through maxima, minima, selections and copies, read nowhere else)")
        if dom and not exps:
            why += f"; {', '.join(sorted(dom))} fit but feed no tl.exp of a difference"
        raise RewriteRefused(why + _why_not(scan, k, stores, reads, dom))
    site = mod.one_site(name)
    options, domain = option_domain(mod, site, OPTION_DOMAIN)
    defer = _Defer(scan, stores, dom, exps)
    defer.find(synthetic)
    options["defer"] = int(bool(defer.raw))
    domain["defer"] = [0, 1] if defer.raw else [0]
    lines = ", ".join(str(c.lineno) for c in exps)
    why = (f"{name}: {', '.join(sorted(dom))} feed only tl.exp of differences (line {lines}) from a product "
           f"with a scalar factor (line {', '.join(str(s.lineno) for s, _ in found)}): base-2 units fold "
           "exp's log2(e) into that factor")
    if defer.raw:
        why += (f"; {', '.join(sorted(defer.raw))} can hold raw scores, the factor applied where they are "
                "used (defer)")
    return FoldPlan(k, site, why, {**DEFAULTS, "kernel": name, **options}, domain, [c for _, c in found], exps,
                    defer if defer.raw else None)


def survey(mod: Module) -> Fit:
    return survey_one(mod, NAME, analyze)


def _factor_product(mod: Module, c: ast.expr) -> str:
    """The factor times log2(e); a compound factor keeps parentheses of its own, (a - b) * L
    and not a - b * L."""
    text = mod.text(c) if isinstance(c, (ast.Name, ast.Constant)) else f"({mod.text(c)})"
    return f"{text} * {LOG2E}"


def _factor_text(mod: Module, c: ast.expr) -> str:
    """The factor times log2(e) in place of c, grouped."""
    return grouped(mod, c, _factor_product(mod, c))


def apply(mod: Module, params: dict[str, Any]) -> str:
    kernel = params.get("kernel")
    plan = pick(mod, NAME, analyze, kernel if isinstance(kernel, str) and kernel else None)
    p = check_params(NAME, dict(params), plan.params, plan.domain)
    tl = mod.tl()
    edits: list[Edit] = option_edits(mod, plan, p, OPTION_DOMAIN)
    edits += [mod.replace(e.func, f"{tl}.exp2") for e in plan.exps]     # tl.exp, tl.math.exp or an imported exp
    if p["defer"]:
        assert plan.defer is not None      # the domain offers defer 1 only then
        edits += plan.defer.edits()
    else:
        edits += [mod.replace(c, _factor_text(mod, c)) for c in plan.factors]
    return apply_edits(mod.source, edits)
