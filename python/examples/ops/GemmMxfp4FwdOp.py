"""y = x @ W^T with OCP MX blocks of 32 along K (twin of specs/kernels/GemmMxfp4FwdOp.kir): x is
MXFP8 (e4m3 codes, one e8m0 scale per row and block), W is MXFP4 (two e2m1 codes per byte, low
nibble first). The scaled sum is exact, rounded once to f32, then to the output dtype."""
import intent as I


@I.fn
def mx_gemm(x, x_scale, weight, weight_scale):
    m, g, n = x.shape[0], x_scale.shape[1], weight.shape[0]
    rows, blocks, cols = I.domain(0, m), I.domain(0, g), I.domain(0, n)
    # x as [M, blocks, 32] codes: element (m, g, j) is x[m, 32 g + j]
    xk = I.reshape(I.indices(blocks), (g, 1)) * 32 + I.indices(I.domain(0, 32))
    xq = I.bitcast(x[rows, xk], I.u8)
    # the packed weight as [blocks, 16, N] bytes: byte (g, c, n) is weight[n, 16 g + c]
    wb = I.reshape(I.reshape(I.indices(blocks), (g, 1)) * 16 + I.indices(I.domain(0, 16)), (g, 16, 1))
    wq = I.gather(weight, I.reshape(I.indices(cols), (1, 1, n)), wb)
    return I.scaled_contract(xq, x_scale[rows, blocks], wq, weight_scale[cols, blocks], lhs_format=I.e4m3,
                             rhs_format=I.e2m1, lhs_group_size=32, rhs_group_size=32, acc_dtype=I.f32)


@I.kernel
def GemmMxfp4FwdOp__u8__bf16(x: I.In[I.e4m3, ("M", "K")], x_scale: I.In[I.e8m0, ("M", "floordiv(K, 32)")],
                             weight: I.In[I.u8, ("N", "floordiv(K, 2)")],
                             weight_scale: I.In[I.e8m0, ("N", "floordiv(K, 32)")], y: I.Out[I.bf16, ("M", "N")]):
    y[I.domain(0, M), I.domain(0, N)] = I.cast(mx_gemm(x, x_scale, weight, weight_scale), I.bf16)  # noqa: F821


@I.kernel
def GemmMxfp4FwdOp__u8__f32(x: I.In[I.e4m3, ("M", "K")], x_scale: I.In[I.e8m0, ("M", "floordiv(K, 32)")],
                            weight: I.In[I.u8, ("N", "floordiv(K, 2)")],
                            weight_scale: I.In[I.e8m0, ("N", "floordiv(K, 32)")], y: I.Out[I.f32, ("M", "N")]):
    y[I.domain(0, M), I.domain(0, N)] = mx_gemm(x, x_scale, weight, weight_scale)  # noqa: F821
