"""SumFwdOp: the sum over fixed axes, one kernel per row pattern: f32 over axes (0, 2) kept as
size-one axes, bf16 over every axis (accumulated in f32, rounded once), i64 over the last axis,
and a rank-0 input (twins of specs/kernels/SumFwdOp.kir)."""
import intent as I


@I.kernel
def SumFwdOp__f32__axes(input: I.In[I.f32, ("A", "B", "C")], output: I.Out[I.f32, (1, "B", 1)],
                        keepdim: I.Constexpr[bool] = False):
    da, db, dc, one = I.domain(0, A), I.domain(0, B), I.domain(0, C), I.domain(0, 1)  # noqa: F821
    s = I.reduce.sum(input[da, db, dc], axis=(0, 2))
    output[one, db, one] = I.reshape(s, (1, B, 1))  # noqa: F821


@I.kernel
def SumFwdOp__bf16(input: I.In[I.bf16, ("M", "N")], output: I.Out[I.bf16, ()], keepdim: I.Constexpr[bool] = False):
    rows, cols = I.domain(0, M), I.domain(0, N)  # noqa: F821
    # bf16 sums accumulate in f32 (the default widening); a full reduction is a scalar
    output[()] = I.cast(I.reduce.sum(input[rows, cols], axis=(0, 1)), I.bf16)


@I.kernel
def SumFwdOp__i64(input: I.In[I.i64, ("M", "N")], output: I.Out[I.i64, ("M",)], keepdim: I.Constexpr[bool] = False):
    rows, cols = I.domain(0, M), I.domain(0, N)  # noqa: F821
    output[rows] = I.reduce.sum(input[rows, cols], axis=-1)


@I.kernel
def SumFwdOp__f32__scalar(input: I.In[I.f32, ()], output: I.Out[I.f32, ()], keepdim: I.Constexpr[bool] = False):
    output[()] = input[()]
