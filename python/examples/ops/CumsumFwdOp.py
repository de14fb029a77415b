"""CumsumFwdOp: inclusive prefix sums along the constexpr axis `dim` (bf16 accumulated in f32,
every prefix rounded to bf16; integers exact; a rank-0 input is its own cumulative sum). Twins of
specs/kernels/CumsumFwdOp.kir."""
import intent as I


@I.fn
def cumsum_2d(v, dim):
    """Prefix sums of v [M, N] along `dim` (-1 and 1 scan the rows, -2 and 0 the columns)."""
    if dim % 2 == 1:
        p = I.cumsum(v, axis=1)
    else:
        p = I.cumsum(v, axis=0)
    return p


@I.kernel
def CumsumFwdOp__f32(input: I.In[I.f32, ("M", "N")], output: I.Out[I.f32, ("M", "N")], dim: I.Constexpr[int]):
    rows, cols = I.domain(0, M), I.domain(0, N)  # noqa: F821
    output[rows, cols] = cumsum_2d(input[rows, cols], dim)


@I.kernel
def CumsumFwdOp__bf16(input: I.In[I.bf16, ("M", "N")], output: I.Out[I.bf16, ("M", "N")], dim: I.Constexpr[int]):
    rows, cols = I.domain(0, M), I.domain(0, N)  # noqa: F821
    # cumsum of bf16 accumulates in f32 (the default widening)
    output[rows, cols] = I.cast(cumsum_2d(input[rows, cols], dim), I.bf16)


@I.kernel
def CumsumFwdOp__i64(input: I.In[I.i64, ("M", "N")], output: I.Out[I.i64, ("M", "N")], dim: I.Constexpr[int]):
    rows, cols = I.domain(0, M), I.domain(0, N)  # noqa: F821
    output[rows, cols] = cumsum_2d(input[rows, cols], dim)


@I.kernel
def CumsumFwdOp__f32__scalar(input: I.In[I.f32, ()], output: I.Out[I.f32, ()], dim: I.Constexpr[int]):
    output[()] = input[()]
