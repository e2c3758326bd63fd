"""The operator suite's descriptions: bench/suite/ops/<name>/{ref.py, kernel.py, op.json}.

op.json (checked by `load_op`; every error names the operator, the field and the rule):

    name            the directory's name
    class           elementwise | reduction | norm | softmax | gather | fused | matmul
    description     what it computes
    dtype           the main floating dtype
    sizes           {"full": {SYMBOL: int, ...}, "small": {...}}: the GPU sizes and the CPU
                    interpreter's (ref.py picks one: KOPT_SUITE_SCALE, else small under
                    TRITON_INTERPRET=1, else full)
    inputs          [{"name", "shape": [expr, ...], "dtype"}]: what get_inputs() returns
    parameters      optional, the same form: module parameters read by the kernel
    outputs         the same form: what forward returns
    updates         optional, names of inputs forward updates in place (an optimizer step): the
                    harness judges them after the outputs (harness/PROTOCOL.md, validate)
    bytes           "io" (every input, parameter and output once, and the updated inputs
                    written once more) or an expression
    flops           an expression ("0" for memory-bound operators)
    initial_kernel  how the initial kernel is written
    notes           optional
    tolerances      optional, the judge's tolerances for this operator's jobs and baselines
                    (the job field of docs/API.md), e.g. {"int8": {"atol": 1, "max_fraction":
                    0.001}} for a quantised output that a GPU's approximate division may round
                    to the neighbouring integer at ties

ref.py defines Model (the correctness truth: what every implementation is judged against) and
may define Peer, the same computation as PyTorch a user would run in production at the
operator's dtype, where Model computes in a wider type (an fp16 GEMM that Model does in
float32 would otherwise time eager and torch.compile on the CUDA cores, not the tensor cores).
baselines.py times eager and torch.compile of Peer where there is one (checked against Model's
truth like every other implementation) and records which class it timed; report.py compares
kopt only with baselines of that class.

Expressions are integer arithmetic over the size symbols (+ - * // parentheses, integer
literals), evaluated with the `ast` module, never `eval`. The roofline bound of an operator is
max(bytes / measured copy bandwidth, flops / measured peak tensor throughput) (flops only for
class matmul); tests check the declared shapes against what ref.py really builds.
"""
from __future__ import annotations

import argparse
import ast
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SUITE_DIR = Path(__file__).resolve().parent
# The operators the tools read: the suite (ops/) unless KOPT_SUITE_OPS_DIR names another
# directory of the same layout, such as unseen/ (kernels the search was never tuned on).
SUITE_OPS_DIR = SUITE_DIR / "ops"
UNSEEN_DIR = SUITE_DIR / "unseen"
OPS_DIR = Path(os.environ.get("KOPT_SUITE_OPS_DIR") or SUITE_OPS_DIR).resolve()
SCALES = ("full", "small")
CLASSES = ("elementwise", "reduction", "norm", "softmax", "gather", "fused", "matmul")
DTYPE_BYTES = {"float32": 4, "float16": 2, "bfloat16": 2, "float64": 8, "int64": 8, "int32": 4,
               "int16": 2, "int8": 1, "uint8": 1, "bool": 1}
MAX_OP_JSON_BYTES = 64 * 1024      # an op.json larger than this is refused
MAX_EXPR_CHARS = 256               # one size or roofline expression
MAX_SOURCE_BYTES = 256 * 1024      # ref.py / kernel.py (the API's limit per source)
REQUIRED = ("name", "class", "description", "dtype", "sizes", "inputs", "outputs", "bytes", "flops",
            "initial_kernel")
OPTIONAL = ("parameters", "notes", "tolerances", "updates")
TRUTH_CLASS = "Model"              # ref.py's reference: the truth every output is judged against
PEER_CLASS = "Peer"                # ref.py's optional production-dtype PyTorch (module docstring)


class OpSpecError(ValueError):
    """An op.json (or an expression in it) that breaks a rule; the message names the field."""


@dataclass(frozen=True)
class TensorSpec:
    name: str
    shape: tuple[str, ...]      # expressions over the size symbols
    dtype: str


@dataclass(frozen=True)
class OpSpec:
    name: str
    op_class: str
    description: str
    dtype: str
    sizes: dict[str, dict[str, int]]
    inputs: tuple[TensorSpec, ...]
    parameters: tuple[TensorSpec, ...]
    outputs: tuple[TensorSpec, ...]
    bytes_expr: str
    flops_expr: str
    initial_kernel: str
    notes: str
    directory: Path
    tolerances: dict[str, Any] | None = None   # the job's "tolerances" field, checked by the judge
    updates: tuple[int, ...] = ()              # indices of the inputs forward updates in place

    @property
    def judged(self) -> tuple[TensorSpec, ...]:
        """What the harness judges of one run: the outputs, then the inputs updated in place."""
        return (*self.outputs, *(self.inputs[k] for k in self.updates))

    def shape(self, t: TensorSpec, scale: str) -> tuple[int, ...]:
        return tuple(eval_expr(e, self.sizes[scale], f"{self.name}: {t.name}.shape") for e in t.shape)

    def tensor_bytes(self, t: TensorSpec, scale: str) -> int:
        return math.prod(self.shape(t, scale)) * DTYPE_BYTES[t.dtype]

    def min_bytes(self, scale: str) -> int:
        """Minimum bytes moved: inputs read once and outputs written once, or the expression."""
        if self.bytes_expr == "io":
            return sum(self.tensor_bytes(t, scale) for t in (*self.inputs, *self.parameters, *self.judged))
        return eval_expr(self.bytes_expr, self.sizes[scale], f"{self.name}: bytes")

    def flops(self, scale: str) -> int:
        return eval_expr(self.flops_expr, self.sizes[scale], f"{self.name}: flops")

    def ref_source(self) -> str:
        return _read_source(self.directory / "ref.py")

    def kernel_source(self) -> str:
        return _read_source(self.directory / "kernel.py")

    def baseline_class(self) -> str:
        """The class of ref.py that eager and torch.compile time: PEER_CLASS where ref.py
        defines one at its top level (found in the syntax tree, not by importing), else
        TRUTH_CLASS."""
        try:
            tree = ast.parse(self.ref_source(), filename=str(self.directory / "ref.py"))
        except SyntaxError as e:
            raise OpSpecError(f"{self.name}: ref.py line {e.lineno}: {e.msg}") from None
        named = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
        return PEER_CLASS if PEER_CLASS in named else TRUTH_CLASS

    def input_shapes(self, scale: str) -> list[list[int]]:
        return [list(self.shape(t, scale)) for t in self.inputs]


def _read_source(path: Path) -> str:
    data = path.read_bytes()
    if len(data) > MAX_SOURCE_BYTES:
        raise OpSpecError(f"{path}: {len(data)} bytes, more than the limit of {MAX_SOURCE_BYTES}")
    return data.decode("utf-8")


_BINOPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
           ast.FloorDiv: lambda a, b: a // b}


def eval_expr(expr: str, names: dict[str, int], where: str) -> int:
    """Integer arithmetic over `names`: + - * // parentheses, integer literals."""
    if not isinstance(expr, str) or not expr.strip():
        raise OpSpecError(f"{where}: must be a non-empty expression string")
    if len(expr) > MAX_EXPR_CHARS:
        raise OpSpecError(f"{where}: expression longer than {MAX_EXPR_CHARS} characters")
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError as e:
        raise OpSpecError(f"{where}: {expr!r} is not an expression ({e.msg})") from None

    def ev(node: ast.AST) -> int:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in names:
                raise OpSpecError(f"{where}: unknown size {node.id!r} in {expr!r} (known: {', '.join(sorted(names))})")
            return names[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            left, right = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.FloorDiv) and right == 0:
                raise OpSpecError(f"{where}: division by zero in {expr!r}")
            return _BINOPS[type(node.op)](left, right)
        raise OpSpecError(f"{where}: {expr!r}: only integers, size names, + - * // and parentheses are allowed")

    return ev(tree)


def _tensors(raw: Any, where: str) -> tuple[TensorSpec, ...]:
    if not isinstance(raw, list):
        raise OpSpecError(f"{where}: must be a list of {{name, shape, dtype}}")
    out = []
    for i, t in enumerate(raw):
        w = f"{where}[{i}]"
        if not isinstance(t, dict) or set(t) != {"name", "shape", "dtype"}:
            raise OpSpecError(f"{w}: must be an object with exactly name, shape, dtype")
        if t["dtype"] not in DTYPE_BYTES:
            raise OpSpecError(f"{w}.dtype: {t['dtype']!r} is not one of {', '.join(DTYPE_BYTES)}")
        if not isinstance(t["shape"], list) or not all(isinstance(s, (str, int)) for s in t["shape"]):
            raise OpSpecError(f"{w}.shape: must be a list of expressions")
        out.append(TensorSpec(str(t["name"]), tuple(str(s) for s in t["shape"]), t["dtype"]))
    return tuple(out)


def _updates(names: Any, inputs: Any, where: str) -> tuple[int, ...]:
    """Indices of the named inputs, in input order; every name must be an input's."""
    have = [t.get("name") for t in inputs] if isinstance(inputs, list) and all(isinstance(t, dict) for t in inputs) else []
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise OpSpecError(f"{where}: must be a list of input names")
    unknown = [n for n in names if n not in have]
    if unknown:
        raise OpSpecError(f"{where}: {', '.join(unknown)} names no input (inputs: {', '.join(map(str, have))})")
    return tuple(sorted({have.index(n) for n in names}))


def load_op(directory: Path | str) -> OpSpec:
    directory = Path(directory)
    path = directory / "op.json"
    where = f"{directory.name}/op.json"
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise OpSpecError(f"{where}: cannot read ({e.strerror})") from None
    if len(raw) > MAX_OP_JSON_BYTES:
        raise OpSpecError(f"{where}: {len(raw)} bytes, more than the limit of {MAX_OP_JSON_BYTES}")
    try:
        d = json.loads(raw)
    except ValueError as e:
        raise OpSpecError(f"{where}: not JSON ({e})") from None
    if not isinstance(d, dict):
        raise OpSpecError(f"{where}: must be a JSON object")
    missing = [k for k in REQUIRED if k not in d]
    if missing:
        raise OpSpecError(f"{where}: missing field(s) {', '.join(missing)}")
    unknown = sorted(set(d) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise OpSpecError(f"{where}: unknown field(s) {', '.join(unknown)}")
    if d["name"] != directory.name:
        raise OpSpecError(f"{where}.name: {d['name']!r} differs from the directory name {directory.name!r}")
    if d["class"] not in CLASSES:
        raise OpSpecError(f"{where}.class: {d['class']!r} is not one of {', '.join(CLASSES)}")
    if d["dtype"] not in DTYPE_BYTES:
        raise OpSpecError(f"{where}.dtype: {d['dtype']!r} is not one of {', '.join(DTYPE_BYTES)}")
    tol = d.get("tolerances")
    if tol is not None and not (isinstance(tol, dict) and all(isinstance(v, dict) for v in tol.values())):
        raise OpSpecError(f"{where}.tolerances: must be an object dtype -> object (docs/API.md, tolerances)")
    sizes = d["sizes"]
    if not isinstance(sizes, dict) or set(sizes) != set(SCALES):
        raise OpSpecError(f"{where}.sizes: must have exactly the scales {', '.join(SCALES)}")
    for sc, syms in sizes.items():
        if not isinstance(syms, dict) or not all(isinstance(v, int) and v > 0 for v in syms.values()):
            raise OpSpecError(f"{where}.sizes.{sc}: must map size names to positive integers")
        if set(syms) != set(sizes["full"]):
            raise OpSpecError(f"{where}.sizes.{sc}: must name the same sizes as sizes.full")
    spec = OpSpec(
        name=d["name"], op_class=d["class"], description=str(d["description"]), dtype=d["dtype"],
        sizes={k: dict(v) for k, v in sizes.items()},
        inputs=_tensors(d["inputs"], f"{where}.inputs"),
        parameters=_tensors(d.get("parameters", []), f"{where}.parameters"),
        outputs=_tensors(d["outputs"], f"{where}.outputs"),
        bytes_expr=str(d["bytes"]), flops_expr=str(d["flops"]),
        initial_kernel=str(d["initial_kernel"]), notes=str(d.get("notes", "")), directory=directory,
        tolerances=tol, updates=_updates(d.get("updates", []), d["inputs"], f"{where}.updates"))
    for sc in SCALES:                      # every expression evaluates at every scale
        for t in (*spec.inputs, *spec.parameters, *spec.outputs):
            if any(n <= 0 for n in spec.shape(t, sc)):
                raise OpSpecError(f"{where}: {t.name}.shape is not positive at scale {sc}")
        if spec.min_bytes(sc) <= 0:
            raise OpSpecError(f"{where}.bytes: must be positive at scale {sc}")
        if spec.flops(sc) < 0:
            raise OpSpecError(f"{where}.flops: must not be negative at scale {sc}")
    for f in ("ref.py", "kernel.py"):
        if not (directory / f).is_file():
            raise OpSpecError(f"{directory.name}: {f} is missing")
    return spec


def list_ops(root: Path = OPS_DIR) -> list[str]:
    return sorted(p.name for p in root.iterdir() if (p / "op.json").is_file())


def find_op(name: str, first: Path = OPS_DIR) -> Path | None:
    """The directory of operator `name`: `first`'s, else the suite's or unseen/'s (their names
    do not overlap), so that records of both can be read together; None when none has it."""
    for root in dict.fromkeys((first, SUITE_OPS_DIR, UNSEEN_DIR)):
        if (root / name / "op.json").is_file():
            return root / name
    return None


def select_ops(which: str, root: Path = OPS_DIR) -> list[OpSpec]:
    """`all` or a comma-separated list of operator names (unknown names are an error)."""
    names = list_ops(root)
    if which.strip() == "all":
        chosen = names
    else:
        chosen = [w.strip() for w in which.split(",") if w.strip()]
        unknown = [w for w in chosen if w not in names]
        if unknown:
            raise OpSpecError(f"--ops: unknown operator(s) {', '.join(unknown)}; known: {', '.join(names)}")
        if not chosen:
            raise OpSpecError("--ops: no operator named")
    return [load_op(root / n) for n in chosen]


def ops_arg(value: str) -> list[OpSpec]:
    """argparse `type` of the tools' --ops: the chosen operators, or a usage error naming them."""
    try:
        return select_ops(value)
    except OpSpecError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def scale_of(op: OpSpec, input_shapes: list[list[int]]) -> str | None:
    """Which scale of `op` produced inputs of these shapes (None when neither did)."""
    for sc in SCALES:
        if op.input_shapes(sc) == [list(s) for s in input_shapes]:
            return sc
    return None


def current_scale(backend: str) -> str:
    """The scale ref.py picks in a process with this environment and backend."""
    env = os.environ.get("KOPT_SUITE_SCALE")
    if env in SCALES:
        return env
    return "small" if backend == "interp" or os.environ.get("TRITON_INTERPRET") == "1" else "full"
