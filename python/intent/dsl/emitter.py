"""Writes KIR text: functions, nested regions and ops, each op with the Python location it came
from (`loc("file":line:col)`), so that verifier, interpreter and backend errors point at the
author's Python line. Names SSA values after the Python variables they bind where possible."""
from __future__ import annotations

import json
import re
from typing import Dict, List, Optional, Sequence


class Value:
    """An SSA value of the function being emitted: its name (without `%`) and type."""

    __slots__ = ("name", "type", "op", "attrs", "operands")

    def __init__(self, name: str, type_, op: str = "", attrs: Optional[dict] = None, operands=()):
        self.name, self.type, self.op = name, type_, op
        self.attrs = attrs or {}
        self.operands = tuple(operands)

    @property
    def ref(self) -> str:
        return "%" + self.name

    def __repr__(self) -> str:
        return f"%{self.name}: {self.type.kir()}"


def attr_text(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(attr_text(x) for x in v) + "]"
    if isinstance(v, Raw):
        return v.text
    return json.dumps(str(v))


class Raw:
    """An attribute written as is: a keyword (`f32`, `acquire`), a symbol (`@f`), a float text."""

    def __init__(self, text: str):
        self.text = text


class Function:
    def __init__(self, header: str):
        self.header = header
        self.names: Dict[str, int] = {}
        self.lines: List[str] = []
        self.depth = 1

    def fresh(self, hint: str) -> str:
        base = re.sub(r"[^A-Za-z0-9_.$]", "_", hint) or "t"
        n = self.names.get(base)
        if n is None:
            self.names[base] = 0
            return base
        while True:
            n += 1
            cand = f"{base}_{n}"
            if cand not in self.names:
                self.names[base] = n
                self.names[cand] = 0
                return cand

    def text(self) -> str:
        return self.header + " {\n" + "\n".join(self.lines) + "\n}\n"


class Emitter:
    def __init__(self, file: str):
        self.file = file
        self.fn: Optional[Function] = None
        self.loc = (0, 0)

    def location(self) -> str:
        line, col = self.loc
        return f"loc({json.dumps(self.file)}:{line}:{col})" if line else ""

    def op(self, name: str, operands: Sequence[Value], results: Sequence, attrs: Optional[dict] = None,
           hints: Sequence[str] = (), regions: str = "") -> List[Value]:
        fn = self.fn
        outs = [Value(fn.fresh(hints[i] if i < len(hints) and hints[i] else "t"), t, name, attrs, operands)
                for i, t in enumerate(results)]
        text = ""
        if outs:
            text += ", ".join(v.ref for v in outs) + " = "
        text += f"{name}({', '.join(v.ref for v in operands)})"
        if attrs:
            text += " {" + ", ".join(f"{k} = {attr_text(attrs[k])}" for k in sorted(attrs)) + "}"
        if results:
            types = [t.kir() for t in results]
            text += " : " + (types[0] if len(types) == 1 else "(" + ", ".join(types) + ")")
        self.line(text + regions)
        return outs

    def line(self, text: str, loc: bool = True) -> None:
        suffix = (" " + self.location()) if loc and self.location() else ""
        self.fn.lines.append("  " * self.fn.depth + text + suffix)

    def open_region(self, head: str) -> None:
        """Appends `head region(args) {` to the previous line or as a new line and indents."""
        self.fn.lines.append("  " * self.fn.depth + head + " {")
        self.fn.depth += 1

    def close_region(self, trailer: str = "") -> None:
        self.fn.depth -= 1
        self.fn.lines.append("  " * self.fn.depth + "}" + trailer)
