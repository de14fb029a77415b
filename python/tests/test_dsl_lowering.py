"""The DSL frontend: each test writes one construct of the language in Python and checks the
canonical KIR it lowers to (after `kir normalize` and verification, locations stripped) against
KIR written by hand, or checks the located error of a construct the language rejects. The rule
each test covers is in its name and its docstring tag, e.g. [L3.1]."""
import re

import pytest

import intent as I
from intent import IntentError


def body(k, **cx):
    """The kernel's canonical KIR without locations or comments, one op per line, stripped."""
    text = k.specialize(**cx).text()
    return [ln.strip() for ln in text.splitlines() if ln.strip()]


def has(lines, *ops):
    for op in ops:
        assert any(op in ln for ln in lines), f"no line with {op!r} in:\n" + "\n".join(lines)


def rejects(k, rule, line_of, fragment, **cx):
    with pytest.raises(IntentError) as ei:
        k.specialize(**cx).kir
    e = ei.value
    assert e.rule == rule, str(e)
    assert e.line == line_of, str(e)
    assert fragment in e.message, str(e)
    assert e.file.endswith("test_dsl_lowering.py")


def line_of(fn, marker):
    import inspect
    lines, first = inspect.getsourcelines(fn.fn)
    for i, ln in enumerate(lines):
        if marker in ln:
            return first + i
    raise AssertionError(marker)


# ---- parameters and domains -------------------------------------------------------------------------

@I.kernel
def copy2d(x: I.In[I.f32, ("M", "N")], y: I.Out[I.f32, ("M", "N")]):
    rows = I.domain(0, M)  # noqa: F821
    cols = I.domain(0, N)  # noqa: F821
    y[rows, cols] = x[rows, cols]


def test_L2_views_and_L3_1_domains_lower_to_one_shared_relation():
    """[L2.1] [L3.1] [L15.1] [L5.2] [L15.5] views, domains over their extents, one relation shared by load and
    store; a whole-domain assignment needs no parallel, and a copy is a read then a write (no copy op)."""
    assert body(copy2d) == [
        "kernel @copy2d(%x: In<f32[M, N]>, %y: Out<f32[M, N]>) {",
        "%c0 = const() {value = 0} : index",
        "%m = dim(%x) {axis = 0} : index",
        "%d = domain(%c0, %m) : domain<M>",
        "%n = dim(%x) {axis = 1} : index",
        "%d_1 = domain(%c0, %n) : domain<N>",
        "%d_i = indices(%d) : index[M]",
        "%d_1_i = indices(%d_1) : index[N]",
        "%d_i_b = broadcast(%d_i) {dims = [0]} : index[M, N]",
        "%d_1_i_b = broadcast(%d_1_i) {dims = [1]} : index[M, N]",
        "%rel = relation(%d_i_b, %d_1_i_b) : relation<2 -> [M, N]>",
        "%x_v = view.load(%x, %rel) : f32[M, N]",
        "view.store(%y, %rel, %x_v)",
        "}",
    ]


@I.kernel
def stepped(x: I.In[I.f32, ("N",)], y: I.Out[I.f32, ("N",)]):
    evens = I.domain(0, N, 2)  # noqa: F821
    for i in evens:
        y[i] = x[i]


def test_L3_1_domain_step_gives_a_floordiv_extent():
    """[L3.1] domain(begin, end, step): extent floordiv(end - begin + step - 1, step)."""
    has(body(stepped), "domain(%c0, %n, %c2) : domain<floordiv(N + 1, 2)>")


@I.kernel
def negative_step(x: I.In[I.f32, ("N",)]):
    I.domain(0, N, -1)  # noqa: F821  <- step


def test_L3_1_negative_step_is_rejected_at_its_line():
    """[L3.1] [L3.2] a non-positive step is an error pointing at the Python line."""
    rejects(negative_step, "L3.1", line_of(negative_step, "<- step"), "explicit forward counter")


@I.kernel
def window(x: I.In[I.f32, ("N",)], y: I.Out[I.f32, ("N",)], lo: I.index, hi: I.index):
    cols = I.domain(0, N)  # noqa: F821
    w = cols[lo:hi]
    y[w] = x[w]


def test_L3_3_slicing_a_domain_is_a_subregion():
    """[L3.3] [L3.4] axis[begin:end] is a source-derived subregion; indexing by it uses source coordinates."""
    has(body(window), "subregion(%d, %lo, %hi) : subregion<%hi - %lo>", "indices(%sub) : index[%hi - %lo]",
        "view.load(%x, %rel) : f32[%hi - %lo]")


@I.kernel
def scaled(x: I.In[I.f32, ("N",)], y: I.Out[I.f32, ("N",)], s: I.f32):
    n = I.domain(0, N)  # noqa: F821
    y[n] = x[n] * s + 1.5


def test_L4_1_scalars_broadcast_explicitly_and_L2_4_runtime_scalar():
    """[L2.4] [L4.1] a runtime scalar parameter and a Python literal broadcast explicitly."""
    has(body(scaled), "kernel @scaled(%x: In<f32[N]>, %y: Out<f32[N]>, %s: f32)",
        "%s_b = broadcast(%s) {dims = []} : f32[N]", "mul(%x_v, %s_b) : f32[N]",
        "const() {value = 1.5} : f32", "add(%t, %c_b) : f32[N]")


@I.kernel
def literal_rounding(y: I.Out[I.f32, ("N",)]):
    n = I.domain(0, N)  # noqa: F821
    y[n] = I.full((N,), 0.1, dtype=I.f32)  # noqa: F821


def test_L4_9_full_and_float_literals_round_to_the_dtype():
    """[L4.9] [L4.14] a Python float literal becomes the nearest f32, spelled exactly."""
    has(body(literal_rounding), "const() {value = 0x1.99999ap-4} : f32", "full(%c) : f32[N]")


@I.kernel
def mixed_dtypes(x: I.In[I.f16, ("N",)], y: I.In[I.f32, ("N",)]):
    n = I.domain(0, N)  # noqa: F821
    x[n] + y[n]  # <- mixed


def test_L4_14_mixed_dtypes_need_an_explicit_cast():
    """[L4.14] no implicit dtype conversion."""
    rejects(mixed_dtypes, "L4.14", line_of(mixed_dtypes, "<- mixed"), "intent.cast")


@I.kernel
def dyn_mismatch(x: I.In[I.f32, ("M",)], y: I.In[I.f32, ("N",)]):
    a = x[I.domain(0, M)]  # noqa: F821
    b = y[I.domain(0, N)]  # noqa: F821
    a + b  # <- dyn


def test_L4_2_two_dynamic_extents_do_not_broadcast():
    """[L4.2] M and N are not compatible merely because both are dynamic."""
    rejects(dyn_mismatch, "L4.2", line_of(dyn_mismatch, "<- dyn"), "not provably equal")


@I.kernel
def write_in(x: I.In[I.f32, ("N",)]):
    x[0] = x[1]  # <- write


def test_L2_1_writing_an_in_view_is_rejected():
    """[L2.1]"""
    rejects(write_in, "L2.1", line_of(write_in, "<- write"), "read-only")


@I.kernel
def shapes(x: I.In[I.f32, ("M", "N")], y: I.Out[I.f32, ("N", "M")]):
    m, n = x.shape
    v = x[I.domain(0, m), I.domain(0, n)]
    y[I.domain(0, n), I.domain(0, m)] = I.transpose(v)


def test_L4_8_shape_and_L4_7_transpose():
    """[L4.8] [L4.7] .shape keeps extent identity; transpose without perm reverses the axes."""
    has(body(shapes), "%x_d0 = dim(%x) {axis = 0} : index", "transpose(%x_v) {perm = [1, 0]} : f32[N, M]")


# ---- math ---------------------------------------------------------------------------------------------

@I.kernel
def math_ops(x: I.In[I.f32, ("N",)], y: I.Out[I.f32, ("N",)]):
    n = I.domain(0, N)  # noqa: F821
    v = x[n]
    y[n] = I.exp2(I.erf(v) + I.fdiv(v, I.sqrt(v)), approximate=True) - I.tanh(v)


def test_L4_3_unary_math_and_L4_5_options():
    """[L4.3] [L4.4] [L4.5] unary math; fdiv and exp2/tanh options are attributes of the one op."""
    has(body(math_ops), "erf(%x_v) : f32[N]", "sqrt(%x_v) : f32[N]", "div(%x_v, %sqrt) : f32[N]",
        "exp2(%t_1) {approximate = true} : f32[N]", "tanh(%x_v) : f32[N]")


@I.kernel
def int_math(x: I.In[I.i32, ("N",)]):
    I.exp(x[I.domain(0, N)])  # noqa: F821  <- exp


def test_L4_3_unary_math_needs_a_float():
    """[L4.3]"""
    rejects(int_math, "L4.3", line_of(int_math, "<- exp"), "floating")


@I.kernel
def floor_div(x: I.In[I.i32, ("N",)], y: I.Out[I.i32, ("N",)]):
    n = I.domain(0, N)  # noqa: F821
    y[n] = x[n] // 2  # <- floordiv


def test_L4_14_python_floor_division_on_signed_values_is_not_kir_div():
    """[L4.14] Python's // floors, KIR's div truncates: the frontend refuses to guess."""
    rejects(floor_div, "L4.14", line_of(floor_div, "<- floordiv"), "intent.div")


# ---- control ------------------------------------------------------------------------------------------

@I.kernel
def prefix_max(x: I.In[I.f32, ("N",)], y: I.Out[I.f32, ("N",)]):
    best = I.cast(float("-inf"), I.f32)
    for i in I.domain(0, N):  # noqa: F821
        best = I.maximum(best, x[i])
        y[i] = best


def test_L6_1_for_over_a_domain_with_a_carry():
    """[L6.1] a variable updated in a loop is a carry of the for op."""
    assert body(prefix_max)[1:] == [
        "%c = const() {value = -inf} : f32",
        "%c0 = const() {value = 0} : index",
        "%n = dim(%x) {axis = 0} : index",
        "%d = domain(%c0, %n) : domain<N>",
        "%best = for(%d, %c) : f32 region(%i: index, %best_1: f32) {",
        "%rel = relation(%i) : relation<1 -> []>",
        "%x_v = view.load(%x, %rel) : f32",
        "%t = max(%best_1, %x_v) : f32",
        "view.store(%y, %rel, %t)",
        "yield(%t)",
        "}",
        "}",
    ]


@I.kernel
def untyped_carry(x: I.In[I.f32, ("N",)]):
    acc = 0.0
    for i in I.domain(0, N):  # noqa: F821  <- loop
        acc = acc + x[i]


def test_L6_2_a_python_constant_carry_needs_a_dtype():
    """[L6.2] the carry's schema must be known before the loop."""
    rejects(untyped_carry, "L6.2", line_of(untyped_carry, "<- loop"), "intent.cast(0.0, intent.f32)")


@I.kernel
def widening_carry(x: I.In[I.f32, ("N",)]):
    acc = I.cast(0.0, I.f32)
    for i in I.domain(0, N):  # noqa: F821  <- loop
        acc = acc + x[I.domain(0, N)]  # noqa: F821


def test_L6_2_broadcast_in_the_body_does_not_widen_a_carry():
    """[L6.2]"""
    rejects(widening_carry, "L6.2", line_of(widening_carry, "<- loop"), "carry 0 ('acc') has type f32")


@I.kernel
def branches(x: I.In[I.f32, ("N",)], y: I.Out[I.f32, ("N",)], flag: I.bool, MODE: I.Constexpr[int] = 1):
    n = I.domain(0, N)  # noqa: F821
    v = x[n]
    if MODE == 2:
        v = v * 2.0
    if flag:
        w = I.exp(v)
    else:
        w = v
    y[n] = w


def test_L2_5_constexpr_selects_a_branch_and_L6_1_runtime_if_yields():
    """[L2.5] [L6.1] a constexpr `if` chooses statically; a runtime bool `if` is a structured if."""
    lines = body(branches)
    has(lines, "constexpr %MODE: i64 = 1", "%w = if(%flag) : f32[N] region() {", "yield(%exp)", "yield(%x_v)")
    assert not any("mul" in ln for ln in lines)
    has(body(branches, MODE=2), "mul(%x_v, %c_b) : f32[N]")


@I.kernel
def tensor_if(x: I.In[I.f32, ("N",)]):
    v = x[I.domain(0, N)]  # noqa: F821
    if v > 0.0:  # <- if
        pass


def test_L6_3_a_tensor_predicate_is_not_an_if_condition():
    """[L6.3]"""
    rejects(tensor_if, "L6.3", line_of(tensor_if, "<- if"), "intent.select")


@I.kernel
def count_up(y: I.Out[I.i32, ("N",)], limit: I.i32):
    k = I.cast(0, I.i32)
    while k < limit:
        k = k + 1
    y[0] = k


def test_L6_1_while_with_a_carry():
    """[L6.1] `while` lowers to the while op: a condition region and a body region."""
    has(body(count_up), "%k = while(%c0) : i32 region(%k_1: i32) {", "condition(%t, %k_1)", "} region(%k_2: i32) {",
        "yield(%t_1)")


@I.kernel
def par_rows(x: I.In[I.f32, ("M", "N")], s: I.In[I.f32, ("M",)], y: I.Out[I.f32, ("M", "N")]):
    cols = I.domain(0, N)  # noqa: F821
    for r in I.parallel(I.domain(0, M)):  # noqa: F821
        y[r, cols] = x[r, cols] * s[r]


def test_L5_1_parallel_iteration():
    """[L5.1] for over intent.parallel is the parallel op."""
    has(body(par_rows), "parallel(%d_1) region(%r: index) {", "relation(%r, %d_i) : relation<2 -> [N]>",
        "yield()")


@I.kernel
def par_carry(x: I.In[I.f32, ("N",)]):
    acc = I.cast(0.0, I.f32)
    for i in I.parallel(I.domain(0, N)):  # noqa: F821  <- par
        acc = acc + x[i]


def test_L5_1_parallel_has_no_carries():
    """[L5.1]"""
    rejects(par_carry, "L5.1", line_of(par_carry, "<- par"), "no loop-carried values")


# ---- helpers ------------------------------------------------------------------------------------------

@I.fn
def axpy(a, x, y, *, twice=False):
    r = a * x + y
    return r + r if twice else r


@I.kernel
def helper_calls(x: I.In[I.f32, ("N",)], y: I.Out[I.f32, ("N",)], a: I.f32):
    n = I.domain(0, N)  # noqa: F821
    v = x[n]
    y[n] = axpy(I.full((N,), a), v, y=v, twice=True)  # noqa: F821


def test_L1_4_helper_binding_and_L1_2_specialization():
    """[L1.2] [L1.4] [L1.6] positional, keyword and keyword-only binding; a helper specialized on its
    argument types with its own extent symbols."""
    lines = body(helper_calls)
    has(lines, "fn @axpy(%a: f32[A0], %x: f32[A0], %y: f32[A0]) -> f32[A0] {", "return(%t_2)",
        "%axpy = call(%full, %x_v, %x_v) {callee = @axpy} : f32[N]")


@I.fn
def forever(x):
    return forever(x)


@I.kernel
def recursive(x: I.In[I.f32, ("N",)]):
    forever(x[0])


def test_L1_3_recursion_is_rejected():
    """[L1.3]"""
    with pytest.raises(IntentError) as ei:
        recursive.kir
    assert ei.value.rule == "L1.3" and "recursive helper call (forever -> forever)" in ei.value.message
    assert str(ei.value).endswith(" (kir explain L1.3)")  # as every kir message: the command explaining its rule


import numpy as _np  # noqa: E402

TABLE = _np.arange(4.0)


@I.kernel
def runtime_capture(y: I.Out[I.f64, ("N",)]):
    y[0] = TABLE[0]  # <- capture


def test_L1_3_runtime_captures_are_rejected():
    """[L1.3] only immutable constexpr values are captured lexically."""
    rejects(runtime_capture, "L1.3", line_of(runtime_capture, "<- capture"), "explicit parameter")


@I.kernel
def launches(x: I.In[I.f32, ("N",)], y: I.Out[I.f32, ("N",)]):
    copy2d(x, y)  # <- launch


def test_L1_3_a_kernel_cannot_launch_a_kernel():
    """[L1.3] [L1.1]"""
    rejects(launches, "L1.3", line_of(launches, "<- launch"), "hidden launch")


@I.kernel
def uses_partition(x: I.In[I.f32, ("N",)]):
    I.partition(I.domain(0, N), 4)  # noqa: F821  <- partition


@I.kernel
def uses_program_id(x: I.In[I.f32, ("N",)]):
    I.program_id(0)  # <- pid


@I.kernel
def uses_softmax(x: I.In[I.f32, ("N",)]):
    I.softmax(x)  # <- softmax


@I.kernel
def uses_ordered(x: I.In[I.f32, ("N",)]):
    I.ordered(I.domain(0, N))  # noqa: F821  <- ordered


@I.kernel
def uses_state_stream(x: I.In[I.f32, ("N",)]):
    I.state_stream(x)  # <- stream


@pytest.mark.parametrize("k,rule,marker", [(uses_partition, "L18.1", "<- partition"),
                                           (uses_program_id, "L19.1", "<- pid"),
                                           (uses_softmax, "L19.1", "<- softmax"),
                                           (uses_ordered, "L6.3", "<- ordered"),
                                           (uses_state_stream, "L6.4", "<- stream")])
def test_L19_1_names_not_in_the_language(k, rule, marker):
    """[L18.1] [L19.1] [L6.3] [L6.4] partition, program ids, whole-operator ops, ordered, state_stream."""
    rejects(k, rule, line_of(k, marker), "not in the Intent language")


# ---- structured ops ---------------------------------------------------------------------------------------

@I.kernel
def row_sums(x: I.In[I.f16, ("M", "N")], y: I.Out[I.f32, ("M",)], z: I.Out[I.f16, ("M",)]):
    rows, cols = I.domain(0, M), I.domain(0, N)  # noqa: F821
    v = x[rows, cols]
    y[rows] = I.reduce.sum(v, axis=-1)
    z[rows] = I.reduce.max(v, axis=1)


def test_L7_6_builtin_reduces_normalize_with_default_widening():
    """[L7.6] [L7.5] reduce.sum of f16 accumulates in f32 (cast first); reduce.max keeps f16."""
    has(body(row_sums), "cast(%x_v) : f32[M, N]", "reduce(%sum.src, %sum.id) {axes = [1], combine = "
        "@__kir_sum_f32_r1} : f32[M]", "combine = @__kir_max_f16_r1} : f16[M]")


@I.fn
def add(a, b):
    return a + b


@I.kernel
def generic_reduce(x: I.In[I.f32, ("M", "N")], y: I.Out[I.f32, ("M",)], c: I.Out[I.f32, ("M", "N")]):
    rows, cols = I.domain(0, M), I.domain(0, N)  # noqa: F821
    v = x[rows, cols]
    y[rows] = I.reduce(v, axis=1, identity=I.cast(0, I.f32), combine=add)
    c[rows, cols] = I.scan(v, axis=1, identity=0.0, combine=add, inclusive=False)


def test_L7_1_generic_reduce_and_L8_1_scan_with_a_helper_combine():
    """[L7.1] [L7.2] [L7.4] [L8.1] the combine is a helper over accumulators (the source less the axes)."""
    has(body(generic_reduce), "fn @add(%a: f32[A0], %b: f32[A0]) -> f32[A0] {",
        "reduce(%x_v, %identity) {axes = [1], combine = @add} : f32[M]",
        "scan(%x_v, %identity_1) {axis = 1, combine = @add, inclusive = false, reverse = false} : f32[M, N]")


@I.kernel
def prefix(x: I.In[I.f16, ("M", "N")], y: I.Out[I.f32, ("M", "N")]):
    rows, cols = I.domain(0, M), I.domain(0, N)  # noqa: F821
    y[rows, cols] = I.cumsum(x[rows, cols], axis=-1)


def test_L8_2_cumsum_widens_and_normalizes_to_scan():
    """[L8.2]"""
    has(body(prefix), "scan(", ": f32[M, N]")


@I.kernel
def gemm(a: I.In[I.f16, ("M", "K")], b: I.In[I.f16, ("K", "N")], c: I.Out[I.f32, ("M", "N")]):
    m, k, n = I.domain(0, M), I.domain(0, K), I.domain(0, N)  # noqa: F821
    c[m, n] = I.matmul(a[m, k], b[k, n], acc_dtype=I.f32)


def test_L10_1_matmul_normalizes_to_contract():
    """[L10.1] [L10.2]"""
    has(body(gemm), "contract(%a_v, %b_v) {batch = [], reduce = [[1, 0]]} : f32[M, N]")


@I.kernel
def gemm_bad_k(a: I.In[I.f16, ("M", "K")], b: I.In[I.f16, ("N", "K")]):
    m, k, n = I.domain(0, M), I.domain(0, K), I.domain(0, N)  # noqa: F821
    I.matmul(a[m, k], b[n, k], acc_dtype=I.f32)  # <- mm


def test_L10_1_matmul_k_must_match():
    """[L10.1] K is never broadcast."""
    rejects(gemm_bad_k, "L10.1", line_of(gemm_bad_k, "<- mm"), "K extents K and N differ")


@I.kernel
def generic_contract(a: I.In[I.f32, ("K", "M")], b: I.In[I.f32, ("K", "N")], c: I.Out[I.f64, ("M", "N")]):
    m, k, n = I.domain(0, M), I.domain(0, K), I.domain(0, N)  # noqa: F821
    c[m, n] = I.contract(I.cast(a[k, m], I.f64), I.cast(b[k, n], I.f64), reduce=((0, 0),), acc_dtype=I.f64)


def test_L10_4_generic_contract_result_axes():
    """[L10.4] lhs free axes then rhs free axes."""
    has(body(generic_contract), "contract(%a_v_f64, %b_v_f64) {batch = [], reduce = [[0, 0]]} : f64[M, N]")


class Mode(I.Enum):
    FAST = 0
    EXACT = 1


@I.kernel
def with_enum(x: I.In[I.f32, ("N",)], y: I.Out[I.f32, ("N",)], MODE: I.Constexpr[Mode] = Mode.EXACT):
    n = I.domain(0, N)  # noqa: F821
    if MODE == Mode.FAST:
        y[n] = I.exp2(x[n], approximate=True)
    else:
        y[n] = I.exp2(x[n])


def test_L2_6_enum_constexpr_selects_a_branch():
    """[L2.6] an enum is a closed constexpr type; its member selects a branch."""
    lines = body(with_enum)
    has(lines, "enum @Mode { FAST = 0, EXACT = 1 }", "constexpr %MODE: enum<@Mode> = @Mode::EXACT", "exp2(%x_v) : f32[N]")
    has(body(with_enum, MODE=Mode.FAST), "exp2(%x_v) {approximate = true} : f32[N]")


def test_L2_6_enums_are_closed_and_do_not_mix():
    """[L2.6]"""
    class Other(I.Enum):
        A = 0
    with pytest.raises(TypeError):
        Mode.FAST == Other.A
    with pytest.raises(TypeError):
        class Empty(I.Enum):
            pass
    with pytest.raises(TypeError):
        class Twice(I.Enum):
            A = 0
            B = 0


@I.fn
def pair(a, b):
    return a + b, a * b


@I.kernel
def tuples(x: I.In[I.f32, ("N",)], y: I.Out[I.f32, ("N",)]):
    n = I.domain(0, N)  # noqa: F821
    s, p = pair(x[n], x[n])
    r = I.record(sum=s, prod=p)
    y[n] = r.sum - r.prod


def test_L4_11_tuples_destructure_and_L4_12_records_select_fields():
    """[L4.11] [L4.12] a tuple-returning helper has several results; record fields are static."""
    has(body(tuples), "fn @pair(%a: f32[A0], %b: f32[A0]) -> (f32[A0], f32[A0]) {",
        "%pair, %pair_1 = call(%x_v, %x_v_1) {callee = @pair} : (f32[N], f32[N])", "sub(%pair, %pair_1) : f32[N]")


@I.kernel
def uses_lambda(x: I.In[I.f32, ("N",)]):
    f = lambda v: v  # noqa: E731  <- lambda


def test_python_constructs_without_a_lowering_fail_loudly():
    """A Python construct the frontend has no lowering for is a located 'not implemented' error."""
    with pytest.raises(IntentError) as ei:
        uses_lambda.kir
    assert "not implemented: the Python expression `Lambda`" in ei.value.message
    assert ei.value.line == line_of(uses_lambda, "<- lambda")


def test_kir_errors_point_at_the_python_line():
    """[L2.2] A rule only the C++ verifier checks (reading an Out view before writing it) is still
    reported at the author's Python line."""

    @I.kernel
    def reads_out(y: I.Out[I.f32, ("N",)], z: I.Out[I.f32, ("N",)]):
        n = I.domain(0, N)  # noqa: F821
        z[n] = y[n]  # <- read out

    with pytest.raises(I.KirError) as ei:
        reads_out.kir
    want = f"test_dsl_lowering.py:{line_of(reads_out, '<- read out')}:"
    assert want in str(ei.value) and "L2.2" in str(ei.value)


# ---- memory, atomics, RNG, histogram ---------------------------------------------------------------------

@I.kernel
def gathers(table: I.In[I.f32, ("V", "H")], ids: I.In[I.i32, ("T",)], y: I.Out[I.f32, ("T", "H")],
            z: I.Out[I.f32, ("T",)]):
    t, h = I.domain(0, T), I.domain(0, H)  # noqa: F821
    y[t, h] = table[ids[t], h]
    z[t] = I.gather(table, ids[t], 0, valid=I.cast(ids[t], I.index) < V, fill=-1.0)  # noqa: F821


def test_L15_1_indexing_by_data_and_L15_2_masked_gather_with_fill():
    """[L15.1] [L15.2] [L15.3] data-derived coordinates; a masked relation reads the fill."""
    has(body(gathers), "relation(%ids_v_b, %d_1_i_b) : relation<2 -> [T, H]>",
        "view.load(%table, %rel_1) : f32[T, H]", "relation<2 -> [T], masked>", "view.load(%table, %rel_3, %c) : f32[T]")


@I.kernel
def gather_no_fill(table: I.In[I.f32, ("V",)], ids: I.In[I.i32, ("T",)]):
    t = I.domain(0, T)  # noqa: F821
    I.gather(table, ids[t], valid=ids[t] < 3)  # <- nofill


def test_L15_2_a_masked_gather_needs_its_fill():
    """[L15.2]"""
    rejects(gather_no_fill, "L15.2", line_of(gather_no_fill, "<- nofill"), "fill=")


@I.fn
def add_scaled(old, new, alpha):
    return old + new * alpha


@I.kernel
def scatters(src: I.In[I.f32, ("T",)], ids: I.In[I.i32, ("T",)], out: I.Out[I.f32, ("N",)], alpha: I.f32):
    t, n = I.domain(0, T), I.domain(0, N)  # noqa: F821
    buf = I.buffer((N,), dtype=I.f32, init=0.0)
    I.scatter_reduce(buf, ids[t], value=src[t], combine=add_scaled, operands=alpha)
    out[n] = buf[n]


def test_L15_4_buffers_and_L15_3_scatter_reduce_with_a_capture():
    """[L15.4] [L15.3] [L7.2] a kernel-local buffer; scatter_reduce with an explicit capture."""
    has(body(scatters), "buffer.alloc(%c) : buffer<f32[N]>", "fn @add_scaled(%old: f32, %new: f32, %alpha: f32) -> f32",
        "scatter_reduce(%buf, %rel_1, %src_v, %alpha) {combine = @add_scaled}", "buffer.load(%buf, %rel_2) : f32[N]")


@I.kernel
def atomics(out: I.InOut[I.i32, ("N",)]):
    for i in I.parallel(I.domain(0, N)):  # noqa: F821
        old = I.atomic.add(out[0], 1)
        r = I.atomic.compare_exchange(out[1], 0, old, order="acq_rel")
        I.atomic.store(out[2], r.old_value, order="release")


def test_L16_1_atomics_on_element_addresses():
    """[L16.1] rmw, compare_exchange returning {old_value, success}, store with an order; no scope."""
    has(body(atomics), "atomic.rmw(%out, %rel, %c1) {kind = add, order = relaxed} : i32",
        "atomic.compare_exchange(%out, %rel_1, %c0_1, %old) {order = acq_rel} : record<old_value: i32, success: bool>",
        "record.get(%cas) {field = old_value} : i32", "atomic.store(%out, %rel_2, %old_value) {order = release}")


@I.kernel
def bad_order(out: I.Out[I.i32, ("N",)]):
    I.atomic.store(out[0], 1, order="acquire")  # <- order


def test_L16_1_store_order_is_relaxed_or_release():
    """[L16.1]"""
    rejects(bad_order, "L16.1", line_of(bad_order, "<- order"), "relaxed, release")


@I.kernel
def rng(y: I.Out[I.f32, ("N",)], b: I.Out[I.u32, ("N",)], seed: I.u64):
    n = I.domain(0, N)  # noqa: F821
    y[n] = I.random.uniform(seed, n, dtype=I.f32)
    b[n] = I.random.bits(seed, n)


def test_L17_1_random_bits_and_L17_2_uniform_from_a_counter():
    """[L17.1] [L17.2] counter-based: the counter is the logical index."""
    has(body(rng), "random.uniform(%seed, %d_i) : f32[N]", "random.bits(%seed, %d_i) : u32[N]")


@I.kernel
def hist(ids: I.In[I.i32, ("T",)], counts: I.Out[I.i32, ("B",)]):
    t = I.domain(0, T)  # noqa: F821
    counts[I.domain(0, B)] = I.histogram(ids[t], bins=B, valid=ids[t] >= 0, count_dtype=I.i32)  # noqa: F821


def test_L13_1_histogram():
    """[L13.1] bins is the output extent; valid masks lanes."""
    has(body(hist), "histogram(%ids_v, %b, %t_1) : i32[B]")


# ---- break / continue -----------------------------------------------------------------------------------

@I.kernel
def first_negative(x: I.In[I.f32, ("N",)], y: I.Out[I.index, ("N",)]):
    pos = I.cast(0, I.index)
    for i in I.domain(0, N):  # noqa: F821
        if x[i] < 0.0:
            break
        pos = i + 1
    y[0] = pos


def test_L6_3_break_inside_an_if_carries_the_loop_values():
    """[L6.3] break is structured: it ends its region and passes the carries."""
    has(body(first_negative), "%pos = for(%d, %c0) : index region(%i: index, %pos_1: index) {",
        "break(%pos_1)", "yield(%t_1)")


@I.kernel
def break_in_parallel(x: I.In[I.f32, ("N",)]):
    for i in I.parallel(I.domain(0, N)):  # noqa: F821
        break  # <- brk


def test_L6_3_no_break_in_parallel():
    """[L6.3]"""
    rejects(break_in_parallel, "L6.3", line_of(break_in_parallel, "<- brk"), "parallel")


# ---- region fold / scan -----------------------------------------------------------------------------------

@I.fn
def slice_sum(x):
    return I.reduce.sum(x, axis=0)


@I.fn
def plus(a, b):
    return a + b


@I.kernel
def folded(x: I.In[I.f32, ("N",)], y: I.Out[I.f32, ("N",)]):
    n = I.domain(0, N)  # noqa: F821
    y[0] = I.region_fold(source=x[n], axis=0, summarize=slice_sum, combine=plus, identity=I.cast(0.0, I.f32))


def test_L9_1_region_fold_with_helper_summarize_and_combine():
    """[L9.1] [L9.3] summarize sees a slice of its own extent; the summary has the identity's type."""
    lines = body(folded)
    has(lines, "fn @slice_sum(%x: f32[A0]) -> f32 {", "fn @plus(%a: f32, %b: f32) -> f32 {",
        "region_fold(%x_v, %c) {axis = 0, combine = @plus, segments = [1, 1, 0], summarize = @slice_sum} : f32")


@I.fn
def peeks(x):
    return I.cast(I.cast(x.shape[0], I.i64), I.f32)  # <- peek


@I.kernel
def observes_slice(x: I.In[I.f32, ("N",)], y: I.Out[I.f32, ("N",)]):
    y[0] = I.region_fold(source=x[I.domain(0, N)], axis=0, summarize=peeks, combine=plus,  # noqa: F821
                         identity=I.cast(0.0, I.f32))


def test_L9_2_summarize_may_not_observe_the_slice_extent():
    """[L9.2] the verifier's rule reaches the author at the helper's Python line."""
    with pytest.raises(I.KirError) as ei:
        observes_slice.kir
    assert "L9." in str(ei.value) and f"test_dsl_lowering.py:{line_of(peeks, '<- peek')}:" in str(ei.value)


@I.kernel
def ragged_rows(x: I.In[I.f32, ("R",)], offsets: I.In[I.i32, ("G1",)], mapping: I.In[I.i32, ("R",)],
                y: I.Out[I.f32, ("G1",)], z: I.Out[I.i32, ("G1",)]):
    src = I.domain(0, R)  # noqa: F821
    for g in I.domain(0, G1 - 1):  # noqa: F821
        members = I.members(src, offsets, g)
        y[g] = I.reduce.sum(x[members], axis=0)
        z[g] = I.reduce.sum(I.ragged(src, offsets, g, mapping=mapping), axis=0)


def test_L14_1_ragged_groups_are_offset_subregions():
    """[L14.1] members/ragged are surface helpers over a subregion (and an optional mapping)."""
    has(body(ragged_rows), "%members = subregion(%d, %offsets_v_idx, %offsets_v_1_idx) : "
        "subregion<%offsets_v_1_idx - %offsets_v_idx>", "view.load(%mapping, %rel_4) : i32[-%offsets_v_2_idx + %offsets_v_3_idx]")


# ---- more shapes and contracts ----------------------------------------------------------------------------

@I.kernel
def shape_ops(x: I.In[I.f32, ("M", "N")], y: I.Out[I.f32, ("N", "M", 2)], z: I.Out[I.f32, ("M", "N")]):
    rows, cols = I.domain(0, M), I.domain(0, N)  # noqa: F821
    v = x[rows, cols]
    t = I.transpose(v, (1, 0))
    y[cols, rows, I.domain(0, 2)] = I.join(t, t * 2.0)
    z[rows, cols] = I.reshape(I.reshape(v, (M * N,)), (M, N))  # noqa: F821


def test_L4_6_reshape_and_L4_10_join():
    """[L4.6] [L4.7] [L4.10] reshape keeps the element count; join adds a trailing axis of 2."""
    has(body(shape_ops), "transpose(%x_v) {perm = [1, 0]} : f32[N, M]", "join(%x_v_t, %t) : f32[N, M, 2]",
        "reshape(%x_v) : f32[M*N]", "reshape(%x_v_r) : f32[M, N]")


@I.kernel
def bad_perm(x: I.In[I.f32, ("M", "N")]):
    I.transpose(x[I.domain(0, M), I.domain(0, N)], (0, 0))  # noqa: F821  <- perm


def test_L4_7_a_permutation_names_every_axis_once():
    """[L4.7]"""
    rejects(bad_perm, "L4.7", line_of(bad_perm, "<- perm"), "not a permutation")


@I.kernel
def argmax(x: I.In[I.f32, ("M", "N")], v: I.Out[I.f32, ("M",)], i: I.Out[I.index, ("M",)]):
    rows, cols = I.domain(0, M), I.domain(0, N)  # noqa: F821
    val, idx = I.arg_reduce.max(x[rows, cols], axis=-1)
    v[rows] = val
    i[rows] = idx


def test_L7_7_arg_reduce_max_returns_values_and_index_positions():
    """[L7.7] the normalizer's reduce over (value, position) pairs; indices are index."""
    lines = body(argmax)
    has(lines, ": tuple<f32[M], index[M]>", "tuple.get(")


@I.kernel
def outer_dot(a: I.In[I.f32, ("M",)], b: I.In[I.f32, ("N",)], c: I.Out[I.f32, ("M", "N")], d: I.Out[I.f32, ("M",)]):
    m, n = I.domain(0, M), I.domain(0, N)  # noqa: F821
    c[m, n] = I.outer(a[m], b[n])
    d[0] = I.dot(a[m], a[m], acc_dtype=I.f32)[()]


def test_L10_3_outer_is_a_broadcast_multiply_and_L10_1_dot():
    """[L10.3] [L10.1] outer is no contract; dot is a rank-0 contract."""
    lines = body(outer_dot)
    has(lines, "mul(", "contract(%a_v_1, %a_v_2) {batch = [], reduce = [[0, 0]]} : f32[]")
    assert sum("contract(" in ln for ln in lines) == 1


@I.kernel
def scaled_mm(lhs: I.In[I.u8, ("M", "G", 16)], ls: I.In[I.e8m0, ("M", "G")], rhs: I.In[I.u8, ("G", 32, "N")],
           rs: I.In[I.e8m0, ("N", "G")], y: I.Out[I.f32, ("M", "N")]):
    m, g, n = I.domain(0, M), I.domain(0, G), I.domain(0, N)  # noqa: F821
    y[m, n] = I.scaled_matmul(lhs[m, g, I.domain(0, 16)], ls[m, g], rhs[g, I.domain(0, 32), n], rs[n, g],
                              lhs_format=I.e2m1, rhs_format=I.e4m3, group_size=32, acc_dtype=I.f32)


def test_L11_1_scaled_matmul_normalizes_to_the_closed_scaled_contract():
    """[L11.1]"""
    has(body(scaled_mm), "scaled_contract(%lhs_v, %ls_v, %rhs_v, %rs_v) {batch = [], lhs_format = e2m1, "
        "lhs_group_size = 32, reduce = [[1, 0], [2, 1]], rhs_format = e4m3, rhs_group_size = 32} : f32[M, N]")


@I.kernel
def sparse(c: I.In[I.f16, ("M", 32)], meta: I.In[I.u8, ("M", 32)], rhs: I.In[I.f16, (64, "N")],
           y: I.Out[I.f32, ("M", "N")]):
    m, k, n = I.domain(0, M), I.domain(0, 32), I.domain(0, N)  # noqa: F821
    y[m, n] = I.sparse_matmul(c[m, k], meta[m, k], rhs[I.domain(0, 64), n], format=I.sparse.two_of_four,
                              acc_dtype=I.f32)


def test_L12_1_sparse_matmul_with_the_two_of_four_schema():
    """[L12.1]"""
    has(body(sparse), "sparse_contract(%c_v, %meta_v, %rhs_v) {batch = [], format = two_of_four, "
        "reduce = [[1, 0]]} : f32[M, N]")


@I.kernel
def q8(x: I.In[I.f32, ("N", 256)], d: I.Out[I.f32, ("N", 1)]):
    rows, k = I.domain(0, N), I.domain(0, 256)  # noqa: F821
    d[rows, I.domain(0, 1)] = I.quantize(x[rows, k], format=I.quant.q8_k).d


def test_L11_3_quantize_produces_the_q8_k_record():
    """[L11.3]"""
    has(body(q8), "quantize(%x_v) {format = q8_k} : record<d: f32[N, 1], qs: i8[N, 256], bsums: i16[N, 16]>",
        "record.get(%q) {field = d} : f32[N, 1]")


@I.kernel
def tuple_param(x: tuple):
    pass


def test_L4_13_tuples_are_never_kernel_parameters():
    """[L4.13]"""
    with pytest.raises(IntentError) as ei:
        tuple_param.kir
    assert ei.value.rule == "L4.13"


# ---- extents as values, constexpr control ------------------------------------------------------------------

@I.fn
def rows_of(x, n):
    return I.reduce.sum(x, axis=0) * I.cast(I.cast(n, I.i64), I.f32)


@I.kernel
def extent_args(x: I.In[I.f32, ("N",)], y: I.Out[I.f32, ("N",)], K: I.Constexpr[int] = 3):
    n = I.domain(0, N)  # noqa: F821
    y[0] = rows_of(x[n], N)  # noqa: F821
    y[1] = I.cast(I.cast(I.div(N, x.shape[0]), I.i64), I.f32)  # noqa: F821
    if K in (1, 3):
        y[2] = x[0]


def test_L1_4_extents_pass_to_helpers_and_ops_as_index_values():
    """[L1.4] [L4.8] an extent symbol or .shape entry is an index value where a value is needed."""
    has(body(extent_args), "fn @rows_of(%x: f32[A0], %n: index) -> f32 {", "call(%x_v, %n) {callee = @rows_of} : f32",
        "div(%n, %n) : index", "view.load(%x, %rel_1) : f32")


@I.fn
def pick(a, b, FIRST):
    if FIRST:
        return a
    return b


@I.kernel
def early_return(x: I.In[I.f32, ("N",)], y: I.Out[I.f32, ("N",)]):
    y[0] = pick(x[0], x[1], True) + pick(x[0], x[1], False)


def test_L2_5_a_return_in_a_constexpr_branch_ends_the_helper():
    """[L2.5] [L1.2] the branch is chosen while lowering; what follows a taken return is not lowered."""
    has(body(early_return), "fn @pick(%a: f32, %b: f32) -> f32 {", "return(%a)", "fn @pick_1(%a: f32, %b: f32) -> f32 {",
        "return(%b)")


@I.fn
def runtime_return(a, c):
    if c:
        return a  # <- ret
    return a + a


@I.kernel
def uses_runtime_return(x: I.In[I.f32, ("N",)], y: I.Out[I.f32, ("N",)], c: I.bool):
    y[0] = runtime_return(x[0], c)


def test_L6_1_return_under_runtime_control_is_rejected():
    """[L6.1] a structured if has no early exit: the author assigns and returns after it."""
    with pytest.raises(IntentError) as ei:
        uses_runtime_return.kir
    assert ei.value.rule == "L6.1" and ei.value.line == line_of(runtime_return, "<- ret")


N_CONST = 4


@I.kernel
def ambiguous(x: I.In[I.f32, ("N_CONST",)]):
    I.domain(0, N_CONST)  # <- ambiguous


def test_L4_2_an_extent_symbol_that_is_also_a_python_constant_is_ambiguous():
    """[L4.2] the runtime extent and a global constant of one name: never silently the constant."""
    rejects(ambiguous, "L4.2", line_of(ambiguous, "<- ambiguous"), "rename one of them")


def test_a_kernel_without_source_text_is_a_clear_error():
    """exec'd or interactive definitions have no source for the AST lowering."""
    ns = {"I": I}
    exec("@I.kernel\ndef k(x: I.In[I.f32, ('N',)]):\n    pass\n", ns)
    with pytest.raises(IntentError, match="source of 'k' is not available"):
        ns["k"].kir


@I.kernel
def strided_subregion(x: I.In[I.f32, ("N",)]):
    d = I.domain(0, N)  # noqa: F821
    d[0:N:2]  # noqa: F821  <- strided


def test_L3_5_a_subregion_is_contiguous():
    """[L3.5] non-contiguous members use an index relation, not a strided slice."""
    rejects(strided_subregion, "L3.5", line_of(strided_subregion, "<- strided"), "index relation")


@I.fn
def noisy_add(a, b):
    return a + b + I.cast(I.random.bits(I.cast(1, I.u64), I.cast(0, I.index)), I.f32)  # <- rng


@I.kernel
def impure_combine(x: I.In[I.f32, ("N",)], y: I.Out[I.f32, ("N",)]):
    y[0] = I.reduce(x[I.domain(0, N)], axis=0, identity=I.cast(0.0, I.f32), combine=noisy_add)  # noqa: F821


def test_L1_5_a_combine_is_checked_for_the_effects_of_its_actual_body():
    """[L1.5] [L7.2] the combine's body uses RNG: the verifier names the helper's Python line."""
    with pytest.raises(I.KirError) as ei:
        impure_combine.kir
    assert "L7.2" in str(ei.value) or "L1.5" in str(ei.value)
    assert "test_dsl_lowering.py:" in str(ei.value)


@I.kernel
def bump(x: I.InOut[I.i32, ("N",)]):
    n = I.domain(0, N)  # noqa: F821
    x[n] = x[n] + 1


def test_L2_3_inout_keeps_its_input_and_is_written_back():
    """[L2.3] run: the InOut array comes back incremented."""
    import numpy as np
    x = np.arange(5, dtype=np.int32)
    bump(x)
    assert x.tolist() == [1, 2, 3, 4, 5]


# ---- kernels that fix manifest params ------------------------------------------------------------

@I.kernel(fixes={"stride": [1, 2], "padding": "same", "eps": 1e-06, "softmax_scale": None, "layout.packing": "tight",
                 "bias": True})
def fixed(x: I.In[I.f32, ("N",)], y: I.Out[I.f32, ("N",)]):
    d = I.domain(0, N)  # noqa: F821 (extent symbol)
    y[d] = x[d]


def test_L2_5_fixes_becomes_the_kernels_fixes_clause_in_order():
    """[L2.5] @intent.kernel(fixes=...) writes KIR's clause; kir verifies the kernel (the text went
    through intent._kir.load)."""
    header = next(ln for ln in body(fixed) if ln.startswith("kernel @fixed"))
    assert header.endswith('fixes {stride = [1, 2], padding = "same", eps = 1e-06, softmax_scale = none, '
                           'layout.packing = "tight", bias = true} {'), header


def test_L2_5_fixes_rejects_values_a_manifest_param_cannot_take():
    """[L2.5] a value or name the clause cannot hold fails at the decorator, naming the kernel."""
    with pytest.raises(IntentError) as ei:
        I.kernel(fixes={"stride": {"a": 1}})(copy2d.fn)
    assert ei.value.rule == "L2.5" and "fixes stride" in ei.value.message and "kernel copy2d" in ei.value.message
    with pytest.raises(IntentError) as ei:
        I.kernel(fixes={"1x": 1})(copy2d.fn)
    assert "is not a param name" in ei.value.message
    with pytest.raises(IntentError):
        I.kernel(fixes={"eps": float("nan")})(copy2d.fn)
