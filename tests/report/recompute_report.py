#!/usr/bin/env python3
"""The report of the bundled library, checked against an independent recomputation.

Runs `kir report specs` (math section on a small sample), validates report.json against
docs/report-schema.json, checks that the report holds exactly the cases `kir spec run --json`
lists (every op, every dtype case), and recomputes every output's statistics from the saved
reproducers (got/*.npy: the backend, exact/*.npy: the exact result) with NumPy: element count,
mismatches, max and mean ulp error, NaN mismatches, the histogram and the worst elements. A sample
of reproducers is re-run with `kir repro`, and report.html is opened in headless Chromium
(scripts/check-report-html.sh). Usage: recompute_report.py KIR SOURCE_DIR WORK_DIR
"""
import json
import os
import shutil
import subprocess
import sys

import jsonschema
import numpy as np

# Sign-magnitude float formats stored as unsigned integers: (bits, NaN test on the raw pattern).
FLOATS = {
    "f16": (16, lambda u: (u & 0x7C00) == 0x7C00 and (u & 0x03FF) != 0),
    "bf16": (16, lambda u: (u & 0x7F80) == 0x7F80 and (u & 0x007F) != 0),
    "f32": (32, lambda u: (u & 0x7F800000) == 0x7F800000 and (u & 0x007FFFFF) != 0),
    "f64": (64, lambda u: (u & 0x7FF0000000000000) == 0x7FF0000000000000 and (u & 0x000FFFFFFFFFFFFF) != 0),
    "e4m3": (8, lambda u: (u & 0x7F) == 0x7F),
    "e5m2": (8, lambda u: (u & 0x7C) == 0x7C and (u & 0x03) != 0),
}
UINT = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def fail(msg):
    print("recompute_report: FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def ordered(u, bits):
    """The position of each pattern on the number line: +0 and -0 are both 0, one step per value."""
    sign = 1 << (bits - 1)
    mag = [int(x) & (sign - 1) for x in u]
    return [-m if int(x) & sign else m for x, m in zip(u, mag)]


def distances(dtype, got, exact):
    """Per element: the ulp distance (integers: |difference|), or None for a NaN mismatch."""
    if dtype in FLOATS:
        bits, is_nan = FLOATS[dtype]
        g = got.view(UINT[bits]).astype(object)
        e = exact.view(UINT[bits]).astype(object)
        og, oe = ordered(g, bits), ordered(e, bits)
        out = []
        for a, b, ka, kb in zip(g, e, og, oe):
            na, nb = is_nan(int(a)), is_nan(int(b))
            out.append(0 if na and nb else None if na or nb else abs(ka - kb))
        return out
    return [abs(int(a) - int(b)) for a, b in zip(got.astype(object), exact.astype(object))]


def bucket(u):
    if u == 0:
        return "0"
    if u <= 2:
        return str(int(u))
    k = 2
    while k <= 20:
        if u <= 2 ** k:
            return "%d-%d" % (2 ** (k - 1) + 1, 2 ** k)
        k += 1
    return ">2^20"


def unravel(i, shape):
    coord = []
    for n in reversed(shape):
        coord.append(i % n if n else 0)
        i = i // n if n else 0
    return list(reversed(coord))


def check_output(case, out, repro):
    name, dtype = out["name"], out["dtype"]
    got = np.load(os.path.join(repro, "got", name + ".npy"))
    exact = np.load(os.path.join(repro, "exact", name + ".npy"))
    where = "%s output %s" % (case["id"], name)
    if got.shape != exact.shape:
        fail(where + ": got and exact differ in size")
    pos = list(range(got.size))  # storage index of each element measured
    mask = os.path.join(repro, "exact", name + ".defined.npy")
    if os.path.exists(mask):  # only the elements the kernel wrote count
        m = np.load(mask).reshape(-1).astype(bool)
        got, exact = got.reshape(-1)[m], exact.reshape(-1)[m]
        pos = [int(i) for i in np.flatnonzero(m)]
    d = distances(dtype, got.reshape(-1), exact.reshape(-1))
    if len(d) != out["elements"]:
        fail("%s: %d elements in the reproducer, %d in the report" % (where, len(d), out["elements"]))
    finite = [u for u in d if u is not None]
    nan = len(d) - len(finite)
    isz = got.dtype.itemsize
    gb, eb = got.reshape(-1).tobytes(), exact.reshape(-1).tobytes()
    mism = sum(1 for i in range(len(d)) if gb[i * isz:(i + 1) * isz] != eb[i * isz:(i + 1) * isz])
    if mism != out["mismatches"]:
        fail("%s: %d elements differ from the exact result, the report says %d" % (where, mism, out["mismatches"]))
    if nan != out.get("non_finite", 0):
        fail("%s: %d NaN mismatches, the report says %d" % (where, nan, out.get("non_finite", 0)))
    want_max = None if nan else (max(finite) if finite else 0)
    if want_max != out["max_ulps"]:
        fail("%s: max error %s ulp, the report says %s" % (where, want_max, out["max_ulps"]))
    if finite:
        mean = sum(finite) / len(finite)
        if out["mean_ulps"] is None or abs(mean - out["mean_ulps"]) > 1e-9 * max(1.0, mean):
            fail("%s: mean error %r ulp, the report says %r" % (where, mean, out["mean_ulps"]))
    hist = {}
    for u in finite:
        hist[bucket(u)] = hist.get(bucket(u), 0) + 1
    if nan:
        hist["NaN mismatch"] = nan
    reported = {h["bucket"]: h["count"] for h in out["histogram"] if h["count"]}
    if hist != reported:
        fail("%s: histogram %r, the report says %r" % (where, hist, reported))
    ranked = sorted((i for i, u in enumerate(d) if u != 0), key=lambda i: (-(float("inf") if d[i] is None else d[i]), i))[:5]
    want_worst = [(unravel(pos[i], out["shape"]), d[i]) for i in ranked]
    have_worst = [(w["coord"], w["ulps"]) for w in out["worst"]]
    if want_worst != have_worst:
        fail("%s: worst elements %r, the report says %r" % (where, want_worst, have_worst))
    if out["bound_kind"] == "exact":
        outside = sum(1 for u in d if u != 0)
        if outside != out["outside_bound"]:
            fail("%s: %d elements outside an exact bound, the report says %d" % (where, outside, out["outside_bound"]))
    return len(d)


def main():
    kir, src, work = sys.argv[1], sys.argv[2], sys.argv[3]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    out = os.path.join(work, "report")
    r = subprocess.run([kir, "report", os.path.join(src, "specs"), "-o", out, "--math-samples", "2000",
                        "--math-functions", "exp,log,sin,sqrt,sigmoid"], capture_output=True, text=True)
    if r.returncode != 0:
        fail("kir report exited %d:\n%s%s" % (r.returncode, r.stdout, r.stderr[-4000:]))
    doc = json.load(open(os.path.join(out, "report.json")))
    schema = json.load(open(os.path.join(src, "docs", "report-schema.json")))
    try:
        jsonschema.validate(doc, schema)
    except jsonschema.ValidationError as e:
        fail("report.json does not validate against docs/report-schema.json: %s at %s" % (e.message, list(e.absolute_path)))

    listing = os.path.join(work, "spec-run.json")
    r = subprocess.run([kir, "spec", "run", os.path.join(src, "specs"), "--json", listing], capture_output=True, text=True)
    if r.returncode != 0:
        fail("kir spec run exited %d" % r.returncode)
    want = {c["op"] + "/" + c["case_id"] for c in json.load(open(listing))}
    have = {c["id"] for c in doc["cases"]}
    if want != have:
        fail("the report's cases differ from kir spec run's: missing %s, extra %s" % (sorted(want - have)[:5], sorted(have - want)[:5]))
    ops = {c["op"] for c in doc["cases"]}
    if doc["summary"]["ops"] != len(ops) or doc["summary"]["cases"] != len(doc["cases"]):
        fail("summary counts do not match the cases")
    bad = [c["id"] + ": " + c["reason"] for c in doc["cases"] if c["verdict"] != "PASS"]
    if bad:
        fail("cases of the bundled library do not pass:\n  " + "\n  ".join(bad[:10]))

    elements = outputs = 0
    for case in doc["cases"]:
        repro = os.path.join(out, case["repro"])
        for o in case["outputs"]:
            elements += check_output(case, o, repro)
            outputs += 1
    if outputs == 0:
        fail("no output measured")
    nonzero = sum(1 for c in doc["cases"] for o in c["outputs"] if o["max_ulps"])
    sample = doc["cases"][:: max(1, len(doc["cases"]) // 8)]
    for case in sample:
        r = subprocess.run([kir, "repro", os.path.join(out, case["repro"])], capture_output=True, text=True)
        if r.returncode != 0:
            fail("kir repro %s exited %d:\n%s%s" % (case["repro"], r.returncode, r.stdout, r.stderr))
    shot = os.path.join(work, "report.png")
    r = subprocess.run([os.path.join(src, "scripts", "check-report-html.sh"), os.path.join(out, "report.html"), shot],
                       capture_output=True, text=True)
    browser = "report.html renders in headless Chromium" if r.returncode == 0 else "no Chromium: browser check skipped"
    if r.returncode not in (0, 77):
        fail("the bundled report's HTML fails the browser check:\n" + r.stdout + r.stderr)
    print("recompute_report: %d ops, %d cases, %d outputs (%d with a nonzero error), %d elements recomputed; "
          "schema valid; %d reproducers re-run; %s" % (len(ops), len(doc["cases"]), outputs, nonzero, elements, len(sample), browser))


if __name__ == "__main__":
    main()
