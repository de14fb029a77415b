"""AlibiFwdOp: the ALiBi bias bias[h, i, j] = slope_h * (j - i), with c the largest power of two
<= num_heads, slope_h = 2^(-8 (h + 1) / c) for h < c and 2^(-4 (2 (h - c) + 1) / c) otherwise
(twins of specs/kernels/AlibiFwdOp.kir)."""
import intent as I


@I.fn
def slopes(heads, num_heads):
    """The ALiBi slope of every head index in `heads`, as f32."""
    c = I.cast(1, I.i64)
    while c * 2 <= num_heads:
        c = c * 2
    cf = I.cast(c, I.f32)
    h = I.cast(heads, I.f32)
    base = -8.0 * (h + 1.0)
    extra = -4.0 * (2.0 * (h - cf) + 1.0)
    return I.exp2(I.select(h < cf, base, extra) / cf)


@I.fn
def alibi(heads, pos, num_heads):
    """slope_h * (j - i) over [H, S, S] in f32 (heads, pos: the head and position indices)."""
    (h,), (s,) = heads.shape, pos.shape
    p = I.cast(pos, I.f32)
    dist = I.reshape(p, (1, 1, s)) - I.reshape(p, (1, s, 1))
    return I.reshape(slopes(heads, num_heads), (h, 1, 1)) * dist


@I.kernel
def AlibiFwdOp__f32(bias: I.Out[I.f32, ("H", "S", "S")], num_heads: I.i64, seq_len: I.i64):
    heads, pos = I.domain(0, H), I.domain(0, S)  # noqa: F821
    bias[heads, pos, pos] = alibi(I.indices(heads), I.indices(pos), num_heads)


@I.kernel
def AlibiFwdOp__bf16(bias: I.Out[I.bf16, ("H", "S", "S")], num_heads: I.i64, seq_len: I.i64):
    heads, pos = I.domain(0, H), I.domain(0, S)  # noqa: F821
    bias[heads, pos, pos] = I.cast(alibi(I.indices(heads), I.indices(pos), num_heads), I.bf16)
