"""C = A @ B + bias with an f32 accumulator over f16 operands (the DSL twin of
examples/gemm_bias.kir)."""
import intent as I


@I.kernel
def gemm_bias(a: I.In[I.f16, ("M", "K")], b: I.In[I.f16, ("K", "N")], bias: I.In[I.f32, ("N",)],
              c: I.Out[I.f32, ("M", "N")]):
    m, k, n = I.domain(0, M), I.domain(0, K), I.domain(0, N)  # noqa: F821
    c[m, n] = I.matmul(a[m, k], b[k, n], acc_dtype=I.f32) + bias[n]
