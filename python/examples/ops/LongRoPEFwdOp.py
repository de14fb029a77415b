"""LongRoPEFwdOp: rotary position embedding with LongRoPE's per-frequency rescale factors. For
k < D/2, inv_freq[k] = 1 / (f[k] * base^(2k / D)) (f the optional rescale_factors, else 1),
angle = positions[s] * inv_freq[k], and the half-split rotation y[k] = x[k] cos - x[k + D/2] sin,
y[k + D/2] = x[k + D/2] cos + x[k] sin, in f32 rounded once (twins of
specs/kernels/LongRoPEFwdOp.kir)."""
import intent as I


@I.fn
def rotation(positions, factors, base, d):
    """cos and sin of every angle, as [1, S, 1, D/2], from the positions [S], the rescale factors
    [D/2] and D (f32)."""
    (s,), (half,) = positions.shape, factors.shape
    inv_freq = 1.0 / (factors * I.pow(base, 2.0 * I.cast(I.indices(I.domain(0, half)), I.f32) / d))
    angle = I.reshape(I.cast(positions, I.f32), (s, 1)) * inv_freq
    return I.reshape(I.cos(angle), (1, s, 1, half)), I.reshape(I.sin(angle), (1, s, 1, half))


@I.fn
def rope(x, positions, factors, base):
    """The two rotated halves (f32) of x [B, S, H, D] (a view)."""
    b, s, h, d = x.shape
    bs, ss, hs, lo = I.domain(0, b), I.domain(0, s), I.domain(0, h), I.domain(0, factors.shape[0])
    hi = I.indices(lo) + factors.shape[0]
    cos, sin = rotation(positions[ss], factors, base, I.cast(d, I.f32))
    x1, x2 = I.cast(x[bs, ss, hs, lo], I.f32), I.cast(x[bs, ss, hs, hi], I.f32)
    return x1 * cos - x2 * sin, x2 * cos + x1 * sin


@I.kernel
def LongRoPEFwdOp__bf16__f32(x: I.In[I.bf16, ("B", "S", "H", "D")], positions: I.In[I.i64, ("S",)],
                             y: I.Out[I.bf16, ("B", "S", "H", "D")],
                             rescale_factors: I.In[I.f32, ("floordiv(D, 2)",)], base: I.f32,
                             present_rescale_factors: I.Constexpr[bool]):
    bs, ss, hs = I.domain(0, B), I.domain(0, S), I.domain(0, H)  # noqa: F821
    lo = I.domain(0, rescale_factors.shape[0])
    if present_rescale_factors:
        factors = rescale_factors[lo]
    else:
        factors = I.full((rescale_factors.shape[0],), 1.0, dtype=I.f32)
    y1, y2 = rope(x, positions, factors, base)
    y[bs, ss, hs, lo] = I.cast(y1, I.bf16)
    y[bs, ss, hs, I.indices(lo) + rescale_factors.shape[0]] = I.cast(y2, I.bf16)


@I.kernel
def LongRoPEFwdOp__f32__f32(x: I.In[I.f32, ("B", "S", "H", "D")], positions: I.In[I.i64, ("S",)],
                            y: I.Out[I.f32, ("B", "S", "H", "D")],
                            rescale_factors: I.In[I.f32, ("floordiv(D, 2)",)], base: I.f32,
                            present_rescale_factors: I.Constexpr[bool]):
    bs, ss, hs = I.domain(0, B), I.domain(0, S), I.domain(0, H)  # noqa: F821
    lo = I.domain(0, rescale_factors.shape[0])
    if present_rescale_factors:
        factors = rescale_factors[lo]
    else:
        factors = I.full((rescale_factors.shape[0],), 1.0, dtype=I.f32)
    y1, y2 = rope(x, positions, factors, base)
    y[bs, ss, hs, lo] = y1
    y[bs, ss, hs, I.indices(lo) + rescale_factors.shape[0]] = y2


@I.kernel
def LongRoPEFwdOp__f16__f16(x: I.In[I.f16, ("B", "S", "H", "D")], positions: I.In[I.i64, ("S",)],
                            y: I.Out[I.f16, ("B", "S", "H", "D")],
                            rescale_factors: I.In[I.f16, ("floordiv(D, 2)",)], base: I.f32,
                            present_rescale_factors: I.Constexpr[bool]):
    bs, ss, hs = I.domain(0, B), I.domain(0, S), I.domain(0, H)  # noqa: F821
    lo = I.domain(0, rescale_factors.shape[0])
    if present_rescale_factors:
        factors = I.cast(rescale_factors[lo], I.f32)
    else:
        factors = I.full((rescale_factors.shape[0],), 1.0, dtype=I.f32)
    y1, y2 = rope(x, positions, factors, base)
    y[bs, ss, hs, lo] = I.cast(y1, I.f16)
    y[bs, ss, hs, I.indices(lo) + rescale_factors.shape[0]] = I.cast(y2, I.f16)
