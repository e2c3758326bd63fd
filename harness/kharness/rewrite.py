"""Change sets: a candidate module from the incumbent's source, its discovered knobs and
{knob id: new value} (docs/SEARCH.md, `rewrite`).

Every edit is a span the discovery took from the syntax tree (kharness.knobrec.Site): the
literal that holds the value and every grid literal tied to it, a keyword added at a launch,
a grid rewritten to `lambda meta: ...`, or an autotune configs list replaced by one config.
Constructor knobs change through the returned `tunables` and leave the source as it is.
Anything that cannot be written exactly is refused with the reason (srcedit.RewriteRefused),
never approximated."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from .knobrec import AutotunePlan, Discovery, Knob, Where
from .knobs import OPTION_DEFAULTS, parse_changes
from .srcedit import Edit, LineIndex, RewriteRefused, apply_edits, check_parses


@dataclass
class Applied:
    id: str
    from_: int
    to: int
    where: Where

    def to_json(self) -> dict:
        return {"id": self.id, "from": self.from_, "to": self.to, "where": vars(self.where).copy()}


@dataclass
class Result:
    source: str
    tunables: dict[str, object]
    applied: list[Applied] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"source": self.source, "tunables": dict(self.tunables),
                "applied": [a.to_json() for a in self.applied]}


def _check_value(k: Knob, v: int) -> None:
    where = f"{k.where.via} at line {k.where.line}" if k.where.line else k.where.via
    if k.choices is not None and v not in k.choices:
        raise RewriteRefused(f"knob {k.id} ({where}): {v} is not one of its declared values {k.choices}")
    if not k.min <= v <= k.max:
        raise RewriteRefused(f"knob {k.id} ({where}): {v} is outside its domain [{k.min}, {k.max}]")
    if k.pow2 and (v <= 0 or v & (v - 1)):
        raise RewriteRefused(f"knob {k.id} ({where}): {v} is not a power of two (a {k.kind} must be)")


def apply_changes(source: str, discovery: Discovery, changes: object) -> Result:
    """The candidate for `changes` ({knob id: value}); raises RewriteRefused with the reason."""
    if source != discovery.source:
        raise RewriteRefused("the knobs were discovered on another source; discover the knobs of this one")
    base = discovery.base       # the knobs' sites are in it; the candidate is made from it
    wanted = parse_changes(changes)
    tunables = dict(discovery.tunables)
    result = Result(source, tunables)
    edits: list[tuple[Edit, str]] = []
    inserts: dict[int, list[tuple[str, str]]] = {}
    autotune: dict[str, dict[str, int]] = {}
    for kid, v in wanted.items():
        k = discovery.knob(kid)
        if k is None:
            frozen = [f for f in discovery.frozen if f.name == kid or f"{f.kernel}.{f.name}" == kid]
            if frozen:
                raise RewriteRefused(f"knob {kid} is frozen: {frozen[0].why}")
            known = ", ".join(x.id for x in discovery.knobs) or "none"
            raise RewriteRefused(f"unknown knob {kid!r}; the knobs of this source are: {known}")
        _check_value(k, v)
        if v == k.value:
            continue
        result.applied.append(Applied(k.id, k.value, v, k.where))
        for s in k.sites:
            if s.kind == "literal":
                edits.append((Edit(s.start, s.end, str(v + s.delta)), k.id))
            elif s.kind == "fixed":
                edits.append((Edit(s.start, s.end, s.text), k.id))
            elif s.kind == "insert":
                inserts.setdefault(s.start, []).append((f"{s.lead}{s.name}={v}", k.id))
            elif s.kind == "tunable":
                tunables[s.name] = v
            elif s.kind == "autotune":
                autotune.setdefault(s.name, {})[k.name] = v
            else:
                raise RewriteRefused(f"knob {k.id}: unknown edit kind {s.kind}")
    for kernel, values in autotune.items():
        plan = discovery.autotune[kernel]
        current = {k.name: k.value for k in discovery.knobs
                   if any(s.kind == "autotune" and s.name == kernel for s in k.sites)}
        current.update(values)
        text = "[" + _config_text(base, plan, current) + "]"
        edits.append((Edit(plan.start, plan.end, text), f"the autotune configs of {kernel}"))
    for pos, items in inserts.items():
        seen: list[str] = []
        for text, _ in items:
            if text not in seen:
                seen.append(text)
        edits.append((Edit(pos, pos, "".join(seen)), " and ".join(sorted({kid for _, kid in items}))))
    _refuse_overlaps(base, edits)
    out = apply_edits(base, [e for e, _ in edits]) if edits else source
    check_parses(out)
    result.source = out
    return result


def _overlap(a: Edit, b: Edit) -> bool:
    if a.start == a.end and b.start == b.end:
        return a.start == b.start
    if a.start == a.end:
        return b.start < a.start < b.end
    if b.start == b.end:
        return a.start < b.start < a.end
    return max(a.start, b.start) < min(a.end, b.end)


def _refuse_overlaps(source: str, edits: list[tuple[Edit, str]]) -> None:
    """Two changes that would rewrite the same text differently break a coupling."""
    for i, (a, who_a) in enumerate(edits):
        for b, who_b in edits[i + 1:]:
            if a != b and _overlap(a, b):
                line = source.count("\n", 0, min(a.start, b.start)) + 1
                raise RewriteRefused(f"line {line}: {who_a} and {who_b} would rewrite the same source text "
                                     "differently; they are coupled and must change together")


def _config_text(source: str, plan: AutotunePlan, values: dict[str, int]) -> str:
    """One triton.Config with `values`: the config the launch used with its values edited
    (keeping anything else it sets), or a new one when the configs were not a literal list."""
    if plan.chosen is None:
        kw = ", ".join(f"{k!r}: {values[k]}" for k in plan.keys if k in values)
        opts = ", ".join(f"{o}={values.get(o, d)}" for o, d in OPTION_DEFAULTS.items())
        return f"{plan.func}({{{kw}}}, {opts})"
    node = plan.chosen
    index = LineIndex(source)
    base, end = index.span(node)
    edits: list[Edit] = []
    first = node.args[0] if node.args else next((kw.value for kw in node.keywords if kw.arg == "kwargs"), None)
    assert isinstance(first, ast.Dict)
    for key, val in zip(first.keys, first.values):
        if isinstance(key, ast.Constant) and key.value in values:
            a, b = index.span(val)
            edits.append(Edit(a - base, b - base, str(values[key.value])))
    present = {kw.arg: kw for kw in node.keywords}
    positional = {("num_warps", "num_stages")[i]: a for i, a in enumerate(node.args[1:3])}
    tail: list[str] = []
    for opt in OPTION_DEFAULTS:
        if opt not in values:
            continue
        holder = present[opt].value if opt in present else positional.get(opt)
        if holder is not None:
            a, b = index.span(holder)
            edits.append(Edit(a - base, b - base, str(values[opt])))
        elif values[opt] != OPTION_DEFAULTS[opt]:
            tail.append(f", {opt}={values[opt]}")
    if tail:
        last = max(list(node.args) + [kw.value for kw in node.keywords],
                   key=lambda n: (n.end_lineno or 0, n.end_col_offset or 0))
        pos = index.span(last)[1] - base
        edits.append(Edit(pos, pos, "".join(tail)))
    return apply_edits(source[base:end], edits)
