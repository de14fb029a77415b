"""intent.numerics: kir's exact casts, ULP distances, Philox and uniform, and single ops evaluated
by the interpreter, against known answers (IEEE results NumPy computes identically, format bit
patterns, the Random123 known-answer vectors of tests/numerics/test_philox.cpp)."""

import math

import numpy as np
import pytest

import intent.numerics as N
from intent._runtime import Array, KirError


# ---- cast ----

def test_cast_f32_to_bf16_rounds_ties_to_even():
    x = np.array([1.00390625, 1.01171875, 1.0039062500000002, -1.00390625], np.float64)
    out = N.cast(x.astype(np.float32), "bf16")
    # 1 + 2^-8 is halfway between 1.0 (0x3F80, even) and 1 + 2^-7; 1 + 3*2^-8 halfway to 0x3F82 (even)
    assert isinstance(out, Array)
    assert out.bits.tolist() == [0x3F80, 0x3F82, 0x3F80, 0xBF80]
    # from f64 the third value is above the midpoint: rounds up
    assert N.cast(x, "bf16").bits.tolist() == [0x3F80, 0x3F82, 0x3F81, 0xBF80]


def test_cast_scalar_in_scalar_out():
    assert N.cast(1.00390625, "bf16").to_float64() == 1.0
    assert N.cast(np.float32(2.5), "i32") == 2
    assert N.cast(3.0, "f16") == np.float16(3.0)


def test_cast_float_to_int_truncates_and_rejects_nan():
    assert N.cast(np.array([3.7, -3.7, 0.5], np.float32), "i32").tolist() == [3, -3, 0]
    with pytest.raises(KirError, match="cast f32 -> i32: element \\(1\\)"):
        N.cast(np.array([1.0, np.nan], np.float32), "i32")
    with pytest.raises(KirError):
        N.cast(np.array([3e9], np.float32), "i32")  # out of range


def test_cast_int_wraps_and_bool():
    assert N.cast(np.array([300, -1], np.int32), "i8").tolist() == [44, -1]
    assert N.cast(np.array([-1], np.int32), "u16").tolist() == [65535]
    assert N.cast(np.array([0.0, -0.0, np.nan, 2.0]), "bool").tolist() == [False, False, True, True]


def test_cast_f64_to_f32_matches_ieee():
    x = np.random.default_rng(3).standard_normal(1000) * 1e10
    assert N.cast(x, "f32").tobytes() == x.astype(np.float32).tobytes()


def test_cast_small_formats_and_back():
    a = N.cast(np.array([0.3, 500.0, -0.0], np.float32), "e4m3")
    assert a.bits.tolist() == [0x2A, 0x7F, 0x80]  # 0.3 -> 0.3125 (0x2A), overflow -> NaN, -0 kept
    assert N.cast(a, "f32")[0] == 0.3125
    with pytest.raises(KirError):
        N.cast(np.array([np.nan], np.float32), "e2m1")  # e2m1 has no NaN
    assert N.bitcast(np.array([1.0], np.float32), "u32").tolist() == [0x3F800000]


def test_from_float_and_to_float64():
    assert N.from_float([1.0, 0.1], "f32").tolist() == [1.0, float(np.float32(0.1))]
    assert N.from_float([1.0], "e8m0").bits.tolist() == [127]
    assert N.to_float64(Array([0x3F80, 0x7FC0], "bf16"))[0] == 1.0
    assert math.isnan(N.to_float64(Array([0x3F80, 0x7FC0], "bf16"))[1])


# ---- ulp_distance ----

def test_ulp_distance_known_answers():
    one_up = float(np.nextafter(np.float32(1), np.float32(2)))
    assert N.ulp_distance(1.0, one_up, "f32") == 1
    assert N.ulp_distance(1.0, 2.0, "f32") == 2**23
    assert N.ulp_distance(0.0, -0.0, "f32") == 0
    assert N.ulp_distance(1.0, 2.0, "f64") == 2**52
    assert N.ulp_distance(1.0, 2.0, "bf16") == 2**7
    assert N.ulp_distance(Array([0x38], "e4m3"), Array([0x40], "e4m3"), "e4m3") == 8
    fmax = float(np.finfo(np.float32).max)
    assert N.ulp_distance(fmax, math.inf, "f32") == 1
    with pytest.raises(KirError, match="NaN"):
        N.ulp_distance(1.0, math.nan, "f32")


def test_ulp_distance_arrays():
    a = np.array([1.0, 1.0], np.float32)
    b = np.nextafter(a, np.float32(0))
    out = N.ulp_distance(a, b, "f32")
    assert out.dtype == np.uint64 and out.tolist() == [1, 1]


# ---- philox, uniform ----

def test_philox_random123_known_answers():
    # Philox4x32-10 of counter (0,0,0,0), key (0,0): Random123's KAT, words 0..3 of block 0
    assert [N.philox(0, c) for c in range(4)] == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]
    # counters 4..7 are block 1 = Philox(ctr (1,0,0,0), key 0); 8..11 block 2
    assert N.philox(0, 4) == 0xF8E4CCA4
    assert N.philox(0, np.arange(8, 12)).tolist() == [0x04FAA329, 0x51C732A6, 0x241513AD, 0x459135E4]


def test_philox_seed_is_the_key():
    # Random123 KAT: ctr (0x243f6a88, 0x85a308d3, ...) is not reachable (words 2, 3 are zero), but the
    # key mapping is: seed = hi32 << 32 | lo32 with key (lo32, hi32); distinct seeds differ
    assert N.philox(0x299F31D0A4093822, 0) != N.philox(0, 0)
    assert N.philox(2**64 - 1, 5) == N.philox(2**64 - 1, np.array([5]))[0]


def test_uniform_is_the_top_bits():
    for c in range(6):
        bits = N.philox(42, c)
        assert N.uniform(42, c, "f32") == (bits >> 8) * 2.0**-24
        assert N.uniform(42, c, "f64") == bits * 2.0**-32
        assert N.uniform(42, c, "bf16") == (bits >> 24) * 2.0**-8
    u = N.uniform(42, np.arange(4), "f16")
    assert u.dtype == np.float16 and ((u >= 0) & (u < 1)).all()
    assert isinstance(N.uniform(42, np.arange(4), "bf16"), Array)


# ---- eval ----

def test_eval_exp_f32_is_correctly_rounded():
    # e = 2.71828182845904...; the nearest f32 is 0x402DF854 = 2.71828174591064453125
    assert N.eval("exp", 1.0, dtype="f32") == 2.71828174591064453125
    assert N.eval("exp", 0.0, dtype="f64") == 1.0
    assert N.eval("log", 1.0, dtype="f32") == 0.0


def test_eval_arithmetic_is_ieee():
    assert N.eval("add", 0.1, 0.2, dtype="f64") == 0.1 + 0.2
    assert N.eval("div", 1.0, 3.0, dtype="f32") == float(np.float32(1) / np.float32(3))
    assert N.eval("sqrt", 2.0, dtype="f32") == float(np.sqrt(np.float32(2)))
    assert N.eval("max", -0.0, 0.0, dtype="f32") == 0.0 and math.copysign(1, N.eval("max", -0.0, 0.0, dtype="f32")) == 1
    assert math.isnan(N.eval("min", math.nan, 1.0, dtype="f32"))


def test_eval_integers_and_errors():
    assert N.eval("div", 7, 2, dtype="i32") == 3
    assert N.eval("div", -7, 2, dtype="i32") == -3
    assert N.eval("add", 2**31 - 1, 1, dtype="i32") == -(2**31)
    assert N.eval("shr", -8, 1, dtype="i32") == -4
    with pytest.raises(KirError, match="division-by-zero"):
        N.eval("div", 1, 0, dtype="i32")


def test_eval_cmp_select_cast():
    assert N.eval("cmp", 1.0, 2.0, dtype="f32", pred="lt") is True
    assert N.eval("cmp", math.nan, math.nan, dtype="f32", pred="eq") is False
    assert N.eval("select", True, 1.0, 2.0, dtype="f32") == 1.0
    assert N.eval("cast", 1.00390625, dtype="f32", to="bf16") == 1.0
    with pytest.raises(KirError):
        N.eval("cmp", 1.0, 2.0, dtype="f32", pred="sideways")


def test_eval_arrays_broadcast():
    out = N.eval("mul", np.array([[1], [2]], np.float32), np.array([1, 2, 3], np.float32), dtype="f32")
    assert out.dtype == np.float32 and out.tolist() == [[1, 2, 3], [2, 4, 6]]
    b = N.eval("add", Array.from_float([1.0, 2.0], "bf16"), 1.0, dtype="bf16")
    assert isinstance(b, Array) and b.to_float32().tolist() == [2.0, 3.0]


def test_eval_attributes():
    # approximate division's reference value is the correctly rounded quotient
    assert N.eval("div", 1.0, 3.0, dtype="f32", approximate=True) == float(np.float32(1) / np.float32(3))
    with pytest.raises(KirError):
        N.eval("nonsense", 1.0, dtype="f32")


def test_format_and_parse_value():
    assert N.format_value(0x3F80, "bf16") == "1"
    text = N.format_value(np.float32(0.1))  # reads back as exactly that f32
    assert text != "0.1" and np.float32(float(text)) == np.float32(0.1) and float(text) == float(np.float32(0.1))
    assert N.parse_value("1.0", "bf16") == 0x3F80
    assert N.parse_value("0x38", "e4m3") == 0x38
    with pytest.raises(KirError):
        N.parse_value("1e9", "i8")


def test_dtype_helpers():
    assert "e2m1" in N.dtypes()
    info = N.dtype_info("bf16")
    assert (info["bits"], np.dtype(info["carrier"]), info["float"]) == (16, np.dtype(np.uint16), True)
    assert N.dtype_of(np.zeros(2, np.int16)) == "i16"
    with pytest.raises(KirError):
        N.dtype_info("f128")
