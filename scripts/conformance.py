#!/usr/bin/env python3
"""Regenerates docs/conformance.md from the checklist and the tree.

For each checklist ID it lists where the rule is implemented (source files outside tests/ that
name the ID, e.g. as the rule tag of a diagnostic) and where it is tested (Catch2 tags `[ID]`
in tests/, and `// expect: ID` lines of test .kir files). An ID with neither is "missing".
Notes per ID (partial coverage, what is left to later issues) come from docs/conformance-notes.md
lines of the form `- ID: note`.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECKLIST = os.path.join(ROOT, "..", "shared", "docs", "checklist.md")
SRC_DIRS = ["numerics", "kir", "interp", "backends", "oracle", "specs", "fuzz", "tools", "python"]
# Where each family of IDs can be implemented and tested. The manifest validator numbers its own
# checks C1..C42 (tests/specs, specs/src); those are not the CPU-backend IDs C1..C15.
FAMILY_DIRS = {
    "L": (["numerics", "kir", "interp", "tools", "fuzz", "examples", "python/intent"],
          ["tests/kir", "tests/numerics", "tests/interp", "tests/cli", "python/tests"]),
    "M": (["specs", "tools"], ["tests/specs"]),
    "C": (["backends"], ["tests/backend"]),
}


def files_under(dirs, exts):
    for d in dirs:
        base = os.path.join(ROOT, d)
        for dp, _, fs in os.walk(base):
            for f in fs:
                if f.endswith(exts):
                    yield os.path.join(dp, f)


def main():
    if not os.path.exists(CHECKLIST):
        sys.exit("checklist not found: " + CHECKLIST)
    items = []
    for line in open(CHECKLIST, encoding="utf-8"):
        m = re.match(r"^- ([LCM]\d+(?:\.\d+)?) (.*)$", line.strip())
        if m:
            items.append((m.group(1), m.group(2)))
    notes = {}
    notes_path = os.path.join(ROOT, "docs", "conformance-notes.md")
    if os.path.exists(notes_path):
        for line in open(notes_path, encoding="utf-8"):
            m = re.match(r"^- ([LCM]\d+(?:\.\d+)?): (.*)$", line.strip())
            if m:
                notes[m.group(1)] = m.group(2)
    impl, tested = {}, {}
    for fam, (src_dirs, test_dirs) in FAMILY_DIRS.items():
        fam_items = [(rid, t) for rid, t in items if rid.startswith(fam)]
        scan(fam_items, src_dirs, test_dirs, impl, tested)
    write(items, notes, impl, tested)


def manifest_checks():
    """The manifest validator's checks of each manifest rule, from the rule table's `parent`
    fields (kir/rules/manifest_checks_*.cpp): {"M4": ["C41", "W14"], ...}."""
    checks = {}
    rules_dir = os.path.join(ROOT, "kir", "rules")
    for f in sorted(os.listdir(rules_dir)):
        if not f.startswith("manifest_checks"):
            continue
        text = open(os.path.join(rules_dir, f), encoding="utf-8").read()
        for entry in re.split(r"\n    \{\.id = ", text)[1:]:
            m = re.match(r'"([A-Z]\d+)"', entry)
            p = re.search(r'\.parent = "(M\d+)"', entry)
            if m and p:
                checks.setdefault(p.group(1), []).append(m.group(1))
    return checks


def scan(items, src_dirs, test_dirs, impl, tested):
    checks = manifest_checks()
    for path in files_under(src_dirs, (".cpp", ".h", ".py", ".kir")):
        if os.path.relpath(path, ROOT).startswith(os.path.join("kir", "rules") + os.sep):
            continue  # the rule table explains every rule; it implements none
        text = open(path, encoding="utf-8", errors="replace").read()
        if path.endswith("op_registry.cpp"):
            # The op table names a rule for every op but enforces only its "not in the language"
            # lines (the verifier reports them with the rule given there).
            text = "\n".join(l for l in text.splitlines() if "S::Forbidden" in l)
        # Run-time semantics (the interpreter, the reference programs), the normalizer and the CPU
        # backend name the rule they implement in comments rather than in a diagnostic: there a
        # bare ID counts.
        rel_path = os.path.relpath(path, ROOT)
        runtime = (rel_path.split(os.sep)[0] in ("interp", "examples", "backends")
                   or rel_path.startswith(os.path.join("kir", "normalize")))
        for rid, _ in items:
            # a manifest rule is implemented where the validator's checks of it are
            names = [rid] + (checks.get(rid, []) if rid.startswith("M") else [])
            if (any(re.search(r'"%s"' % re.escape(n), text) for n in names)
                    or (runtime and re.search(r"\b%s\b" % re.escape(rid), text))):
                impl.setdefault(rid, set()).add(os.path.relpath(path, ROOT))
    for path in files_under(test_dirs, (".cpp", ".kir", ".py")):
        text = open(path, encoding="utf-8", errors="replace").read()
        rel = os.path.relpath(path, ROOT)
        for rid, _ in items:
            if ("[%s]" % rid in text or re.search(r"// expect: %s\b" % re.escape(rid), text)
                    or re.search(r"// covers:.*\b%s\b" % re.escape(rid), text)):
                # group .kir files by directory to keep the table readable
                key = os.path.dirname(rel) + "/" if path.endswith(".kir") else rel
                tested.setdefault(rid, {}).setdefault(key, 0)
                tested[rid][key] += 1


def write(items, notes, impl, tested):
    out = ["# Conformance", "",
           "Generated by `scripts/conformance.py` from the project checklist and the tree:",
           "*implemented* lists source files that check or implement the rule (they name its ID);",
           "*tested* lists test files tagged with the ID (`[ID]`) and test-file folders whose",
           "`// expect:` (invalid) or `// covers:` (valid) lines name it, with the number of files.",
           "Notes: `docs/conformance-notes.md`.", "",
           "| ID | rule | implemented | tested | status |", "| --- | --- | --- | --- | --- |"]
    counts = {"done": 0, "partial": 0, "missing": 0}
    for rid, text in items:
        i = sorted(impl.get(rid, []))
        t = tested.get(rid, {})
        ts = ["%s (%d)" % (k, v) if k.endswith("/") else k for k, v in sorted(t.items())]
        note = notes.get(rid, "")
        if i and t and not note.startswith("partial"):
            status = "done"
        elif i or t:
            status = "partial"
        else:
            status = "missing"
        counts[status] += 1
        if note:
            status += ": " + note
        short = text if len(text) < 90 else text[:87] + "..."
        out.append("| %s | %s | %s | %s | %s |" % (rid, short.replace("|", "\\|"), "<br>".join(i) or "—",
                                                  "<br>".join(ts) or "—", status))
    out += ["", "Totals: %d done, %d partial, %d missing." % (counts["done"], counts["partial"], counts["missing"])]
    open(os.path.join(ROOT, "docs", "conformance.md"), "w", encoding="utf-8").write("\n".join(out) + "\n")
    print("docs/conformance.md: %d done, %d partial, %d missing" % (counts["done"], counts["partial"], counts["missing"]))


if __name__ == "__main__":
    main()
