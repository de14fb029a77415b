"""The DSL twins of the bundled op kernels (python/examples/ops/<Op>.py, one per
specs/kernels/<Op>.kir): each twin declares the kernel with the .kir's name and parameters, and
computes the same results bit for bit. Every case lowers the twin, loads the original .kir, checks
that both kernels have the same parameters, runs both in the interpreter on the same random inputs
(fixed seeds, small and odd shapes) and compares every Out/InOut output's bits."""
import importlib.util
import pathlib

import numpy as np
import pytest

import intent as I

if not hasattr(I, "load"):  # pragma: no cover - a pure-source checkout without the extension
    pytest.skip("intent.load / intent.run need the native extension (PYTHONPATH=<build>/python)",
                allow_module_level=True)

REPO = pathlib.Path(__file__).resolve().parents[2]
OPS = REPO / "python" / "examples" / "ops"
KERNELS = REPO / "specs" / "kernels"

_twins, _originals = {}, {}


def twin_module(op):
    if op not in _twins:
        spec = importlib.util.spec_from_file_location(f"intent_ops_{op}", OPS / f"{op}.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        _twins[op] = mod
    return _twins[op]


def original(op):
    if op not in _originals:
        path = KERNELS / f"{op}.kir"
        _originals[op] = I.load(path.read_text(), str(path))
    return _originals[op]


# ---- inputs ------------------------------------------------------------------------------------------

def extent(text, dims):
    """The value of an extent of the .kir's parameter types (`M`, `1`, `floordiv(D, 2)`, `NS + 1`)."""
    return int(eval(text, {"__builtins__": {}, "floordiv": lambda a, b: a // b}, dict(dims)))


def random_view(rng, dtype, shape):
    if dtype in ("f16", "f32", "f64", "bf16"):
        v = rng.standard_normal(shape).astype(np.float32)
        if dtype == "bf16":
            return I.Array.from_float(v, "bf16")
        return v.astype({"f16": np.float16, "f32": np.float32, "f64": np.float64}[dtype])
    if dtype in ("e4m3", "e5m2", "e2m1"):
        return I.Array.from_float(rng.standard_normal(shape), dtype)
    if dtype == "e8m0":  # scales 2^-7 .. 2^7
        return I.Array(rng.integers(120, 135, shape), dtype)
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(np.bool_)
    if dtype in ("u8", "u16", "u32", "u64"):
        return rng.integers(0, 256, shape).astype("uint" + dtype[1:])
    if dtype in ("i8", "i16", "i32", "i64", "index"):
        return rng.integers(-50, 51, shape).astype("int64" if dtype == "index" else "int" + dtype[1:])
    raise AssertionError(f"no generator for {dtype}")


def group_rows(rng, dims):
    """batch_sizes / batch_offsets of GroupedGemm: G consecutive (possibly empty) groups covering M rows."""
    m, g = dims["M"], dims["G"]
    cuts = np.sort(rng.integers(0, m + 1, g - 1))
    bounds = np.concatenate([[0], cuts, [m]])
    return {"batch_sizes": np.diff(bounds).astype(np.int32), "batch_offsets": bounds[:-1].astype(np.int32)}


def ints(name, lo, hi, *shape, dtype=np.int64):
    """An integer input `name` drawn from [lo, hi) (bounds and shape entries: ints or extent names)."""
    def make(rng, dims):
        v = lambda x: dims[x] if isinstance(x, str) else x  # noqa: E731
        return {name: rng.integers(v(lo), v(hi), tuple(v(e) for e in shape)).astype(dtype)}
    return make


def fixed(**arrays):
    return lambda rng, dims: {k: np.asarray(v, dtype=np.int32) for k, v in arrays.items()}


def both(*makers):
    return lambda rng, dims: {k: v for m in makers for k, v in m(rng, dims).items()}


def inputs(module, kernel, dims, scalars, seed, special=None):
    """Random arrays for the In/InOut views, then the runtime scalars. Rank-0 views are left to
    intent.run's generator, seeded alike for both kernels (a 0-d NumPy array binds as shape [1])."""
    rng = np.random.default_rng(seed)
    args = dict(special(rng, dims)) if special else {}
    for p in module.params(kernel):
        if p["kind"] in ("In", "InOut") and p["name"] not in args and p["shape"]:
            args[p["name"]] = random_view(rng, p["dtype"], tuple(extent(e, dims) for e in p["shape"]))
    args.update(scalars)
    return args


# ---- the cases: (op, kernel, constexprs, dims, runtime scalars, special inputs) -----------------------

def _c(op, kernel, dims, cx=None, scalars=None, special=None):
    return pytest.param(op, kernel, cx or {}, dims, scalars or {}, special,
                        id=f"{kernel}-{'-'.join(f'{k}{v}' for k, v in {**(cx or {}), **dims}.items())}")


CASES = []
for _k in ("AddFwdOp__f16", "AddFwdOp__bf16"):
    CASES += [_c("AddFwdOp", _k, {"M": 3, "N": 5}, scalars={"alpha": 1.5}),
              _c("AddFwdOp", _k, {"M": 7, "N": 33}, scalars={"alpha": -0.3})]
for _k, _a in (("AddFwdOp__f32__bcast", (1.5, -0.3)), ("AddFwdOp__i32__bcast", (3, -7))):
    CASES += [_c("AddFwdOp", _k, {"B": 2, "M": 3, "N": 5}, scalars={"alpha": _a[0]}),
              _c("AddFwdOp", _k, {"B": 3, "M": 1, "N": 17}, scalars={"alpha": _a[1]})]
for _k, _d in (("ReluFwdOp__f16", {"M": 9, "N": 31}), ("ReluFwdOp__bf16", {"M": 3, "N": 5}),
               ("ReluFwdOp__f32__r3", {"B": 2, "M": 3, "N": 7})):
    CASES += [_c("ReluFwdOp", _k, _d, {"inplace": ip}) for ip in (False, True)]
for _k in ("ClampFwdOp__f16", "ClampFwdOp__bf16", "ClampFwdOp__f32"):
    CASES += [_c("ClampFwdOp", _k, {"M": 3, "N": 5}, {"present_min": lo, "present_max": hi})
              for lo in (False, True) for hi in (False, True)]
    CASES += [_c("ClampFwdOp", _k, {"M": 9, "N": 31}, {"present_min": True, "present_max": True})]
CASES += [_c("SumFwdOp", "SumFwdOp__f32__axes", {"A": 3, "B": 4, "C": 5}),
          _c("SumFwdOp", "SumFwdOp__f32__axes", {"A": 7, "B": 1, "C": 33}),
          _c("SumFwdOp", "SumFwdOp__bf16", {"M": 3, "N": 5}),
          _c("SumFwdOp", "SumFwdOp__bf16", {"M": 9, "N": 131}),
          _c("SumFwdOp", "SumFwdOp__i64", {"M": 9, "N": 13}),
          _c("SumFwdOp", "SumFwdOp__f32__scalar", {})]
for _k in ("SoftmaxFwdOp__bf16", "SoftmaxFwdOp__f32"):
    CASES += [_c("SoftmaxFwdOp", _k, {"M": 3, "N": 5}, {"dim": d}) for d in (-1, 0)]
    CASES += [_c("SoftmaxFwdOp", _k, {"M": 9, "N": 33}, {"dim": d}) for d in (1, -2)]
CASES += [_c("SoftmaxFwdOp", "SoftmaxFwdOp__f16", {"A": 2, "B": 3, "C": 5}, {"dim": d}) for d in (-1, 1, 0)]
CASES += [_c("SoftmaxFwdOp", "SoftmaxFwdOp__f16", {"A": 3, "B": 7, "C": 17}, {"dim": d}) for d in (2, -2, -3)]
for _k in ("CumsumFwdOp__f32", "CumsumFwdOp__bf16", "CumsumFwdOp__i64"):
    CASES += [_c("CumsumFwdOp", _k, {"M": 3, "N": 5}, {"dim": d}) for d in (-1, 0)]
    CASES += [_c("CumsumFwdOp", _k, {"M": 9, "N": 65}, {"dim": d}) for d in (1, -2)]
CASES += [_c("CumsumFwdOp", "CumsumFwdOp__f32__scalar", {}, {"dim": 0})]
for _k in ("GemmFwdOp__f32__nn", "GemmFwdOp__bf16__nt", "GemmFwdOp__f16__tn"):
    CASES += [_c("GemmFwdOp", _k, {"M": 3, "N": 5, "K": 4}), _c("GemmFwdOp", _k, {"M": 9, "N": 17, "K": 33})]
for _k in ("AlibiFwdOp__f32", "AlibiFwdOp__bf16"):
    CASES += [_c("AlibiFwdOp", _k, {"H": h, "S": s}, scalars={"num_heads": h, "seq_len": s})
              for h, s in ((8, 5), (12, 17), (5, 1))]
for _k in ("MaxPool2dFwdOp__f16", "MaxPool2dFwdOp__f32"):  # 3x3 window, stride 2, padding 1
    CASES += [_c("MaxPool2dFwdOp", _k, {"N": 2, "C": 3, "H": 7, "W": 6, "HO": 4, "WO": 3}),
              _c("MaxPool2dFwdOp", _k, {"N": 1, "C": 2, "H": 8, "W": 8, "HO": 5, "WO": 5}, {"ceil_mode": True})]
CASES += [_c("MaxPool2dFwdOp", "MaxPool2dFwdOp__bf16", {"N": 2, "C": 3, "H": 9, "W": 6, "HO": 3, "WO": 3}),
          _c("MaxPool2dFwdOp", "MaxPool2dFwdOp__bf16", {"N": 1, "C": 2, "H": 7, "W": 5, "HO": 3, "WO": 3},
             {"ceil_mode": True})]
CASES += [_c("FusedTopKFwdOp", "FusedTopKFwdOp", {"T": 3, "E": 8, "K": 2}, {"top_k": 2, "renormalize": r})
          for r in (True, False)]
CASES += [_c("FusedTopKFwdOp", "FusedTopKFwdOp", {"T": 7, "E": 13, "K": 5}, {"top_k": 5}),
          _c("FusedTopKFwdOp", "FusedTopKFwdOp", {"T": 4, "E": 4, "K": 4}, {"top_k": 4})]
for _k in ("GroupedGemmFwdOp__bf16__nn", "GroupedGemmFwdOp__f16__nt"):
    CASES += [_c("GroupedGemmFwdOp", _k, {"M": 5, "K": 4, "N": 3, "G": 3}, special=group_rows),
              _c("GroupedGemmFwdOp", _k, {"M": 9, "K": 17, "N": 7, "G": 4}, special=group_rows)]
for _k in ("EmbeddingFwdOp__f32", "EmbeddingFwdOp__bf16", "EmbeddingFwdOp__f16"):
    CASES += [_c("EmbeddingFwdOp", _k, {"B": 2, "S": 5, "V": 8, "H": 4}, scalars={"vocab_start": 6, "vocab_size": 20},
                 special=ints("input", 0, 20, "B", "S", dtype=np.int32)),
              _c("EmbeddingFwdOp", _k, {"B": 3, "S": 7, "V": 13, "H": 9},
                 scalars={"vocab_start": 20, "vocab_size": 40}, special=ints("input", 0, 40, "B", "S", dtype=np.int32))]
CASES += [_c("FlashAttentionFwdOp", "FlashAttentionFwdOp__f32", {"B": 1, "H": 2, "S": 3, "SK": 5, "D": 4, "DV": 3},
             {"is_causal": c, "present_attn_bias": b}, scalars={"softmax_scale": 0.5})
          for c in (False, True) for b in (False, True)]
CASES += [_c("FlashAttentionFwdOp", "FlashAttentionFwdOp__f32", {"B": 2, "H": 1, "S": 7, "SK": 7, "D": 5, "DV": 9},
             {"is_causal": True, "present_attn_bias": True}, scalars={"softmax_scale": 0.3})]
CASES += [_c("LinearAttentionFwdOp", "LinearAttentionFwdOp__f32", {"B": 1, "H": 2, "L": 5, "D": 3, "E": 4},
             {"present_initial_state": p}) for p in (False, True)]
CASES += [_c("LinearAttentionFwdOp", "LinearAttentionFwdOp__f32", {"B": 2, "H": 1, "L": 13, "D": 5, "E": 3},
             {"present_initial_state": True})]
CASES += [_c("MambaChunkScanFwdOp", "MambaChunkScanFwdOp__f32", {"B": 2, "L": 10, "E": 3, "P": 4},
             {"present_initial_state": p}) for p in (False, True)]
CASES += [_c("MambaChunkScanFwdOp", "MambaChunkScanFwdOp__f32", {"B": 1, "L": 7, "E": 5, "P": 2},
             {"chunk_size": 3, "present_initial_state": True})]


CASES += [_c("MeanPoolingFwdOp", "MeanPoolingFwdOp__f16__dense", {"B": 2, "S": 7, "H": 2, "D": 3, "NC": 3, "NS": 1},
             {"chunk_size": 3}),
          _c("MeanPoolingFwdOp", "MeanPoolingFwdOp__f16__dense", {"B": 1, "S": 70, "H": 1, "D": 2, "NC": 2, "NS": 1}),
          _c("MeanPoolingFwdOp", "MeanPoolingFwdOp__bf16__varlen", {"S": 14, "H": 2, "D": 3, "NC": 6, "NS": 3},
             {"chunk_size": 3}, special=fixed(offsets=[0, 5, 7, 14],
                                              indices=[[2, 1], [0, 0], [0, 1], [1, 0], [2, 0], [2, 2]])),
          _c("MeanPoolingFwdOp", "MeanPoolingFwdOp__bf16__varlen", {"S": 9, "H": 3, "D": 5, "NC": 2, "NS": 2},
             special=fixed(offsets=[0, 4, 9], indices=[[1, 0], [0, 0]]))]
for _k in ("LongRoPEFwdOp__bf16__f32", "LongRoPEFwdOp__f32__f32", "LongRoPEFwdOp__f16__f16"):
    CASES += [_c("LongRoPEFwdOp", _k, {"B": 2, "S": 3, "H": 2, "D": 8}, {"present_rescale_factors": True},
                 scalars={"base": 10000.0}),
              _c("LongRoPEFwdOp", _k, {"B": 1, "S": 7, "H": 3, "D": 6}, {"present_rescale_factors": False},
                 scalars={"base": 500.0})]
for _k in ("GemmW4A16FwdOp__f16", "GemmW4A16FwdOp__bf16"):
    CASES += [_c("GemmW4A16FwdOp", _k, {"M": 3, "K": 8, "N": 5, "G": 2}, {"group_size": 4}),
              _c("GemmW4A16FwdOp", _k, {"M": 5, "K": 24, "N": 7, "G": 3}, {"group_size": 8}),
              _c("GemmW4A16FwdOp", _k, {"M": 2, "K": 256, "N": 3, "G": 2})]
for _k, _d in (("DropoutFwdOp__f32", {"M": 3, "N": 5}), ("DropoutFwdOp__f16", {"M": 9, "N": 33}),
               ("DropoutFwdOp__bf16__r3", {"B": 3, "M": 7, "N": 9})):
    CASES += [_c("DropoutFwdOp", _k, _d, scalars={"p": 0.3, "seed": 7, "offset": 0}),
              _c("DropoutFwdOp", _k, _d, scalars={"p": 0.9, "seed": 123456789, "offset": 1000})]
for _k, _dt in (("HistogramFwdOp__i64", np.int64), ("HistogramFwdOp__i32", np.int32)):
    CASES += [_c("HistogramFwdOp", _k, {"N": 20, "B": 5}, {"present_mask": m}, scalars={"num_bins": 5},
                 special=ints("values", -2, 7, "N", dtype=_dt)) for m in (False, True)]
    CASES += [_c("HistogramFwdOp", _k, {"N": 37, "B": 9}, {"present_mask": True}, scalars={"num_bins": 7},
                 special=ints("values", -3, 12, "N", dtype=_dt))]
for _k, _d in (("IndexAddFwdOp__f32", {"N": 5, "D": 3, "L": 6}), ("IndexAddFwdOp__bf16", {"N": 9, "D": 7, "L": 13}),
               ("IndexAddFwdOp__f32__r3", {"N": 5, "A": 2, "B": 3, "L": 9})):
    CASES += [_c("IndexAddFwdOp", _k, _d, scalars={"alpha": a}, special=ints("index", 0, "N", "L"))
              for a in (1.5, -0.3)]
CASES += [_c("MoePrePermuteFwdOp", "MoePrePermuteFwdOp__bf16", {"T": 5, "H": 3, "K": 2, "C": 22},
             scalars={"num_experts": 4}, special=ints("topk_ids", 0, 4, "T", "K", dtype=np.int32)),
          _c("MoePrePermuteFwdOp", "MoePrePermuteFwdOp__bf16", {"T": 7, "H": 5, "K": 3, "C": 39},
             scalars={"num_experts": 6}, special=ints("topk_ids", 0, 6, "T", "K", dtype=np.int32)),
          _c("MoePrePermuteFwdOp", "MoePrePermuteFwdOp__f16", {"T": 5, "H": 3, "K": 2, "C": 10, "E": 4},
             scalars={"num_experts": 4}, special=ints("topk_ids", 0, 4, "T", "K", dtype=np.int32)),
          _c("MoePrePermuteFwdOp", "MoePrePermuteFwdOp__f16", {"T": 7, "H": 5, "K": 3, "C": 21, "E": 6},
             scalars={"num_experts": 6}, special=ints("topk_ids", 0, 6, "T", "K", dtype=np.int32))]
for _k in ("GroupedQueryAttentionPagedFwdOp__f16__f16", "GroupedQueryAttentionPagedFwdOp__bf16__e4m3"):
    CASES += [_c("GroupedQueryAttentionPagedFwdOp", _k, {"B": 2, "HQ": 4, "HKV": 2, "D": 3, "P": 5, "PS": 2, "W": 3},
                 special=both(ints("block_table", 0, "P", "B", "W", dtype=np.int32), fixed(cache_seqlens=[4, 0]))),
              _c("GroupedQueryAttentionPagedFwdOp", _k, {"B": 3, "HQ": 6, "HKV": 3, "D": 5, "P": 7, "PS": 3, "W": 4},
                 special=both(ints("block_table", 0, "P", "B", "W", dtype=np.int32),
                              fixed(cache_seqlens=[12, 5, 1])))]
CASES += [_c("FusedMoeSharedExpertFwdOp", "FusedMoeSharedExpertFwdOp__bf16", {"T": 3, "H": 4, "E": 4, "I": 3, "S": 2},
             {"present_correction_bias": b, "present_shared_w_gate_up": sh})
          for b in (False, True) for sh in (False, True)]
CASES += [_c("FusedMoeSharedExpertFwdOp", "FusedMoeSharedExpertFwdOp__bf16", {"T": 5, "H": 7, "E": 6, "I": 5, "S": 3},
             {"top_k": 3, "present_correction_bias": True, "present_shared_w_gate_up": True})]
for _k in ("GemmMxfp4FwdOp__u8__bf16", "GemmMxfp4FwdOp__u8__f32"):
    CASES += [_c("GemmMxfp4FwdOp", _k, {"M": 3, "K": 64, "N": 5}), _c("GemmMxfp4FwdOp", _k, {"M": 2, "K": 32, "N": 7})]
for _k in ("GemmSparse24FwdOp__f16", "GemmSparse24FwdOp__bf16"):
    CASES += [_c("GemmSparse24FwdOp", _k, _d, special=ints("a_meta", 0, 6, "M", _d["K"] // 4, dtype=np.int32))
              for _d in ({"M": 3, "K": 8, "N": 5}, {"M": 5, "K": 16, "N": 3})]
CASES += [_c("GemvQ4KFwdOp", "GemvQ4KFwdOp", {"K": 256, "N": 3}),
          _c("GemvQ4KFwdOp", "GemvQ4KFwdOp", {"K": 512, "N": 2})]


# ---- checks ------------------------------------------------------------------------------------------

def bits(value):
    """(dtype, shape, raw bytes) of an output: NaNs compare by their bits."""
    if isinstance(value, I.Array):
        return value.dtype, value.shape, value.bits.tobytes()
    a = np.ascontiguousarray(value)
    return a.dtype.str, a.shape, a.tobytes()


def signature(module, kernel):
    """Name, kind, dtype and shape of every parameter (Constexpr[int] is i64, Constexpr[I.index]
    index)."""
    return [(p["name"], p["kind"], p["dtype"], tuple(p["shape"])) for p in module.params(kernel)]


@pytest.mark.parametrize("op,kernel,cx,dims,scalars,special", CASES)
def test_twin_matches_the_kir_kernel_bit_for_bit(op, kernel, cx, dims, scalars, special):
    """[L19.1] The twin's surface forms (reduce.sum, cumsum, matmul, arg_reduce.max, implicit
    broadcasts, ...) normalize to canonical KIR that computes exactly what the hand-written
    canonical kernel computes: same parameters, identical output bits on the same inputs."""
    orig = original(op)
    twin = getattr(twin_module(op), kernel).specialize(**cx).module
    assert signature(twin, kernel) == signature(orig, kernel)
    for seed in (1, 2):
        args = inputs(orig, kernel, dims, scalars, seed, special)
        want = I.run(orig, kernel, {**args, **cx}, dims=dims, seed=seed).outputs
        got = I.run(twin, kernel, args, dims=dims, seed=seed).outputs
        assert sorted(got) == sorted(want)
        for name in want:
            assert bits(got[name]) == bits(want[name]), f"{kernel} seed {seed}: output {name} differs"


def test_twins_cover_their_kir_files():
    """Every kernel of a .kir file that has a twin file is defined in it, under the same name."""
    import intent.dsl.kernel as K
    for path in sorted(OPS.glob("*.py")):
        op = path.stem
        names = {n for n, v in vars(twin_module(op)).items() if isinstance(v, K.Kernel)}
        assert set(original(op).kernels) == names, op


def test_a_twin_runs_by_calling_it():
    """Calling the kernel object fills its Out arrays in place with the .kir kernel's results."""
    k = twin_module("AddFwdOp").AddFwdOp__f32__bcast
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 1, 5)).astype(np.float32)
    other = rng.standard_normal((3, 5)).astype(np.float32)
    out = np.zeros((2, 3, 5), np.float32)
    k(x, other, out, 0.75)
    want = I.run(original("AddFwdOp"), "AddFwdOp__f32__bcast", {"input": x, "other": other, "alpha": 0.75})
    assert bits(out) == bits(want.outputs["output"])
