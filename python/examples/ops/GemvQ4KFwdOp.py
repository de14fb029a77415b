"""y = W x with W in GGML's q4_K blocks and x quantized to q8_K on the fly (twin of
specs/kernels/GemvQ4KFwdOp.kir): quantize produces the q8_K record, the weight's fields form the
q4_K record, and quantized_dot is the language's closed quantized dot product (L11.3)."""
import intent as I


@I.kernel
def GemvQ4KFwdOp(x: I.In[I.f32, ("K",)], w_d: I.In[I.f16, ("N", "floordiv(K, 256)")],
                 w_dmin: I.In[I.f16, ("N", "floordiv(K, 256)")], w_scales: I.In[I.u8, ("N", "floordiv(K, 256)", 12)],
                 w_qs: I.In[I.u8, ("N", "floordiv(K, 256)", 128)], y: I.Out[I.f32, ("N",)]):
    rows, blocks = I.domain(0, N), I.domain(0, w_d.shape[1])  # noqa: F821
    xq = I.quantize(x[I.domain(0, K)], format=I.quant.q8_k)  # noqa: F821
    w = I.record(d=w_d[rows, blocks], dmin=w_dmin[rows, blocks], scales=w_scales[rows, blocks, I.domain(0, 12)],
                 qs=w_qs[rows, blocks, I.domain(0, 128)])
    y[rows] = I.quantized_dot(w, xq, lhs_format=I.quant.q4_k, rhs_format=I.quant.q8_k, acc_dtype=I.f32)
