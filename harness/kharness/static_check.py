"""Refuse a ModelNew.forward that computes with torch instead of launching Triton kernels.

Two layers, both reported:

* AST check of the source (`check_source`): forward (and the module functions / ModelNew
  methods it calls) must reach a launch `kernel[grid](...)` of a @triton.jit function, and
  must not call torch compute: `torch.<op>` outside the allocation/view allow-list,
  `torch.nn.functional.*` / `F.*`, tensor compute methods (`x.sum()`, `x.exp()`, ...),
  arithmetic or comparison operators on tensors (`a + b`, `a @ b`, `-a`, `a > 0`).
* Runtime trace (`RuntimeTrace`): while the candidate's forward runs, a TorchFunctionMode
  records every torch function/method called outside Triton's own launch machinery; any
  call outside the allow-list is a violation, and a forward that launched no Triton kernel
  is a violation. This catches what the AST cannot see (aliases, helpers in other modules).

Allowed: torch.empty/empty_like/empty_strided/zeros(_like)/ones(_like)/full(_like)/
tensor/as_tensor/arange, views and metadata (.shape .stride() .numel() .size() .dim()
.contiguous() .view() .reshape() .permute() .transpose() .unsqueeze() .squeeze() .flatten()
.expand() .narrow() .select() .chunk() .split() .data_ptr() .element_size() ...),
.to()/.cuda()/.cpu() without a dtype change, .zero_()/.fill_(), .item().
Warnings (reported, not refused): dtype casts (.to(dtype), .float(), .half()), .clone(),
.copy_(), item assignment.
"""
import ast
import threading
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, Self

from .opns import operator_decorated
from .pyflow import autograd_forwards

if TYPE_CHECKING:
    from torch.overrides import TorchFunctionMode

TORCH_ALLOWED = {
    "empty", "empty_like", "empty_strided", "zeros", "zeros_like", "ones", "ones_like", "full", "full_like",
    "tensor", "as_tensor", "arange", "is_tensor", "numel", "get_default_dtype", "device", "dtype", "Size",
    "no_grad", "inference_mode", "is_floating_point", "is_complex", "finfo", "iinfo", "broadcast_shapes",
    "promote_types", "result_type", "manual_seed", "is_grad_enabled", "set_grad_enabled",
}
GRAD_MODE = {"_set_grad_enabled", "set_grad_enabled", "is_grad_enabled", "_enter_inference_mode",
             "_exit_inference_mode", "is_inference_mode_enabled"}
TORCH_ALLOWED_SUBMODULES = {"cuda", "npu", "backends", "version", "testing", "library", "_C", "Tensor",
                            "float32", "float16", "bfloat16", "float64", "int8", "int16", "int32", "int64",
                            "uint8", "bool", "float", "half", "double", "long", "int"}
TENSOR_ALLOWED = {
    "view", "reshape", "contiguous", "permute", "transpose", "t", "expand", "expand_as", "unsqueeze",
    "squeeze", "flatten", "unflatten", "view_as", "reshape_as", "narrow", "select", "chunk", "split",
    "tensor_split", "unbind", "as_strided", "movedim", "moveaxis", "swapaxes", "size", "stride", "numel",
    "nelement", "dim", "ndimension", "is_contiguous", "data_ptr", "element_size", "storage_offset",
    "untyped_storage", "storage", "is_floating_point", "is_complex", "get_device", "new_empty",
    "new_zeros", "new_ones", "new_full", "new_empty_strided", "new_tensor", "fill_", "zero_", "to",
    "cuda", "cpu", "npu", "item", "tolist", "requires_grad_", "detach", "detach_", "pin_memory",
    "record_stream", "is_pinned", "dim_order", "is_set_to", "type_as_noop",
    "__len__", "__index__", "__int__", "__float__", "__bool__", "__iter__", "__hash__", "__format__",
    "__repr__", "__str__", "__reduce_ex__", "__deepcopy__", "__setstate__", "__dlpack__",
    "__dlpack_device__", "__get__", "__getitem__", "__cuda_array_interface__",
}
TENSOR_WARN = {"clone", "copy_", "float", "half", "bfloat16", "double", "int", "long", "bool", "short",
               "char", "byte", "type", "__setitem__", "type_as"}
# Method names that are also common on Python containers/strings: refused only when the
# receiver is known to be a tensor.
AMBIGUOUS_METHODS = {"sort", "add", "split", "values", "index", "copy", "count", "remove", "insert", "extend",
                     "append", "pop", "update", "get", "items", "keys", "join", "format", "replace", "clear",
                     "max", "min", "sum", "all", "any", "round", "abs", "apply_", "map_", "index_put", "put",
                     "item", "sub", "mul", "div", "eq", "ne", "lt", "le", "gt", "ge", "exp", "log", "pow"}
TENSOR_EVIDENCE_ATTRS = {"shape", "stride", "numel", "dtype", "device", "data_ptr", "contiguous", "view",
                         "reshape", "is_contiguous", "element_size", "size", "dim", "ndim", "storage_offset",
                         "permute", "transpose", "unsqueeze", "squeeze", "flatten", "expand", "float", "half",
                         "bfloat16", "double", "long", "clone", "copy_", "new_empty", "new_zeros"}
ALLOC_FUNCS = {"empty", "empty_like", "empty_strided", "zeros", "zeros_like", "ones", "ones_like", "full",
               "full_like", "tensor", "as_tensor", "arange"}
LIKE_FUNCS = {"empty_like", "zeros_like", "ones_like", "full_like"}
VIEW_METHODS = {"view", "reshape", "contiguous", "permute", "transpose", "t", "expand", "expand_as",
                "unsqueeze", "squeeze", "flatten", "unflatten", "view_as", "reshape_as", "narrow", "select",
                "as_strided", "movedim", "to", "cuda", "cpu", "npu", "detach", "new_empty", "new_zeros",
                "new_ones", "new_full"}

_TENSOR_METHOD_CACHE: dict[str, set[str]] = {}


def tensor_compute_methods() -> set[str]:
    if "set" not in _TENSOR_METHOD_CACHE:
        try:
            import torch
        except ImportError:        # no torch: no tensor method to tell apart (only the AST check runs)
            names: set[str] = set()
        else:
            names = {n for n in dir(torch.Tensor) if not n.startswith("_")}
        _TENSOR_METHOD_CACHE["set"] = names - TENSOR_ALLOWED - TENSOR_WARN
    return _TENSOR_METHOD_CACHE["set"]


def _dotted(node: ast.expr) -> list[str] | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return list(reversed(parts))
    return None


class _Aliases:
    def __init__(self, tree: ast.AST) -> None:
        self.torch: set[str] = set()
        self.functional: set[str] = set()
        self.triton: set[str] = set()
        self.from_torch: dict[str, str] = {}      # local name -> torch attribute name
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    local = a.asname or a.name.split(".")[0]
                    if a.name == "torch" or (a.name.startswith("torch.") and not a.asname):
                        self.torch.add(local)
                    if a.name == "torch.nn.functional" and a.asname:
                        self.functional.add(a.asname)
                    if a.name.split(".")[0] == "triton":
                        self.triton.add(local)
            elif isinstance(node, ast.ImportFrom) and node.module:
                for a in node.names:
                    local = a.asname or a.name
                    if node.module == "torch.nn" and a.name == "functional":
                        self.functional.add(local)
                    elif node.module == "torch.nn.functional":
                        self.from_torch[local] = "nn.functional." + a.name
                    elif node.module == "torch":
                        if a.name not in ("nn", "Tensor"):
                            self.from_torch[local] = a.name
                    elif node.module.split(".")[0] == "triton":
                        self.triton.add(local)


def _is_jit_decorator(dec: ast.expr) -> bool:
    d = dec.func if isinstance(dec, ast.Call) else dec
    parts = _dotted(d) or []
    return bool(parts) and parts[-1] in ("jit", "autotune", "heuristics")


class _FuncChecker(ast.NodeVisitor):
    def __init__(self, ctx: "_Ctx", fname: str, params: set[str], lines: list[str] | None) -> None:
        self.ctx = ctx
        self.fname = fname
        self.lines = lines
        self.tensors: set[str] = set()
        self.calls: list[tuple[str, str]] = []          # ("func", name) / ("method", name)
        self.launches: list[str] = []
        self.params = params

    def code(self, node: ast.AST) -> str:
        try:
            return ast.get_source_segment(self.ctx.src, node) or ""
        except (IndexError, ValueError):   # positions outside the source, or cutting a character
            return ""

    def add(self, node: ast.AST, reason: str, warn: bool = False) -> None:
        item = {"function": self.fname, "line": getattr(node, "lineno", 0), "code": self.code(node)[:120],
                "reason": reason}
        (self.ctx.warnings if warn else self.ctx.violations).append(item)

    def is_tensor(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Name):
            return node.id in self.tensors
        if isinstance(node, ast.Subscript):
            return self.is_tensor(node.value)
        if isinstance(node, ast.Call):
            parts = _dotted(node.func)
            if parts and parts[0] in self.ctx.al.torch and len(parts) == 2 and parts[1] in ALLOC_FUNCS:
                return True
            if isinstance(node.func, ast.Attribute) and node.func.attr in VIEW_METHODS:
                return self.is_tensor(node.func.value)
        if isinstance(node, ast.BinOp):
            return self.is_tensor(node.left) or self.is_tensor(node.right)
        return False

    def visit_Assign(self, node: ast.Assign) -> None:
        self.generic_visit(node)
        if self.is_tensor(node.value):
            for t in node.targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        self.tensors.add(n.id)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.generic_visit(node)
        if self.is_tensor(node.target) or self.is_tensor(node.value):
            self.add(node, "in-place arithmetic on a tensor in torch; compute it in a Triton kernel")

    def visit_BinOp(self, node: ast.BinOp) -> None:
        self.generic_visit(node)
        if isinstance(node.op, ast.MatMult):
            self.add(node, "matrix multiply with `@` in torch; compute it in a Triton kernel")
        elif self.is_tensor(node.left) or self.is_tensor(node.right):
            self.add(node, f"tensor arithmetic ({type(node.op).__name__}) in torch; compute it in a Triton kernel")

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        self.generic_visit(node)
        if isinstance(node.op, (ast.USub, ast.Invert)) and self.is_tensor(node.operand):
            self.add(node, "tensor arithmetic (negation) in torch; compute it in a Triton kernel")

    def visit_Compare(self, node: ast.Compare) -> None:
        self.generic_visit(node)
        if any(isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)) for op in node.ops) \
                and (self.is_tensor(node.left) or any(self.is_tensor(c) for c in node.comparators)):
            self.add(node, "tensor comparison in torch; compute it in a Triton kernel")

    def visit_Call(self, node: ast.Call) -> None:
        self.generic_visit(node)
        f = node.func
        al = self.ctx.al
        if isinstance(f, ast.Subscript):
            base = _dotted(f.value)
            self.launches.append(".".join(base) if base else self.code(f.value))
            return
        parts = _dotted(f)
        if parts:
            head = parts[0]
            if head in al.torch and len(parts) >= 2:
                rest = parts[1:]
                if rest[:2] == ["nn", "functional"]:
                    self.add(node, f"torch.nn.functional.{'.'.join(rest[2:])} computes in torch; use a Triton kernel")
                elif rest[0] in TORCH_ALLOWED or rest[0] in TORCH_ALLOWED_SUBMODULES:
                    if rest[0] in LIKE_FUNCS:
                        for a in node.args[:1]:
                            if isinstance(a, ast.Name):
                                self.tensors.add(a.id)
                elif rest[0] == "nn":
                    pass
                elif rest[0] == "ops" and ".".join(rest[1:3]) in self.ctx.own_ops:
                    # torch.ops.ns.op(...) of an operator this module defines: its function
                    self.calls.append(("func", self.ctx.own_ops[".".join(rest[1:3])]))
                else:
                    self.add(node, f"torch.{'.'.join(rest)} computes in torch; use a Triton kernel "
                                   "(torch may only allocate outputs and make views)")
                return
            if head in al.functional:
                self.add(node, f"{'.'.join(parts)} (torch.nn.functional) computes in torch; use a Triton kernel")
                return
            if len(parts) == 1 and head in al.from_torch:
                name = al.from_torch[head]
                if name.startswith("nn.functional.") or name not in TORCH_ALLOWED:
                    self.add(node, f"{head} (torch.{name}) computes in torch; use a Triton kernel")
                return
            if len(parts) == 1 and head in self.ctx.functions:
                self.calls.append(("func", head))
                return
            if len(parts) == 2 and head == "self":
                self.calls.append(("method", parts[1]))
                return
            if parts[1:] == ["apply"] and head in self.ctx.autograd:
                self.calls.append(("autograd", head))
                return
            if head in al.triton or head in ("math", "os", "sys", "functools", "itertools", "builtins"):
                return
        if isinstance(f, ast.Attribute):
            m = f.attr
            recv_tensor = self.is_tensor(f.value)
            if isinstance(f.value, ast.Name) and f.value.id in self.params and m in TENSOR_EVIDENCE_ATTRS:
                self.tensors.add(f.value.id)
            if m in TENSOR_WARN:
                if recv_tensor:
                    self.add(node, f".{m}() runs a torch copy/cast outside the kernel", warn=True)
                return
            if m in tensor_compute_methods():
                if m in AMBIGUOUS_METHODS and not recv_tensor:
                    return
                if isinstance(f.value, ast.Name) and (f.value.id in al.torch or f.value.id in al.triton or f.value.id == "self"):
                    return
                self.add(node, f"tensor method .{m}() computes in torch; compute it in a Triton kernel")

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self.generic_visit(node)
        if isinstance(node.value, ast.Name) and node.value.id in self.params and node.attr in TENSOR_EVIDENCE_ATTRS:
            self.tensors.add(node.value.id)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        # nested functions/lambdas are part of this function's body
        self.generic_visit(node)


class _Ctx:
    def __init__(self, src: str, tree: ast.Module) -> None:
        self.src = src
        self.al = _Aliases(tree)
        self.violations: list[dict[str, Any]] = []
        self.warnings: list[dict[str, Any]] = []
        self.functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        # torch.autograd.Function subclasses: `Cls.apply(...)` runs their forward
        self.autograd: dict[str, ast.FunctionDef] = autograd_forwards(tree)
        # a @triton.jit definition, or the `kernel = triton.jit(fn)` assignment
        self.jit: dict[str, ast.FunctionDef | ast.AsyncFunctionDef | ast.Assign] = {}
        # "ns.op" -> the module function registered as that operator by
        # @custom_op("ns::op") / @triton_op("ns::op"), which torch.ops.ns.op(...) runs
        self.own_ops: dict[str, str] = {}
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if any(_is_jit_decorator(d) for d in node.decorator_list):
                    self.jit[node.name] = node
                else:
                    self.functions[node.name] = node
                    for op in filter(None, map(operator_decorated, node.decorator_list)):
                        self.own_ops[op.replace("::", ".")] = node.name
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                # kernel = triton.jit(fn) style
                parts = _dotted(node.value.func) or []
                if parts and parts[-1] == "jit":
                    for t in node.targets:
                        if isinstance(t, ast.Name):
                            self.jit[t.id] = node


def _params(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    a = fn.args
    names = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
    if a.vararg:
        names.append(a.vararg.arg)
    return [n for n in names if n != "self"]


def check_source(src: str, filename: str = "kernel.py", class_name: str = "ModelNew") -> dict[str, Any]:
    """Static (AST) check. Returns {"ok", "violations", "warnings", "launches", "jit_kernels"}."""
    try:
        tree = ast.parse(src, filename=filename)
    except SyntaxError as e:
        return {"ok": False, "violations": [{"function": None, "line": e.lineno or 0, "code": (e.text or "").strip(),
                                             "reason": f"syntax error: {e.msg}"}],
                "warnings": [], "launches": [], "jit_kernels": []}
    ctx = _Ctx(src, tree)
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name), None)
    res: dict[str, Any] = {"ok": False, "violations": ctx.violations, "warnings": ctx.warnings, "launches": [],
           "jit_kernels": sorted(ctx.jit)}
    if cls is None:
        ctx.violations.append({"function": None, "line": 0, "code": "", "reason": f"no class {class_name} in the kernel source"})
        return res
    methods = {n.name: n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    if "forward" not in methods:
        ctx.violations.append({"function": None, "line": cls.lineno, "code": f"class {class_name}",
                               "reason": f"{class_name} has no forward method"})
        return res
    if not ctx.jit:
        ctx.violations.append({"function": None, "line": 0, "code": "",
                               "reason": "the kernel source defines no @triton.jit function"})
    seen: set[tuple[str, str]] = set()
    work = [("method", "forward")]
    launches: list[str] = []
    while work:
        kind, name = work.pop()
        if (kind, name) in seen:
            continue
        seen.add((kind, name))
        node = (methods.get(name) if kind == "method" else ctx.autograd.get(name) if kind == "autograd"
                else ctx.functions.get(name))
        if node is None:
            continue
        qual = {"method": f"{class_name}.{name}", "func": name, "autograd": f"{name}.forward"}[kind]
        params = set(_params(node)[1:] if kind == "autograd" else _params(node))     # not ctx
        chk = _FuncChecker(ctx, qual, params, None)
        # a parameter is taken to be a tensor when the function uses it like one
        for n in ast.walk(node):
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in params \
                    and n.attr in TENSOR_EVIDENCE_ATTRS:
                chk.tensors.add(n.value.id)
            if isinstance(n, ast.Call):
                parts = _dotted(n.func) or []
                if len(parts) == 2 and parts[0] in ctx.al.torch and parts[1] in LIKE_FUNCS and n.args \
                        and isinstance(n.args[0], ast.Name):
                    chk.tensors.add(n.args[0].id)
        for stmt in node.body:
            chk.visit(stmt)
        launches.extend(chk.launches)
        work.extend(chk.calls)
    res["launches"] = sorted(set(launches))
    if not launches:
        ctx.violations.append({"function": f"{class_name}.forward", "line": methods["forward"].lineno, "code": "",
                               "reason": "forward does not launch a Triton kernel (no `kernel[grid](...)` call "
                                         "reachable from forward)"})
    res["ok"] = not ctx.violations
    return res


# ---------------------------------------------------------------------------------------
# runtime trace

OWN_OPERATOR_UNTRACED = ("an operator the module registers through torch.library.Library: its body "
                         "runs in the dispatcher, where the run-time trace does not follow it "
                         "(the source check read it)")


class RuntimeTrace:
    """Context manager recording torch calls made by user code (outside Triton launches)."""

    def __init__(self, user_dirs: tuple[str, ...]) -> None:
        self.user_dirs = tuple(user_dirs)
        self.calls: dict[str, int] = {}
        self.violations: list[dict[str, Any]] = []
        self.warnings: list[dict[str, Any]] = []
        self._unclassified_ops: set[str] = set()
        self._mode: TorchFunctionMode | None = None
        self._lock = threading.Lock()

    def _where(self) -> str | None:
        for fs in reversed(traceback.extract_stack()):
            if fs.filename.startswith(self.user_dirs):
                import os
                return f"{os.path.basename(fs.filename)}:{fs.lineno}"
        return None

    def _unclassified(self, func: object, exc: Exception) -> None:
        """Warn once per op that the runtime check could not classify it."""
        name = f"{getattr(func, '__module__', None) or '?'}.{getattr(func, '__qualname__', None) or '?'}"
        with self._lock:
            if name in self._unclassified_ops:
                return
            self._unclassified_ops.add(name)
            self.warnings.append({"op": name, "where": None,
                                  "reason": f"not checked: classifying it raised {type(exc).__name__}"})

    def _classify(self, name: str, func: object, args: tuple[Any, ...], kwargs: dict[str, Any]
                  ) -> tuple[Literal["violation", "warning"], str] | None:
        short = name.rsplit(".", 1)[-1]
        if name.startswith("torch.Tensor."):
            meth = name[len("torch.Tensor."):]
            if meth.endswith(".__get__"):
                return None
            if meth == "__getitem__":
                import torch
                idx = args[1] if len(args) > 1 else None
                items = idx if isinstance(idx, tuple) else (idx,)
                if any(isinstance(i, torch.Tensor) for i in items):
                    return ("violation", "indexing with a tensor (gather) in torch")
                return None
            if meth in ("to", "type") :
                import torch
                dt = kwargs.get("dtype") if kwargs else None
                for a in args[1:]:
                    if isinstance(a, torch.dtype):
                        dt = a
                    elif isinstance(a, torch.Tensor):
                        dt = a.dtype
                if dt is not None and isinstance(args[0], torch.Tensor) and dt != args[0].dtype:
                    return ("warning", f"dtype cast .{meth}({dt}) in torch")
                return None
            if meth in TENSOR_ALLOWED:
                return None
            if meth in TENSOR_WARN:
                return ("warning", f"torch copy/cast .{meth}()")
            return ("violation", f"torch compute {name}")
        if name.startswith("torch.nn.functional."):
            return ("violation", f"torch compute {name}")
        if short in TORCH_ALLOWED or short in GRAD_MODE:
            return None
        return ("violation", f"torch compute {name}")

    def _check(self, func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Callable[..., Any] | None:
        """Classifies one torch call of user code, recording a violation or warning. Returns
        the Python body to run instead of `func` when func is an operator the user's module
        registered (opns), whose body is user code to be checked like forward."""
        from torch.overrides import resolve_name

        from .opns import is_own_operator, own_implementation
        own = None
        try:
            name = resolve_name(func) or getattr(func, "__qualname__", None) or repr(func)
            mine = is_own_operator(name)
            own = own_implementation(func, args) if mine else None
            if own is not None:
                verdict = None
            elif mine:
                verdict = ("warning", OWN_OPERATOR_UNTRACED)
            else:
                verdict = self._classify(name, func, args, kwargs)
            if verdict is not None:
                with self._lock:
                    first = name not in self.calls
                    self.calls[name] = self.calls.get(name, 0) + 1
                    if first:
                        item = {"op": name, "where": self._where(), "reason": verdict[1]}
                        (self.violations if verdict[0] == "violation" else self.warnings).append(item)
        # Broad on purpose: this runs inside every torch call of user code, on every device;
        # classifying must never break the call. An op it could not classify is reported as a
        # warning (not checked) instead.
        except Exception as e:  # noqa: BLE001
            self._unclassified(func, e)
        return own

    def __enter__(self) -> Self:
        from torch.overrides import TorchFunctionMode

        from . import launches
        trace = self

        class _Mode(TorchFunctionMode):
            def __torch_function__(self, func: Any, types: Any, args: tuple[Any, ...] = (),
                                   kwargs: dict[str, Any] | None = None) -> Any:
                kwargs = kwargs or {}
                own = trace._check(func, args, kwargs) if launches.depth() == 0 else None
                if own is not None:
                    # an operator the user's module registered (opns): its body is user code,
                    # checked like forward. Called through the operator, its body would run
                    # with this mode switched off (a mode is off inside its own handler), so
                    # the body is called directly, under a mode of this trace.
                    with _Mode():
                        return own(*args, **kwargs)
                return func(*args, **kwargs)

        self._mode = _Mode()
        self._mode.__enter__()
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        assert self._mode is not None, "RuntimeTrace.__exit__ without __enter__"
        self._mode.__exit__(*exc)
        return False
