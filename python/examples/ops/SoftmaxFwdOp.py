"""SoftmaxFwdOp: exp(x - max) / sum exp(x - max) along the constexpr axis `dim`, computed in f32
and rounded once to the output dtype (twins of specs/kernels/SoftmaxFwdOp.kir). The softmax axis
is brought to the middle of a rank-3 [before, axis, after] tensor by a row-major reshape, so one
helper serves every axis."""
import intent as I


@I.fn
def softmax_mid(v):
    """Softmax over axis 1 of v [P, R, Q]."""
    p, r, q = v.shape
    e = I.exp(v - I.reshape(I.reduce.max(v, axis=1), (p, 1, q)))
    return e / I.reshape(I.reduce.sum(e, axis=1), (p, 1, q))


@I.fn
def softmax_2d(v, dim):
    m, n = v.shape
    if dim % 2 == 1:
        y = softmax_mid(I.reshape(v, (m, n, 1)))
    else:
        y = softmax_mid(I.reshape(v, (1, m, n)))
    return I.reshape(y, (m, n))


@I.kernel
def SoftmaxFwdOp__bf16(input: I.In[I.bf16, ("M", "N")], output: I.Out[I.bf16, ("M", "N")],
                       dim: I.Constexpr[int] = -1):
    rows, cols = I.domain(0, M), I.domain(0, N)  # noqa: F821
    output[rows, cols] = I.cast(softmax_2d(I.cast(input[rows, cols], I.f32), dim), I.bf16)


@I.kernel
def SoftmaxFwdOp__f32(input: I.In[I.f32, ("M", "N")], output: I.Out[I.f32, ("M", "N")],
                      dim: I.Constexpr[int] = -1):
    rows, cols = I.domain(0, M), I.domain(0, N)  # noqa: F821
    output[rows, cols] = softmax_2d(input[rows, cols], dim)


@I.kernel
def SoftmaxFwdOp__f16(input: I.In[I.f16, ("A", "B", "C")], output: I.Out[I.f32, ("A", "B", "C")],
                      dim: I.Constexpr[int] = -1):
    da, db, dc = I.domain(0, A), I.domain(0, B), I.domain(0, C)  # noqa: F821
    v = I.cast(input[da, db, dc], I.f32)
    if dim % 3 == 2:
        y = I.reshape(softmax_mid(I.reshape(v, (A * B, C, 1))), (A, B, C))  # noqa: F821
    elif dim % 3 == 1:
        y = softmax_mid(v)
    else:
        y = I.reshape(softmax_mid(I.reshape(v, (1, A, B * C))), (A, B, C))  # noqa: F821
    output[da, db, dc] = y
