"""The records of knob discovery (kharness.knobs): a knob (where it lives, what it is coupled
to, the syntax-tree spans a change rewrites), a frozen launch parameter and why, each
kernel's recorded launch, an autotuned kernel's rewrite plan, and the discovery that holds
them. kharness.rewrite applies change sets to them; the `knobs` op returns their JSON."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field


@dataclass
class Where:
    via: str
    line: int
    function: str
    text: str


@dataclass
class Coupling:
    line: int
    what: str
    text: str
    how: str


@dataclass
class KnobBound:
    arg: str
    value: int
    max_useful: int


@dataclass
class Site:
    """One span a change rewrites. kind: literal (the value, plus delta), insert (a keyword
    `name=value` at a launch), fixed (constant text), tunable (a constructor keyword, source
    untouched), autotune (the configs list of kernel `name`)."""

    kind: str
    start: int = 0
    end: int = 0
    name: str = ""
    delta: int = 0
    text: str = ""
    lead: str = ""


@dataclass
class Knob:
    id: str
    name: str
    kind: str
    role: str
    value: int
    pow2: bool
    min: int
    max: int
    choices: list[int] | None
    kernels: list[str]
    bound: KnobBound | None
    where: Where
    coupled: list[Coupling] = field(default_factory=list)
    storage: tuple = ()
    sites: list[Site] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "kind": self.kind, "role": self.role, "value": self.value,
                "pow2": self.pow2, "min": self.min, "max": self.max, "choices": self.choices,
                "kernels": list(self.kernels),
                "bound": None if self.bound is None else vars(self.bound).copy(),
                "where": vars(self.where).copy(), "coupled": [vars(c).copy() for c in self.coupled]}


@dataclass
class Frozen:
    name: str
    kernel: str
    why: str

    def to_json(self) -> dict:
        return {"name": self.name, "kernel": self.kernel, "why": self.why}


@dataclass
class KernelRecord:
    name: str
    launches: int
    constexprs: dict[str, object]
    options: dict[str, int]
    grid: list[int] | None
    facts: dict
    autotune: bool

    def to_json(self) -> dict:
        d = {"name": self.name, "launches": self.launches, "constexprs": self.constexprs,
             "options": self.options, "grid": self.grid}
        d.update(self.facts)
        d["autotune"] = self.autotune
        return d


@dataclass
class AutotunePlan:
    """How a change rewrites one autotuned kernel: its configs expression becomes a list of
    one config; `chosen` is the config the launch used (kept as written, values edited)."""

    kernel: str
    start: int
    end: int
    func: str
    keys: list[str]
    chosen: ast.Call | None
    chosen_start: int = 0


@dataclass
class Discovery:
    source: str
    tunables: dict[str, object]
    knobs: list[Knob]
    frozen: list[Frozen]
    kernels: list[KernelRecord]
    autotune: dict[str, AutotunePlan] = field(default_factory=dict)
    # the source the knobs' sites are in: `source` after normalize.name_kernel_attributes and
    # lift_constexpr_globals
    # (the same text when that does not apply); a change set edits it
    base: str = ""

    def __post_init__(self) -> None:
        self.base = self.base or self.source

    def knob(self, knob_id: str) -> Knob | None:
        for k in self.knobs:
            if k.id == knob_id:
                return k
        return None

    def to_json(self) -> dict:
        return {"knobs": [k.to_json() for k in self.knobs], "frozen": [f.to_json() for f in self.frozen],
                "kernels": [k.to_json() for k in self.kernels]}
