"""Knob discovery: the launch parameters of a kernel module that can change without changing
what it computes, where each lives in the source, and what it is coupled to (docs/SEARCH.md).

`discover(source, launches, tunables, declared)` combines the module's syntax tree
(kharness.pyflow for the launcher, kharness.kernelinfo for the kernels) with the launches
recorded on a real forward (kharness.launches.summarize): the recorded values confirm what the
tree says, and the recorded grid is what a grid expression must recompute to before one of
its literals is tied to a knob. The result's private `sites` say exactly which syntax-tree
spans a change rewrites (kharness.rewrite)."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from . import kernelinfo, pyeval, pyflow
from .kernelinfo import KernelFacts
from .knobrec import (
    AutotunePlan,
    Coupling,
    Discovery,
    Frozen,
    KernelRecord,
    Knob,
    KnobBound,
    Site,
    Where,
)
from .normalize import lift_constexpr_globals, name_kernel_attributes
from .pyeval import Unevaluable
from .pyflow import (
    Computed,
    Ctor,
    Env,
    LaunchSite,
    Lit,
    Origin,
    Program,
    short,
)
from .srcedit import RewriteRefused

OPTION_DEFAULTS = {"num_warps": 4, "num_stages": 3}     # Triton's defaults on cuda
SWEPT_KINDS = ("block", "group", "split", "num_warps", "num_stages")
TIE_KINDS = ("block", "group", "split", "int")
MAX_DECLARED_VALUES = 64
META = "meta"
LOOP_STAGES_NAME = "loop_num_stages"     # a loop's own pipeline depth (_Builder.loop_stages)


# ---------------------------------------------------------------------------- discovery


def discover(source: str, launches: list[dict], tunables: dict[str, object] | None = None,
             declared: dict[str, list[int]] | None = None) -> Discovery:
    """Knobs of `source` given the launches one forward recorded. Raises RewriteRefused when
    the source does not parse and ValueError for a malformed `declared`."""
    base = lift_constexpr_globals(name_kernel_attributes(source))
    prog = pyflow.load_program(base)
    b = _Builder(prog, launches, dict(tunables or {}))
    b.run()
    b.apply_declared(check_declared(declared or {}))
    b.assign_ids()
    return Discovery(source, dict(tunables or {}), list(b.stores.values()), b.frozen, b.kernel_records(),
                     b.autotune, base)


def check_declared(declared: object) -> dict[str, list[int]]:
    """The job's declared tunables {name: [int, ...]}, checked; TypeError/ValueError otherwise."""
    if not isinstance(declared, dict):
        raise TypeError("declared must be an object of name -> list of integers")
    out: dict[str, list[int]] = {}
    for name, values in declared.items():
        if not isinstance(name, str) or not name.replace(".", "_").isidentifier():
            raise ValueError(f"declared: {name!r} is not a knob name")
        if (not isinstance(values, list) or not values or len(values) > MAX_DECLARED_VALUES
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in values)):
            raise ValueError(f"declared.{name} must be a list of 1 to {MAX_DECLARED_VALUES} integers")
        out[name] = sorted(set(values))
    return out


def _domain(kind: str, role: str, facts: KernelFacts | None, value: int) -> tuple[bool, int, int]:
    """(pow2, min, max) of a knob; widened to include the current value."""
    if kind == "block":
        # tl.dot needs >= 16; a name like BLOCK_N on a kernel without tl.dot (a row split
        # over a 2-D grid, say) is no tile of a dot and may need thousands
        if (facts is not None and facts.uses_dot) or (facts is None and role in ("block_m", "block_n", "block_k")):
            pow2, lo, hi = True, 16, 256
        elif facts is not None and len(facts.blocks) > 1:
            pow2, lo, hi = True, 1, 4096            # 2-D tiles: 2^20 elements at most per tensor
        else:
            pow2, lo, hi = True, 16, 65536
    elif kind == "num_warps":
        pow2, lo, hi = True, 1, 32
    elif kind == "num_stages":
        pow2, lo, hi = False, 1, 8
    elif kind in ("group", "split"):
        pow2, lo, hi = False, 1, 64
    else:
        pow2, lo, hi = False, 1, 65536
    return pow2, min(lo, value), max(hi, value)


def _double_star(prog: Program, site: LaunchSite) -> str | None:
    """Why a value the launch does not name cannot be given at it: `k[grid](..., **cfg)` may
    carry it among cfg's keys, and a keyword added beside would repeat it. None without **."""
    star = pyflow.double_star(site.call)
    if star is None or site.spread is not None:
        return None
    return (f"line {site.call.lineno}: the launch passes **{short(prog.text(star.value))}; a value it "
            "does not name may be among those keys, so it is not set at the launch")


def _insert_site(prog: Program, call: ast.Call, name: str) -> Site:
    """A keyword inserted after the last argument of a launch."""
    nodes: list[ast.AST] = list(call.args) + list(call.keywords)
    if nodes:
        last = max(nodes, key=lambda n: (getattr(n, "end_lineno", 0), getattr(n, "end_col_offset", 0)))
        pos = prog.index.span(last)[1]
        return Site("insert", pos, pos, name=name, lead=", ")
    pos = prog.index.span(call)[1] - 1
    return Site("insert", pos, pos, name=name, lead="")


@dataclass
class _GridLit:
    node: ast.Constant
    key: tuple
    numerator: str | None
    partners: list[tuple[ast.Constant, int]]
    function: str
    axis: int | None = None        # the grid element it sits in (program_id(axis)), when known


@dataclass
class _GridScan:
    storages: set = field(default_factory=set)
    meta: set = field(default_factory=set)
    literals: list[_GridLit] = field(default_factory=list)
    root: ast.expr | None = None


def _lit_key(node: ast.Constant) -> tuple:
    return ("lit", node.lineno, node.col_offset)


def _numerator(left: ast.expr, v: int) -> tuple[ast.expr, list[tuple[ast.Constant, int]]]:
    """For `(x + v - 1) // v` and `(x + (v-1)) // v`: (x, the literals to tie with their delta)."""
    partners: list[tuple[ast.Constant, int]] = []
    node = left
    while isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)) and pyflow.is_int_constant(
            node.right):
        c = node.right
        assert isinstance(c, ast.Constant)
        if isinstance(node.op, ast.Add) and c.value in (v - 1, v):
            partners.append((c, pyflow.ival(c) - v))
        elif not (isinstance(node.op, ast.Sub) and c.value == 1):
            break
        node = node.left
    return (node, partners) if partners else (left, [])


class _Builder:
    def __init__(self, prog: Program, launches: list[dict], tunables: dict[str, object]) -> None:
        self.prog = prog
        self.tunables = tunables
        self.facts = {name: kernelinfo.analyse(fn) for name, fn in prog.jit.items()}
        self.recorded = {r.get("kernel"): r for r in launches if isinstance(r, dict)}
        self.stores: dict[tuple, Knob] = {}
        self.frozen: list[Frozen] = []
        self.frozen_keys: set[tuple] = set()
        self.site_knobs: dict[int, dict[str, Knob]] = {}
        self.autotune: dict[str, AutotunePlan] = {}
        self.sites_of: dict[str, set[int]] = {}
        for s in prog.sites:
            self.sites_of.setdefault(s.kernel, set()).add(id(s))      # per call context

    # ------------------------------------------------------------ helpers
    def freeze(self, name: str, kernel: str, why: str, key: tuple | None = None) -> None:
        if key is not None:
            self.frozen_keys.add(key)
            self.stores.pop(key, None)
        if not any(f.name == name and f.kernel == kernel and f.why == why for f in self.frozen):
            self.frozen.append(Frozen(name, kernel, why))

    def recorded_values(self, site: LaunchSite, facts: KernelFacts) -> dict[str, dict]:
        rec = self.recorded.get(site.kernel) or {}
        last = rec.get("last") or {}
        out: dict[str, dict] = {}
        for i, desc in enumerate(last.get("args") or []):
            if i < len(facts.params) and isinstance(desc, dict):
                out[facts.params[i].name] = desc
        for k, desc in (last.get("kwargs") or {}).items():
            if isinstance(desc, dict):
                out[k] = desc
        return out

    def knob(self, key: tuple, name: str, kind: str, role: str, value: int, facts: KernelFacts | None,
             where: Where, sites: list[Site]) -> Knob:
        k = self.stores.get(key)
        if k is None:
            pow2, lo, hi = _domain(kind, role, facts, value)
            k = Knob("", name, kind, role, value, pow2, lo, hi, None, [], None, where, [], key, list(sites))
            self.stores[key] = k
        else:
            for s in sites:
                if s not in k.sites:
                    k.sites.append(s)
            if facts is not None and kind == k.kind:
                pow2, lo, hi = _domain(kind, role, facts, value)
                k.min, k.max, k.pow2 = max(k.min, lo), min(k.max, hi), k.pow2 or pow2
        if facts is not None and facts.name not in k.kernels:
            k.kernels.append(facts.name)
        return k

    def _bound(self, k: Knob, facts: KernelFacts, pname: str, rvals: dict[str, dict]) -> None:
        arg = facts.bounds.get(pname)
        if k.kind != "block" or k.bound is not None or arg is None:
            return
        desc = rvals.get(arg) or {}
        if desc.get("kind") == "int" and isinstance(desc.get("value"), int) and desc["value"] > 0:
            n = desc["value"]
            k.bound = KnobBound(arg, n, max(k.min, min(k.max, pyeval.next_pow2(n))))

    # ------------------------------------------------------------ launch sites
    def run(self) -> None:
        for site in self.prog.sites:
            if site.kernel in self.recorded:
                self.site(site)
        for site in self.prog.sites:
            if site.kernel in self.recorded:
                self.grid(site)
        for name in self.recorded:
            if name in self.facts:
                self.loop_stages(self.facts[name])

    def loop_stages(self, facts: KernelFacts) -> None:
        """A launched kernel's `tl.range(..., num_stages=<int>)` loops (kernelinfo's
        loop_stages): the loop's pipeline depth, which overrides the launch's num_stages for
        that loop (so sweeping the launch option leaves it as written). A knob of kind
        num_stages, role loop_stages, at the literal; nothing else reads it, so it has no
        coupling."""
        for call, lit in facts.loop_stages:
            where = Where("loop_literal", lit.lineno, facts.name, short(self.prog.text(call)))
            self.knob(("loop_stages", facts.name, lit.lineno, lit.col_offset), LOOP_STAGES_NAME,
                      "num_stages", "loop_stages", pyflow.ival(lit), facts, where,
                      [Site("literal", *self.prog.index.span(lit))])

    def site(self, site: LaunchSite) -> None:
        facts = self.facts[site.kernel]
        rvals = self.recorded_values(site, facts)
        mine = self.site_knobs.setdefault(id(site), {})
        unique = len(self.sites_of.get(site.kernel, ())) == 1
        star = _double_star(self.prog, site)
        for p in facts.params:
            if not p.constexpr:
                continue
            desc = rvals.get(p.name)
            if desc is not None and desc.get("kind") != "int":
                continue
            kind = facts.kinds.get(p.name, "int")
            if facts.autotune is not None and p.name in facts.autotune.keys:
                k = self.autotune_knob(site, facts, p.name, kind, desc)
                if k is not None:
                    mine[p.name] = k
                    self._bound(k, facts, p.name, rvals)
                continue
            expr = site.arg_for(facts.param_names, p.name)
            if expr is None and star is not None:
                self.freeze(p.name, site.kernel, star)
                continue
            if expr is None:
                if p.name in facts.heuristics:
                    if kind in SWEPT_KINDS:
                        self.freeze(p.name, site.kernel, f"line {p.node.lineno}: {p.name} is set by @triton.heuristics")
                    continue
                if pyflow.is_int_constant(p.default):
                    key = ("kdef", site.kernel, p.name)
                    if key in self.frozen_keys:
                        continue
                    where = Where("kernel_default", p.node.lineno, site.kernel,
                                  short(f"{self.prog.text(p.node)} = {self.prog.text(p.default)}"))
                    k = self.knob(key, p.name, kind, facts.roles.get(p.name, kind), pyflow.ival(p.default), facts, where,
                                  [_insert_site(self.prog, site.call, p.name)])
                    mine[p.name] = k
                    self._bound(k, facts, p.name, rvals)
                continue
            kw = site.keyword(p.name)
            o = pyflow.origin(expr, site.env, holder=kw if kw is not None else expr)
            k = self.use(site, facts, p.name, kind, facts.roles.get(p.name, kind), o, desc, unique)
            if k is not None:
                mine[p.name] = k
                self._bound(k, facts, p.name, rvals)
        last = (self.recorded.get(site.kernel) or {}).get("last") or {}
        for opt, default in OPTION_DEFAULTS.items():
            desc = (last.get("kwargs") or {}).get(opt)
            if facts.autotune is not None:
                self.autotune_knob(site, facts, opt, opt, desc)
                continue
            kw = site.keyword(opt)
            if kw is None and star is not None:
                self.freeze(opt, site.kernel, star)
            elif kw is None:
                mkey: tuple = ("missing", site.call.lineno, site.call.col_offset, opt)
                if mkey in self.frozen_keys:
                    continue
                value = desc["value"] if isinstance(desc, dict) and desc.get("kind") == "int" else default
                where = Where("launch_missing", site.line, site.function, short(self.prog.text(site.call)))
                self.knob(mkey, opt, opt, opt, value, facts, where, [_insert_site(self.prog, site.call, opt)])
            else:
                o = pyflow.origin(kw.value, site.env, holder=kw)
                if not (isinstance(o, pyflow.Computed) and self.computed_option(site, facts, opt, kw, desc, unique)):
                    self.use(site, facts, opt, opt, opt, o, desc, unique)

    def computed_option(self, site: LaunchSite, facts: KernelFacts, opt: str, kw: ast.keyword,
                        desc: dict | None, unique: bool) -> bool:
        """`num_warps=<expression>` computed at run time: a knob whose value is the one the
        launch received and whose change replaces the expression by a literal. Unlike a
        block size, a launch option sizes nothing else (no grid, no mask, no result), so the
        value can be fixed without breaking a coupling; only the kernel's only launch site
        qualifies (two sites would share one id)."""
        if not unique or not isinstance(desc, dict) or desc.get("kind") != "int":
            return False
        value = desc.get("value")
        if not isinstance(value, int) or isinstance(value, bool):
            return False
        key: tuple = ("computed", kw.value.lineno, kw.value.col_offset, opt)
        text = short(self.prog.text(kw))
        where = Where("launch_computed", kw.value.lineno, site.function, text)
        k = self.knob(key, opt, opt, opt, value, facts, where, [Site("literal", *self.prog.index.span(kw.value))])
        if not any(c.what == "computed" for c in k.coupled):
            k.coupled.append(Coupling(kw.value.lineno, "computed", text, "the expression is replaced by the value"))
        return True

    def use(self, site: LaunchSite, facts: KernelFacts, pname: str, kind: str, role: str, o: Origin,
            desc: dict | None, unique: bool) -> Knob | None:
        """The knob behind one launch argument (None when it is not one)."""
        recorded = desc.get("value") if isinstance(desc, dict) and desc.get("kind") == "int" else None
        if isinstance(o, Computed):
            if kind in SWEPT_KINDS:
                what = f" `{o.text}`" if o.text and o.text not in o.why else ""
                self.freeze(pname, site.kernel, f"line {o.line}:{what} {o.why}")
            return None
        if o.key in self.frozen_keys:
            return None
        placed = self.placed(o, recorded)
        if placed is None:
            if kind in SWEPT_KINDS:
                assert isinstance(o, Ctor)
                self.freeze(pname, site.kernel, f"line {o.node.lineno}: constructor parameter {o.param} has "
                                                "no integer default and no tunable value", o.key)
            return None
        value, where, sites = placed
        prog = self.prog
        if unique and isinstance(recorded, int) and recorded != value:
            self.freeze(pname, site.kernel, f"line {where.line}: the source gives {pname} = {value} but the launch "
                                            f"received {recorded}", o.key)
            return None
        existed = o.key in self.stores
        k = self.knob(o.key, pname, kind, role, value, facts, where, sites)
        if existed:
            kw = site.keyword(pname)
            k.coupled.append(Coupling(site.line, "launch", short(prog.text(kw) if kw is not None else
                                                                 prog.text(site.call)), "shared variable"))
        return k

    def placed(self, o: Lit | Ctor, recorded: object) -> tuple[int, Where, list[Site]] | None:
        """(value, where, sites) of a value that lives in the source or the constructor."""
        prog = self.prog
        if isinstance(o, Lit):
            holder = o.holder
            text = f"{prog.text(holder)}={prog.text(o.node)}" if isinstance(holder, ast.arg) else prog.text(holder)
            return (pyflow.ival(o.node), Where(o.via, o.node.lineno, o.function, short(text)),
                    [Site("literal", *prog.index.span(o.node))])
        tv = self.tunables.get(o.param)
        if isinstance(tv, int) and not isinstance(tv, bool):
            value = tv
        elif pyflow.is_int_constant(o.default):
            value = pyflow.ival(o.default)
        elif isinstance(recorded, int) and not isinstance(recorded, bool):
            value = recorded
        else:
            return None
        dtext = f"={prog.text(o.default)}" if o.default is not None else ""
        where = Where("ctor_default", o.node.lineno, f"{pyflow.MODEL_CLASS}.__init__",
                      short(f"{prog.text(o.node)}{dtext}"))
        return value, where, [Site("tunable", name=o.param)]

    def program_counts(self, site: LaunchSite, facts: KernelFacts, gline: int, gtext: str) -> None:
        """A grid axis set by a value of the source (`k[(NUM_PROGS,)]`) is a knob (kind int, role
        programs) when the kernel can run with any number of programs on that axis: it reads
        tl.num_programs(axis) or receives the same value as an argument."""
        elems = self.grid_elements(site)
        if elems is None:
            return
        elts, env = elems
        runtime = set()
        for p in facts.params:
            expr = site.arg_for(facts.param_names, p.name)
            if expr is not None and not p.constexpr:
                o = pyflow.origin(expr, site.env)
                if isinstance(o, (Lit, Ctor)):
                    runtime.add(o.key)
        for axis, elem in enumerate(elts):
            o = pyflow.origin(elem, env)
            if not isinstance(o, (Lit, Ctor)) or o.key in self.stores or o.key in self.frozen_keys:
                continue
            if axis not in facts.num_programs_axes and o.key not in runtime:
                continue
            placed = self.placed(o, None)
            if placed is None:
                continue
            value, where, sites = placed
            if isinstance(o, Lit) and o.via == "launch_literal":
                where.via = "grid_literal"
            name = elem.id if isinstance(elem, ast.Name) else (
                elem.attr if isinstance(elem, ast.Attribute) else f"grid_{axis}")
            k = self.knob(o.key, name, "int", "programs", value, facts, where, sites)
            k.coupled.append(Coupling(gline, "grid", gtext, f"sets the number of programs on axis {axis}"))

    def grid_elements(self, site: LaunchSite) -> tuple[list[ast.expr], Env] | None:
        """The axis expressions of a launch's grid when it is a tuple (through local names)."""
        env = site.env
        node: ast.expr = site.grid
        for _ in range(pyflow.MAX_RESOLVE_DEPTH):
            if not isinstance(node, ast.Name):
                break
            b = env.lookup(node.id)
            if not isinstance(b, pyflow.Bound):
                return None
            node, env = b.expr, b.env
        if isinstance(node, (ast.Tuple, ast.List)):
            return list(node.elts), env
        return None

    def autotune_knob(self, site: LaunchSite, facts: KernelFacts, name: str, kind: str,
                      desc: dict | None) -> Knob | None:
        at = facts.autotune
        assert at is not None
        if isinstance(desc, dict) and desc.get("kind") == "int":
            value = desc["value"]
        elif name in OPTION_DEFAULTS:
            value = OPTION_DEFAULTS[name]
        else:
            return None
        key = ("autotune", site.kernel, name)
        prog = self.prog
        start, end = prog.index.span(at.configs_expr)
        if site.kernel not in self.autotune:
            self.autotune[site.kernel] = AutotunePlan(site.kernel, start, end, at.config_func, list(at.keys),
                                                      self._chosen_config(site, facts))
        text = short(prog.text(at.configs_expr))
        where = Where("autotune", at.decorator.lineno, site.kernel, text)
        role = facts.roles.get(name, kind)
        existed = key in self.stores
        k = self.knob(key, name, kind, role, value, facts, where, [Site("autotune", start, end, name=site.kernel)])
        if not existed:
            k.coupled.append(Coupling(at.decorator.lineno, "autotune", text,
                                      "the configs list is replaced by one triton.Config; the other keys keep "
                                      "their recorded values"))
        return k

    def _chosen_config(self, site: LaunchSite, facts: KernelFacts) -> ast.Call | None:
        """The autotune config whose values the recorded launch received."""
        at = facts.autotune
        assert at is not None
        rvals = self.recorded_values(site, facts)
        for cfg in at.configs:
            want = dict(OPTION_DEFAULTS)
            want.update(cfg.values)
            if all((rvals.get(key) or {}).get("value", OPTION_DEFAULTS.get(key)) == v for key, v in want.items()):
                return cfg.node
        return None

    # ------------------------------------------------------------ grids
    def scan_grid(self, node: ast.expr, env: Env, out: _GridScan, numerator: str | None, meta: set[str],
                  depth: int = 0, axis: int | None = None) -> None:
        if depth > pyflow.MAX_RESOLVE_DEPTH:
            return
        rec = lambda n, e=env, num=None, m=meta: self.scan_grid(n, e, out, num, m, depth + 1, axis)
        if out.root is None and not isinstance(node, ast.Name):
            out.root = node
        if isinstance(node, ast.Tuple) and axis is None:
            # the grid's own tuple: element i sizes program_id(i), and so do its literals
            for i, el in enumerate(node.elts):
                first = len(out.literals)
                self.scan_grid(el, env, out, None, meta, depth + 1, i)
                for lit in out.literals[first:]:
                    lit.axis = i
            return
        if pyflow.is_int_constant(node):
            if numerator is not None:
                out.literals.append(_GridLit(node, _lit_key(node), numerator, [], env.function))
            return
        if isinstance(node, ast.Name):
            if node.id in meta:
                return
            b = env.lookup(node.id)
            if isinstance(b, pyflow.Bound):
                if pyflow.is_int_constant(b.expr):
                    out.storages.add(_lit_key(b.expr))
                    if numerator is not None:
                        out.literals.append(_GridLit(b.expr, _lit_key(b.expr), numerator, [], b.function))
                    return
                rec(b.expr, b.env, numerator)
            return
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"
                and env.in_model):
            o = pyflow.origin(node, env)
            if isinstance(o, (Lit, Ctor)):
                out.storages.add(o.key)
                if isinstance(o, Lit) and numerator is not None:
                    out.literals.append(_GridLit(o.node, o.key, numerator, [], o.function))
            return
        if isinstance(node, ast.Call) and pyflow.dotted(node.func) in pyflow.CDIV_NAMES and len(node.args) == 2:
            rec(node.args[0])
            rec(node.args[1], env, pyflow.canon(node.args[0], env))
            return
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.FloorDiv, ast.Div)):
            if pyflow.is_int_constant(node.right):
                x, partners = _numerator(node.left, pyflow.ival(node.right))
                rec(x)
                out.literals.append(_GridLit(node.right, _lit_key(node.right), pyflow.canon(x, env), partners,
                                             env.function))
                return
            rec(node.left)
            rec(node.right, env, pyflow.canon(node.left, env))
            return
        if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in meta
                and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
            out.meta.add(node.slice.value)
            return
        if isinstance(node, ast.Lambda):
            names = {a.arg for a in node.args.args}
            rec(node.body, env, None, meta | names)
            return
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                rec(child)

    def known(self, site: LaunchSite, facts: KernelFacts) -> tuple[dict[str, object], dict[str, object]]:
        """(canonical launch argument -> recorded value, meta dict the grid function would get)."""
        known: dict[str, object] = {}
        meta: dict[str, object] = {}
        for p in facts.params:
            if pyflow.is_int_constant(p.default):
                meta[p.name] = p.default.value
        for name, desc in self.recorded_values(site, facts).items():
            try:
                v = pyeval.describe_value(desc)
            except Unevaluable:
                continue
            meta[name] = v
            expr = site.arg_for(facts.param_names, name)
            if expr is not None:
                known[pyflow.canon(expr, site.env)] = v
        return known, meta

    def recompute(self, site: LaunchSite, facts: KernelFacts, grid: ast.expr, env: Env) -> str | None:
        """None when `grid` evaluated on the recorded values gives the recorded grid, else why not."""
        recorded = (self.recorded.get(site.kernel) or {}).get("last", {}).get("grid")
        if not isinstance(recorded, list):
            return "no recorded grid"
        known, meta = self.known(site, facts)
        try:
            v = pyeval.evaluate(grid, env, known)
            if isinstance(v, pyeval.LambdaValue):
                args = v.node.args.args
                v = pyeval.evaluate(v.node.body, v.env, known, {args[0].arg: meta} if args else {})
        except Unevaluable as e:
            return f"cannot recompute the grid ({e})"
        if not isinstance(v, tuple) or not all(isinstance(x, int) for x in v):
            return "the grid is not a tuple of integers"
        pad = lambda t: list(t) + [1] * (3 - len(t))
        if pad(v) != pad(recorded):
            return f"the grid recomputes to {list(v)}, not the recorded {recorded}"
        return None

    def grid(self, site: LaunchSite) -> None:
        facts = self.facts[site.kernel]
        mine = {p: k for p, k in self.site_knobs.get(id(site), {}).items() if k.storage in self.stores}
        scan = _GridScan()
        self.scan_grid(site.grid, site.env, scan, None, set())
        root = scan.root if scan.root is not None else site.grid
        gline = getattr(root, "lineno", site.line)
        gtext = short(self.prog.text(root)) if hasattr(root, "lineno") else ""
        self.program_counts(site, facts, gline, gtext)
        for p, k in mine.items():
            if k.storage in scan.storages:
                k.coupled.append(Coupling(gline, "grid", gtext, "shared variable"))
            elif p in scan.meta:
                k.coupled.append(Coupling(gline, "grid", gtext, f"the grid reads meta[{p!r}]"))
        in_grid = {k.storage for p, k in mine.items() if k.storage in scan.storages or p in scan.meta}
        ties: list[tuple[_GridLit, Knob]] = []
        ambiguous: list[tuple[_GridLit, list[tuple[str, Knob]]]] = []
        for lit in scan.literals:
            if lit.key in self.stores or lit.key in self.frozen_keys:
                continue
            cands = [(p, k) for p, k in mine.items()
                     if k.kind in TIE_KINDS and k.value == pyflow.ival(lit.node) and k.storage not in in_grid]
            # the knob whose mask bound is the dividend's extent first (`cdiv(M, 16)` is
            # BLOCK_M's when `offs_m < M`), then those tiling a program axis: a grid divides
            # the extent of a tiled axis
            if len(cands) > 1 and lit.numerator is not None:
                narrowed = [(p, k) for p, k in cands if self._numerator_matches(site, facts, p, lit.numerator)]
                if len(narrowed) == 1:
                    cands = narrowed
            tiling = {b for blocks in facts.axis_blocks.values() for b in blocks}
            if len(cands) > 1 and any(p in tiling for p, _ in cands):
                cands = [(p, k) for p, k in cands if p in tiling]
            # then the block that tiles the program axis the literal's grid element sizes
            # (`(cdiv(M, 32), cdiv(N, 32))` with `pm * BM` on program_id(0): BM's, where no
            # mask names the extents, as with block pointers)
            if len(cands) > 1 and lit.axis is not None:
                on_axis = [(p, k) for p, k in cands if p in facts.axis_blocks.get(lit.axis, [])]
                if len(on_axis) == 1:
                    cands = on_axis
            if len(cands) == 1:
                ties.append((lit, cands[0][1]))
            elif cands:
                ambiguous.append((lit, cands))
        if not ties and not ambiguous:
            return
        problem = self.recompute(site, facts, site.grid, site.env)
        if problem is None and not ambiguous:
            for lit, k in ties:
                self.tie(site, lit, k, gline, gtext)
            return
        involved = [k for _, k in ties] + [k for _, c in ambiguous for _, k in c]
        lam = self.lambda_grid(site, facts, {id(lit.node) for lit, _ in ties} | {id(lit.node) for lit, _ in ambiguous})
        if lam is not None:
            start, end = self.prog.index.span(site.grid)
            for k in involved:
                if Site("fixed", start, end, text=lam) not in k.sites:
                    k.sites.append(Site("fixed", start, end, text=lam))
                    k.coupled.append(Coupling(site.line, "grid", gtext,
                                              f"the grid is rewritten to `{short(lam)}` on a change"))
            return
        for lit, cands in ambiguous:
            names = " and ".join(p for p, _ in cands)
            for p, k in cands:
                self.freeze(p, site.kernel, f"line {lit.node.lineno}: grid literal {pyflow.ival(lit.node)} matches {names}; "
                                            "cannot tell which", k.storage)
        for lit, k in ties:
            self.freeze(k.name, site.kernel, f"line {lit.node.lineno}: grid literal {pyflow.ival(lit.node)} repeats "
                                             f"{k.name} but {problem or 'the grid cannot be rewritten'}", k.storage)

    def _numerator_matches(self, site: LaunchSite, facts: KernelFacts, pname: str, numerator: str) -> bool:
        arg = facts.bounds.get(pname)
        expr = site.arg_for(facts.param_names, arg) if arg else None
        return expr is not None and pyflow.canon(expr, site.env) == numerator

    def tie(self, site: LaunchSite, lit: _GridLit, k: Knob, gline: int, gtext: str) -> None:
        index = self.prog.index
        ctor_text = None
        if k.storage[0] == "ctor" and lit.function.startswith(pyflow.MODEL_CLASS + "."):
            attr = next((a for a, b in self.prog.attrs.items() if isinstance(b, pyflow.Bound)
                         and isinstance(b.expr, ast.Name) and b.expr.id == k.storage[1]), None)
            ctor_text = f"self.{attr}" if attr else None
        for node, delta in [(lit.node, 0)] + lit.partners:
            start, end = index.span(node)
            if ctor_text is not None:
                k.sites.append(Site("fixed", start, end, text=ctor_text + (f" - {-delta}" if delta else "")))
            else:
                k.sites.append(Site("literal", start, end, delta=delta))
        k.coupled.append(Coupling(lit.node.lineno, "grid", gtext,
                                  f"grid literal {pyflow.ival(lit.node)} tied to the knob (the grid recomputed from the "
                                  "recorded arguments equals the recorded grid)"))

    def lambda_grid(self, site: LaunchSite, facts: KernelFacts, lits: set[int]) -> str | None:
        """`lambda meta: (...)` for the launch's grid, each axis holding a tied or ambiguous
        literal derived from the kernel (`pid * BLOCK` with mask `offs < n`: cdiv(n, BLOCK)),
        the others kept; None unless it recomputes to the recorded grid."""
        prog = self.prog
        cdiv = prog.cdiv_name
        recorded = (self.recorded.get(site.kernel) or {}).get("last", {}).get("grid")
        if cdiv is None or not isinstance(recorded, list):
            return None
        found = self.grid_elements(site)
        elems, env = found if found is not None else (None, site.env)
        axes: list[str] = []
        for i in range(len(recorded)):
            elem = elems[i] if elems is not None and i < len(elems) else None
            has_lit = elem is None or any(id(n) in lits for n in self._grid_constants(elem, env))
            if not has_lit and elem is not None:
                text = prog.text(elem)
                try:
                    again = ast.parse(text, mode="eval").body
                except SyntaxError:
                    return None
                if pyflow.canon(again, site.env) != pyflow.canon(elem, env):
                    return None
                axes.append(text)
                continue
            blocks = facts.axis_blocks.get(i, [])
            if len(blocks) != 1 or blocks[0] not in facts.bounds:
                return None
            n_expr = site.arg_for(facts.param_names, facts.bounds[blocks[0]])
            if n_expr is None:
                return None
            axes.append(f"{cdiv}({prog.text(n_expr)}, {META}[{blocks[0]!r}])")
        text = f"lambda {META}: ({', '.join(axes)}{',' if len(axes) == 1 else ''})"
        lam = ast.parse(text, mode="eval").body
        if self.recompute(site, facts, lam, site.env) is not None:
            return None
        return text

    def _grid_constants(self, node: ast.expr, env: Env, depth: int = 0) -> list[ast.Constant]:
        """Integer constants an expression reads, through local names."""
        out: list[ast.Constant] = []
        if depth > pyflow.MAX_RESOLVE_DEPTH:
            return out
        for sub in ast.walk(node):
            if pyflow.is_int_constant(sub):
                out.append(sub)
            elif isinstance(sub, ast.Name):
                b = env.lookup(sub.id)
                if isinstance(b, pyflow.Bound):
                    out += self._grid_constants(b.expr, b.env, depth + 1)
        return out

    # ------------------------------------------------------------ declared tunables, ids, kernels
    def apply_declared(self, declared: dict[str, list[int]]) -> None:
        for name, values in declared.items():
            hits = [k for k in self.stores.values() if k.name == name or k.id == name]
            if not hits:
                kind = name if name in OPTION_DEFAULTS else ("block" if "BLOCK" in name.upper() else "int")
                tv = self.tunables.get(name)
                value = tv if isinstance(tv, int) and not isinstance(tv, bool) else values[0]
                pow2, lo, hi = _domain(kind, kind, None, value)
                k = Knob("", name, kind, kind, value, pow2 and all(v & (v - 1) == 0 for v in values), lo, hi, None,
                         [], None, Where("declared", 0, "", "tunables"), [], ("declared", name),
                         [Site("tunable", name=name)])
                self.stores[("declared", name)] = k
                hits = [k]
            for k in hits:
                k.choices = list(values)
                k.min, k.max = min(k.min, values[0]), max(k.max, values[-1])

    def assign_ids(self) -> None:
        by_name: dict[str, list[Knob]] = {}
        for k in self.stores.values():
            by_name.setdefault(k.name, []).append(k)
        used: set[str] = set()
        for name, ks in by_name.items():
            for k in ks:
                kid = name if len(ks) == 1 else f"{k.kernels[0] if k.kernels else 'model'}.{name}"
                if kid in used:
                    kid = f"{kid}@{k.where.line}"
                used.add(kid)
                k.id = kid

    def kernel_records(self) -> list[KernelRecord]:
        out: list[KernelRecord] = []
        for name, rec in self.recorded.items():
            facts = self.facts.get(name) if isinstance(name, str) else None
            if facts is None or name is None or not isinstance(rec, dict):
                continue
            last = rec.get("last") or {}
            constexprs: dict[str, object] = {}
            options = dict(OPTION_DEFAULTS)
            for p in facts.params:
                if p.constexpr and pyflow.is_int_constant(p.default):
                    constexprs[p.name] = p.default.value
            for i, desc in enumerate(last.get("args") or []):
                if i < len(facts.params) and facts.params[i].constexpr and isinstance(desc, dict):
                    constexprs[facts.params[i].name] = desc.get("value", desc.get("name"))
            for k, desc in (last.get("kwargs") or {}).items():
                if not isinstance(desc, dict):
                    continue
                if k in OPTION_DEFAULTS and isinstance(desc.get("value"), int):
                    options[k] = desc["value"]
                elif (q := facts.param(k)) is not None and q.constexpr:
                    constexprs[k] = desc.get("value", desc.get("name"))
            out.append(KernelRecord(name, int(rec.get("launches") or 0), constexprs, options, last.get("grid"),
                                    facts.to_json(), facts.autotune is not None))
        return out


def parse_changes(changes: object) -> dict[str, int]:
    """Checks a change set's shape: {knob id: integer}."""
    if not isinstance(changes, dict):
        raise RewriteRefused("changes must be an object of knob id -> integer")
    out: dict[str, int] = {}
    for k, v in changes.items():
        if not isinstance(k, str):
            raise RewriteRefused("changes: knob ids are strings")
        if not isinstance(v, int) or isinstance(v, bool):
            raise RewriteRefused(f"changes.{k}: {v!r} is not an integer")
        out[k] = v
    return out
