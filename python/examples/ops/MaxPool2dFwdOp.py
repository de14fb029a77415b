"""MaxPool2dFwdOp: output[n, c, i, j] = max over the kH x kW window (u, v) of
input[n, c, i*sH - pH + u*dH, j*sW - pW + v*dW], positions outside the input skipped (-inf
padding). Each dtype kernel fixes its rows' geometry: f16/f32 a 3x3 window, stride 2, padding 1;
bf16 a 3x2 window with stride = window, no padding (twins of specs/kernels/MaxPool2dFwdOp.kir)."""
import intent as I


@I.fn
def window(out_pos, extent, size, stride, pad, dilation):
    """Source coordinates out_pos*stride - pad + u*dilation (i64) of the window offsets u < size along
    one axis, as [P, size] (0 where outside [0, extent)), and whether each is inside."""
    (p,) = out_pos.shape
    first = I.reshape(I.cast(out_pos, I.i64) * stride - pad, (p, 1))
    src = first + I.reshape(I.cast(I.indices(I.domain(0, size)), I.i64) * dilation, (1, size))
    inside = (src >= 0) & (src < extent)
    return I.select(inside, src, 0), inside


@I.fn
def window_max(vals, row_ok, col_ok):
    """The maximum of vals [N, C, P, U, Q, V] over the window axes U and V, in f32, where only the
    window positions inside the input (row_ok [P, U] and col_ok [Q, V]) count."""
    p, u = row_ok.shape
    q, v = col_ok.shape
    inside = I.reshape(row_ok, (p, u, 1, 1)) & I.reshape(col_ok, (1, 1, q, v))
    return I.reduce.max(I.select(inside, I.cast(vals, I.f32), float("-inf")), axis=(3, 5))


@I.kernel
def MaxPool2dFwdOp__f16(input: I.In[I.f16, ("N", "C", "H", "W")], output: I.Out[I.f16, ("N", "C", "HO", "WO")],
                        ceil_mode: I.Constexpr[bool] = False):
    n, c, ho, wo = I.domain(0, N), I.domain(0, C), I.domain(0, HO), I.domain(0, WO)  # noqa: F821
    rows, row_ok = window(I.indices(ho), I.cast(H, I.i64), size=3, stride=2, pad=1, dilation=1)  # noqa: F821
    cols, col_ok = window(I.indices(wo), I.cast(W, I.i64), size=3, stride=2, pad=1, dilation=1)  # noqa: F821
    output[n, c, ho, wo] = I.cast(window_max(input[n, c, rows, cols], row_ok, col_ok), I.f16)


@I.kernel
def MaxPool2dFwdOp__f32(input: I.In[I.f32, ("N", "C", "H", "W")], output: I.Out[I.f32, ("N", "C", "HO", "WO")],
                        ceil_mode: I.Constexpr[bool] = False):
    n, c, ho, wo = I.domain(0, N), I.domain(0, C), I.domain(0, HO), I.domain(0, WO)  # noqa: F821
    rows, row_ok = window(I.indices(ho), I.cast(H, I.i64), size=3, stride=2, pad=1, dilation=1)  # noqa: F821
    cols, col_ok = window(I.indices(wo), I.cast(W, I.i64), size=3, stride=2, pad=1, dilation=1)  # noqa: F821
    output[n, c, ho, wo] = window_max(input[n, c, rows, cols], row_ok, col_ok)


@I.kernel
def MaxPool2dFwdOp__bf16(input: I.In[I.bf16, ("N", "C", "H", "W")],
                         output: I.Out[I.bf16, ("N", "C", "HO", "WO")], ceil_mode: I.Constexpr[bool] = False):
    n, c, ho, wo = I.domain(0, N), I.domain(0, C), I.domain(0, HO), I.domain(0, WO)  # noqa: F821
    rows, row_ok = window(I.indices(ho), I.cast(H, I.i64), size=3, stride=3, pad=0, dilation=1)  # noqa: F821
    cols, col_ok = window(I.indices(wo), I.cast(W, I.i64), size=2, stride=2, pad=0, dilation=1)  # noqa: F821
    output[n, c, ho, wo] = I.cast(window_max(input[n, c, rows, cols], row_ok, col_ok), I.bf16)
