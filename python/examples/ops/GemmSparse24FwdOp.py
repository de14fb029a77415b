"""C = A @ B with A 2:4-sparse (twin of specs/kernels/GemmSparse24FwdOp.kir): two kept values per
group of four along K, and per group a pattern p in 0..5 naming the kept positions (first = 0, 0,
0, 1, 1, 2 and second = 1, 2, 3, 2, 3, 3). The pattern is decoded into each kept value's position
in its group, the logical metadata of the language's two_of_four format."""
import intent as I


@I.fn
def sparse24(a_values, a_meta, b):
    m, kc = a_values.shape
    n = b.shape[1]
    rows, kept, cols = I.domain(0, m), I.domain(0, kc), I.domain(0, n)
    j = I.indices(kept)
    p = a_meta[rows, I.div(j, 2)]
    first = I.select(p < 3, 0, I.select(p < 5, I.cast(1, I.i32), 2))
    second = I.select(p < 3, p + 1, I.select(p < 5, p - 1, 3))
    meta = I.select(I.cast(I.rem(j, 2), I.i32) == 0, first, second)
    acc = I.sparse_contract(a_values[rows, kept], meta, b[I.domain(0, kc * 2), cols], format=I.sparse.two_of_four,
                            reduce=((1, 0),), acc_dtype=I.f32)
    return acc


@I.kernel
def GemmSparse24FwdOp__f16(a_values: I.In[I.f16, ("M", "floordiv(K, 2)")], a_meta: I.In[I.i32, ("M", "floordiv(K, 4)")],
                           b: I.In[I.f16, ("K", "N")], c: I.Out[I.f16, ("M", "N")]):
    c[I.domain(0, M), I.domain(0, N)] = I.cast(sparse24(a_values, a_meta, b), I.f16)  # noqa: F821


@I.kernel
def GemmSparse24FwdOp__bf16(a_values: I.In[I.bf16, ("M", "floordiv(K, 2)")],
                            a_meta: I.In[I.i32, ("M", "floordiv(K, 4)")], b: I.In[I.bf16, ("K", "N")],
                            c: I.Out[I.bf16, ("M", "N")]):
    c[I.domain(0, M), I.domain(0, N)] = I.cast(sparse24(a_values, a_meta, b), I.bf16)  # noqa: F821
