"""MaxPool2dFwdOp: output[n, c, i, j] = max over the kH x kW window (u, v) of
input[n, c, i*sH - pH + u*dH, j*sW - pW + v*dW], positions outside the input skipped (-inf
padding). Each dtype kernel fixes its rows' geometry: f16/f32 a 3x3 window, stride 2, padding 1;
bf16 a 3x2 window with stride = window, no padding (twins of specs/kernels/MaxPool2dFwdOp.kir)."""
import intent as I


@I.fn
def window(out_pos, extent, size, stride, pad, dilation):
    """Source coordinates out_pos*stride - pad + u*dilation (i64) of the window offsets u < size along
    one axis, as [P, size], and whether each lies inside [0, extent)."""
    (p,) = out_pos.shape
    first = I.reshape(I.cast(out_pos, I.i64) * stride - pad, (p, 1))
    src = first + I.reshape(I.cast(I.indices(I.domain(0, size)), I.i64) * dilation, (1, size))
    return src, (src >= 0) & (src < extent)


@I.fn
def pool(x, rows, row_ok, cols, col_ok):
    """The maximum over each window: x's windows as [N, C, P, Q, U, V] (a gather whose points outside
    the input read -inf), reduced over U and V in f32."""
    p, u = rows.shape
    q, v = cols.shape
    n, c = x.shape[0], x.shape[1]
    r, w = I.reshape(rows, (p, 1, u, 1)), I.reshape(cols, (q, 1, v))
    ok = I.reshape(row_ok, (p, 1, u, 1)) & I.reshape(col_ok, (q, 1, v))
    g = I.gather(x, I.reshape(I.indices(I.domain(0, n)), (n, 1, 1, 1, 1, 1)),
                 I.reshape(I.indices(I.domain(0, c)), (c, 1, 1, 1, 1)), r, w, valid=ok, fill=float("-inf"))
    return I.reduce.max(I.cast(g, I.f32), axis=(4, 5))


@I.kernel
def MaxPool2dFwdOp__f16(input: I.In[I.f16, ("N", "C", "H", "W")], output: I.Out[I.f16, ("N", "C", "HO", "WO")],
                        ceil_mode: I.Constexpr[bool] = False):
    n, c, ho, wo = I.domain(0, N), I.domain(0, C), I.domain(0, HO), I.domain(0, WO)  # noqa: F821
    rows, row_ok = window(I.indices(ho), I.cast(H, I.i64), size=3, stride=2, pad=1, dilation=1)  # noqa: F821
    cols, col_ok = window(I.indices(wo), I.cast(W, I.i64), size=3, stride=2, pad=1, dilation=1)  # noqa: F821
    output[n, c, ho, wo] = I.cast(pool(input, rows, row_ok, cols, col_ok), I.f16)


@I.kernel
def MaxPool2dFwdOp__f32(input: I.In[I.f32, ("N", "C", "H", "W")], output: I.Out[I.f32, ("N", "C", "HO", "WO")],
                        ceil_mode: I.Constexpr[bool] = False):
    n, c, ho, wo = I.domain(0, N), I.domain(0, C), I.domain(0, HO), I.domain(0, WO)  # noqa: F821
    rows, row_ok = window(I.indices(ho), I.cast(H, I.i64), size=3, stride=2, pad=1, dilation=1)  # noqa: F821
    cols, col_ok = window(I.indices(wo), I.cast(W, I.i64), size=3, stride=2, pad=1, dilation=1)  # noqa: F821
    output[n, c, ho, wo] = pool(input, rows, row_ok, cols, col_ok)


@I.kernel
def MaxPool2dFwdOp__bf16(input: I.In[I.bf16, ("N", "C", "H", "W")],
                         output: I.Out[I.bf16, ("N", "C", "HO", "WO")], ceil_mode: I.Constexpr[bool] = False):
    n, c, ho, wo = I.domain(0, N), I.domain(0, C), I.domain(0, HO), I.domain(0, WO)  # noqa: F821
    rows, row_ok = window(I.indices(ho), I.cast(H, I.i64), size=3, stride=3, pad=0, dilation=1)  # noqa: F821
    cols, col_ok = window(I.indices(wo), I.cast(W, I.i64), size=2, stride=2, pad=0, dilation=1)  # noqa: F821
    output[n, c, ho, wo] = I.cast(pool(input, rows, row_ok, cols, col_ok), I.bf16)
