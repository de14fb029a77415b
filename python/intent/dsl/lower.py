"""AST lowering of @intent.kernel / @intent.fn functions to KIR text.

Python's `ast` module gives the function's statements; each one is lowered in source order
into KIR ops with their Python location. Runtime values are SSA values (emitter.Value); Python
constants, dtypes, enums and helpers stay compile-time objects (constexpr), so a Python `if` on a
constexpr selects a branch while an `if` on a runtime bool becomes a structured `if` op, and a
variable updated in a loop becomes a loop carry (checklist L6.1). Ops are lowered in ops.py.
"""
from __future__ import annotations

import ast
import builtins
import inspect
import textwrap
import types as pytypes
from typing import Any, Dict, List, Optional

from . import types as T
from .emitter import Emitter, Function, Raw, Value
from .errors import IntentError, not_implemented
from .surface import Forbidden, Marker, Namespace


class Source:
    """A Python function's AST with the offsets that map its nodes back to the file."""

    def __init__(self, fn):
        self.fn = fn
        self.file = inspect.getsourcefile(fn) or "<unknown>"
        try:
            lines, first = inspect.getsourcelines(fn)
        except (OSError, TypeError):
            raise IntentError(f"the source of '{fn.__name__}' is not available (defined in an interactive session "
                              f"or by exec?): the frontend lowers a function from its source text, so define it "
                              f"in a file", rule="L1.1", file=self.file, line=fn.__code__.co_firstlineno) from None
        text = "".join(lines)
        self.indent = len(lines[0]) - len(lines[0].lstrip())
        self.tree = ast.parse(textwrap.dedent(text))
        self.first = first
        self.defn = self.tree.body[0]
        # the names the function reads from enclosing scopes: resolved once, not per lookup
        self.nonlocals = inspect.getclosurevars(fn).nonlocals
        if not isinstance(self.defn, ast.FunctionDef):
            raise IntentError("@intent.kernel / @intent.fn decorate a plain `def`", rule="L1.1", file=self.file,
                              line=first)

    def where(self, node) -> tuple:
        return (node.lineno + self.first - 1, node.col_offset + self.indent + 1)


class Scope:
    def __init__(self, parent: Optional["Scope"] = None):
        self.parent = parent
        self.vars: Dict[str, Any] = {}
        self.cache: Dict[Any, Value] = {}

    def lookup(self, name: str):
        s = self
        while s is not None:
            if name in s.vars:
                return True, s.vars[name]
            s = s.parent
        return False, None

    def cached(self, key):
        s = self
        while s is not None:
            if key in s.cache:
                return s.cache[key]
            s = s.parent
        return None


def assigned_names(stmts) -> List[str]:
    """Names bound by statements (not inside nested functions), in first-assignment order."""
    out: List[str] = []

    def add(t):
        if isinstance(t, ast.Name):
            if t.id not in out:
                out.append(t.id)
        elif isinstance(t, (ast.Tuple, ast.List)):
            for e in t.elts:
                add(e)
        elif isinstance(t, ast.Starred):
            add(t.value)

    def visit(n):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return
        if isinstance(n, ast.Assign):
            for t in n.targets:
                add(t)
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign)):
            add(n.target)
        elif isinstance(n, ast.For):
            add(n.target)
        elif isinstance(n, ast.NamedExpr):
            add(n.target)
        for c in ast.iter_child_nodes(n):
            visit(c)

    for s in stmts:
        visit(s)
    return out


def is_runtime(v) -> bool:
    return isinstance(v, Value)


class FunctionLowering:
    """Lowers one Python function (a kernel specialization or a helper specialization)."""

    def __init__(self, program, src: Source, fn_obj: Function, kind: str):
        self.program, self.src, self.kind = program, src, kind
        self.em = Emitter(src.file)
        self.em.fn = fn_obj
        self.scope = Scope()
        self.views: Dict[str, List] = {}  # extent symbol -> [(view value, axis)]
        self.returned: Optional[list] = None
        self.loops: List[dict] = []  # enclosing loops: {"kind", "carried": [(name, init value)]}
        self.terminated = False      # the current region ended in break/continue
        self.node = src.defn
        from . import ops
        self.ops = ops.OpLowering(self)

    # -- errors and locations ------------------------------------------------------------------
    def error(self, node, message: str, rule: str = "") -> IntentError:
        line, col = self.src.where(node) if node is not None and hasattr(node, "lineno") else (self.src.first, 1)
        return IntentError(message, rule=rule, file=self.src.file, line=line, col=col)

    def at(self, node) -> None:
        if node is not None and hasattr(node, "lineno"):
            self.node = node
            self.em.loc = self.src.where(node)

    # -- names ---------------------------------------------------------------------------------
    def bind(self, name: str, value) -> None:
        self.scope.vars[name] = value

    def lookup(self, node: ast.Name):
        found, v = self.scope.lookup(node.id)
        if found:
            return v
        g = self.src.fn.__globals__
        closure = self.src.nonlocals
        if node.id in self.views:  # an extent symbol of a view parameter: its runtime extent
            if node.id in closure or node.id in g:
                other = closure[node.id] if node.id in closure else g[node.id]
                if isinstance(other, (bool, int, float, tuple)):
                    raise self.error(node, f"'{node.id}' is both an extent symbol of a view parameter and the Python "
                                           f"constant {other!r}: rename one of them", "L4.2")
                # a module alias or a helper (`import intent as I` with an extent named I) stays itself
            else:
                from .ops import Dim
                view, axis = self.views[node.id][0]
                return Dim(view, axis, T.Extent.symbol(node.id), node.id.lower())
        if node.id in closure:
            return self.capture(node, closure[node.id])
        if node.id in g:
            return self.capture(node, g[node.id])
        if hasattr(builtins, node.id):
            return getattr(builtins, node.id)
        raise self.error(node, f"name '{node.id}' is not defined", "L1.3")

    def root_scope(self) -> Scope:
        s = self.scope
        while s.parent is not None:
            s = s.parent
        return s

    def capture(self, node, v):
        """Only immutable compile-time values may be captured lexically (L1.3)."""
        from .kernel import Helper, Kernel
        ok = (v is None or isinstance(v, (bool, int, float, str, T.DType, Marker, Namespace, Forbidden, Helper,
                                          Kernel, pytypes.ModuleType, type, pytypes.BuiltinFunctionType))
              or is_enum_member(v) or is_enum_class(v))
        if isinstance(v, tuple) and all(isinstance(x, (bool, int, float, str)) for x in v):
            ok = True
        if not ok:
            raise self.error(node, f"'{node.id}' captures a runtime value ({type(v).__name__}); only immutable "
                                   f"constexpr values (bool, int, float, str, dtypes, enums, helpers) are captured "
                                   f"lexically: pass it as an explicit parameter", "L1.3")
        return v

    # -- function body ---------------------------------------------------------------------------
    def lower_body(self, stmts) -> None:
        self.lower_body_in_place(stmts)

    def stmt(self, s) -> None:
        self.at(s)
        m = getattr(self, "stmt_" + type(s).__name__, None)
        if m is None:
            raise self.error(s, not_implemented(f"the Python statement `{type(s).__name__}`"))
        m(s)

    def stmt_Pass(self, s) -> None:
        pass

    def stmt_Expr(self, s) -> None:
        if isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            return  # docstring
        self.expr(s.value)

    def stmt_Assign(self, s) -> None:
        value = self.expr(s.value)
        for t in s.targets:
            self.assign(t, value, s)

    def stmt_AnnAssign(self, s) -> None:
        if s.value is None:
            raise self.error(s, "a declaration without a value defines nothing", "L6.1")
        self.assign(s.target, self.expr(s.value), s)

    def stmt_AugAssign(self, s) -> None:
        if isinstance(s.target, ast.Subscript):
            cur = self.expr(ast.copy_location(ast.Subscript(s.target.value, s.target.slice, ast.Load()), s.target))
        else:
            cur = self.expr(ast.copy_location(ast.Name(s.target.id, ast.Load()), s.target))
        self.at(s)
        value = self.ops.binop(type(s.op), cur, self.expr(s.value), s)
        self.assign(s.target, value, s)

    def assign(self, target, value, node) -> None:
        self.at(node)
        if isinstance(target, ast.Name):
            self.bind(target.id, value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            hints = [t.id if isinstance(t, ast.Name) else "t" for t in target.elts]
            items = self.ops.unpack(value, len(target.elts), node, hints)
            for t, v in zip(target.elts, items):
                self.assign(t, v, node)
        elif isinstance(target, ast.Subscript):
            base = self.expr(target.value)
            self.ops.store(base, self.index_items(target.slice), value, target)
        elif isinstance(target, ast.Attribute):
            raise self.error(target, "attributes cannot be assigned: records are immutable (build a new one with "
                                     "intent.record)", "L4.12")
        else:
            raise self.error(target, not_implemented(f"assignment to `{type(target).__name__}`"))

    def index_items(self, sl) -> list:
        items = sl.elts if isinstance(sl, ast.Tuple) else [sl]
        out = []
        for it in items:
            if isinstance(it, ast.Slice):
                out.append(("slice", None if it.lower is None else self.expr(it.lower),
                            None if it.upper is None else self.expr(it.upper),
                            None if it.step is None else self.expr(it.step), it))
            else:
                out.append(self.expr(it))
        return out

    def stmt_Return(self, s) -> None:
        if self.scope.parent is not None:
            raise self.error(s, "`return` inside a runtime `if` or a loop has no structured form: assign the result "
                                "to a variable and return it after the `if` or loop", "L6.1")
        if self.kind == "kernel":
            if s.value is not None:
                raise self.error(s, "a kernel returns nothing: its results are written to Out/InOut views "
                                    "(no host-visible return)", "L4.13")
            self.returned = []
            return
        value = self.expr(s.value) if s.value is not None else None
        self.returned = [value]

    def stmt_If(self, s) -> None:
        cond = self.expr(s.test)
        self.at(s)
        if not is_runtime(cond):
            if is_enum_member(cond) or isinstance(cond, (bool, int, float, str)) or cond is None:
                self.lower_body_in_place(s.body if cond else s.orelse)
                return
            raise self.error(s.test, f"an `if` condition must be a constexpr or a runtime bool scalar, got {cond!r}",
                             "L6.3")
        if not (isinstance(cond.type, T.ScalarT) and cond.type.dtype.name == "bool"):
            raise self.error(s.test, f"an `if` condition must be a bool scalar, got {cond.type.kir()}; a tensor "
                                     f"predicate uses intent.select", "L6.3")
        self.ops.structured_if(cond, s)

    def lower_body_in_place(self, stmts) -> None:
        for st in stmts:
            if self.returned is not None:
                return  # after a return (also one in a constexpr branch) nothing more runs
            if self.terminated:
                raise self.error(st, "code after break/continue never runs", "L6.3")
            self.stmt(st)

    def stmt_For(self, s) -> None:
        if s.orelse:
            raise self.error(s, "`for ... else` has no structured form", "L6.1")
        it = s.iter
        if isinstance(it, ast.Call):
            f = self.expr(it.func)
            if isinstance(f, Marker) and f.name == "parallel":
                return self.ops.parallel_for(s, it)
            if f is builtins.range:
                return self.unrolled_range(s, it)
        dom = self.expr(it)
        self.ops.ordered_for(s, dom)

    def unrolled_range(self, s, call) -> None:
        args = [self.expr(a) for a in call.args]
        if any(is_runtime(a) for a in args) or not all(isinstance(a, int) for a in args):
            raise self.error(call, "`range` runs at compile time and needs constexpr int bounds; iterate a runtime "
                                   "extent with intent.domain(begin, end)", "L6.1")
        if not isinstance(s.target, ast.Name):
            raise self.error(s.target, "a `range` loop variable is a single name")
        for i in range(*args):
            self.bind(s.target.id, i)
            self.lower_body_in_place(s.body)

    def stmt_While(self, s) -> None:
        if s.orelse:
            raise self.error(s, "`while ... else` has no structured form", "L6.1")
        self.ops.structured_while(s)

    def stmt_Break(self, s) -> None:
        what = "break" if isinstance(s, ast.Break) else "continue"
        if not self.loops:
            raise self.error(s, f"`{what}` outside a loop", "L6.3")
        loop = self.loops[-1]
        if loop["kind"] == "parallel":
            raise self.error(s, f"`{what}` inside intent.parallel: parallel points have no order to stop", "L6.3")
        vals = [self.ops.carry_value(n, self.scope.lookup(n)[1], s, init.type) for n, init in loop["carried"]]
        self.at(s)
        self.em.line(f"{what}({', '.join(v.ref for v in vals)})", loc=False)
        self.terminated = True

    stmt_Continue = stmt_Break

    def stmt_FunctionDef(self, s) -> None:
        raise self.error(s, "helpers are module-level @intent.fn functions: a nested def could capture runtime "
                            "values, which must be explicit parameters", "L1.3")

    def stmt_Assert(self, s) -> None:
        raise self.error(s, "`assert` has no KIR form; check with intent.select or a structured if", "L6.1")

    # -- expressions -----------------------------------------------------------------------------
    def expr(self, e):
        m = getattr(self, "expr_" + type(e).__name__, None)
        if m is None:
            raise self.error(e, not_implemented(f"the Python expression `{type(e).__name__}`"))
        v = m(e)
        return v

    def expr_Constant(self, e):
        return e.value

    def expr_Name(self, e):
        return self.lookup(e)

    def expr_Tuple(self, e):
        return tuple(self.expr(x) for x in e.elts)

    expr_List = expr_Tuple

    def expr_Attribute(self, e):
        base = self.expr(e.value)
        self.at(e)
        return self.ops.attribute(base, e.attr, e)

    def expr_Subscript(self, e):
        base = self.expr(e.value)
        items = self.index_items(e.slice)
        self.at(e)
        return self.ops.subscript(base, items, e)

    def expr_BinOp(self, e):
        a, b = self.expr(e.left), self.expr(e.right)
        self.at(e)
        return self.ops.binop(type(e.op), a, b, e)

    def expr_UnaryOp(self, e):
        a = self.expr(e.operand)
        self.at(e)
        return self.ops.unaryop(type(e.op), a, e)

    def expr_Compare(self, e):
        left = self.expr(e.left)
        result = None
        for op, right_node in zip(e.ops, e.comparators):
            right = self.expr(right_node)
            self.at(e)
            c = self.ops.compare(type(op), left, right, e)
            result = c if result is None else self.ops.logical("and", result, c, e)
            left = right
        return result

    def expr_BoolOp(self, e):
        vals = [self.expr(v) for v in e.values]
        self.at(e)
        out = vals[0]
        for v in vals[1:]:
            out = self.ops.logical("and" if isinstance(e.op, ast.And) else "or", out, v, e)
        return out

    def expr_IfExp(self, e):
        c = self.expr(e.test)
        if not is_runtime(c):
            return self.expr(e.body if c else e.orelse)
        a, b = self.expr(e.body), self.expr(e.orelse)
        self.at(e)
        return self.ops.call_marker("select", [c, a, b], {}, e)

    def expr_Call(self, e):
        f = self.expr(e.func)
        args = []
        if isinstance(f, Marker) and f.name.startswith("atomic_") and e.args and isinstance(e.args[0], ast.Subscript):
            from .ops import Address
            sub = e.args[0]
            args.append(Address(self.expr(sub.value), self.index_items(sub.slice)))
            e = ast.Call(e.func, e.args[1:], e.keywords, lineno=e.lineno, col_offset=e.col_offset)
        for a in e.args:
            if isinstance(a, ast.Starred):
                v = self.expr(a.value)
                args.extend(self.ops.unpack(v, None, a))
            else:
                args.append(self.expr(a))
        kwargs = {}
        for k in e.keywords:
            if k.arg is None:
                raise self.error(k, not_implemented("**kwargs at a call"))
            kwargs[k.arg] = self.expr(k.value)
        self.at(e)
        return self.ops.call(f, args, kwargs, e)


def is_enum_class(v) -> bool:
    from .kernel import EnumBase
    return isinstance(v, type) and issubclass(v, EnumBase) and v is not EnumBase


def is_enum_member(v) -> bool:
    from .kernel import EnumMember
    return isinstance(v, EnumMember)


__all__ = ["FunctionLowering", "Source", "Scope", "assigned_names", "is_runtime", "Raw"]
