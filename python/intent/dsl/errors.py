"""The error every frontend rejection raises: the checklist rule it breaks and the author's
Python file:line:col, so a message points at the line that was written, not at generated KIR."""
from __future__ import annotations


class IntentError(Exception):
    def __init__(self, message: str, *, rule: str = "", file: str = "<unknown>", line: int = 0, col: int = 0):
        self.rule, self.file, self.line, self.col, self.message = rule, file, line, col, message
        tag = f"error[{rule}]" if rule else "error"
        hint = f" (kir explain {rule})" if rule else ""  # every rule the DSL names is in kir's rule table
        super().__init__(f"{file}:{line}:{col}: {tag}: {message}{hint}")


def not_implemented(what: str) -> str:
    return f"not implemented: {what} (the DSL frontend does not lower it yet; write it in KIR text)"
