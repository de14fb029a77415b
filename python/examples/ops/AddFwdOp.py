"""AddFwdOp: output = input + alpha * other. f16/bf16 are computed in f32 and rounded once; the
`bcast` kernels broadcast input [B, 1, N] and other [M, N] to [B, M, N] (twins of
specs/kernels/AddFwdOp.kir)."""
import intent as I


@I.fn
def add_scaled(a, b, alpha):
    return a + b * alpha


@I.kernel
def AddFwdOp__f16(input: I.In[I.f16, ("M", "N")], other: I.In[I.f16, ("M", "N")],
                  output: I.Out[I.f16, ("M", "N")], alpha: I.f32):
    rows, cols = I.domain(0, M), I.domain(0, N)  # noqa: F821
    a, b = I.cast(input[rows, cols], I.f32), I.cast(other[rows, cols], I.f32)
    output[rows, cols] = I.cast(add_scaled(a, b, alpha), I.f16)


@I.kernel
def AddFwdOp__bf16(input: I.In[I.bf16, ("M", "N")], other: I.In[I.bf16, ("M", "N")],
                   output: I.Out[I.bf16, ("M", "N")], alpha: I.f32):
    rows, cols = I.domain(0, M), I.domain(0, N)  # noqa: F821
    a, b = I.cast(input[rows, cols], I.f32), I.cast(other[rows, cols], I.f32)
    output[rows, cols] = I.cast(add_scaled(a, b, alpha), I.bf16)


@I.kernel
def AddFwdOp__f32__bcast(input: I.In[I.f32, ("B", 1, "N")], other: I.In[I.f32, ("M", "N")],
                         output: I.Out[I.f32, ("B", "M", "N")], alpha: I.f32):
    bats, one, rows, cols = I.domain(0, B), I.domain(0, 1), I.domain(0, M), I.domain(0, N)  # noqa: F821
    # [B, 1, N] + [M, N] broadcasts numpy-style to [B, M, N]
    output[bats, rows, cols] = add_scaled(input[bats, one, cols], other[rows, cols], alpha)


@I.kernel
def AddFwdOp__i32__bcast(input: I.In[I.i32, ("B", 1, "N")], other: I.In[I.i32, ("M", "N")],
                         output: I.Out[I.i32, ("B", "M", "N")], alpha: I.i32):
    bats, one, rows, cols = I.domain(0, B), I.domain(0, 1), I.domain(0, M), I.domain(0, N)  # noqa: F821
    output[bats, rows, cols] = add_scaled(input[bats, one, cols], other[rows, cols], alpha)
