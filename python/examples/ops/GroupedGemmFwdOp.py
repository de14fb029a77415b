"""GroupedGemmFwdOp: c[rows of group g] = a[rows of g] @ op(b[g]) (op a transpose when trans_b
holds), the rows of group g being [batch_offsets[g], batch_offsets[g] + batch_sizes[g]); f32
accumulation rounded once (twins of specs/kernels/GroupedGemmFwdOp.kir)."""
import intent as I


@I.kernel
def GroupedGemmFwdOp__bf16__nn(a: I.In[I.bf16, ("M", "K")], b: I.In[I.bf16, ("G", "K", "N")],
                               batch_sizes: I.In[I.i32, ("G",)], batch_offsets: I.In[I.i32, ("G",)],
                               c: I.Out[I.bf16, ("M", "N")], trans_b: I.Constexpr[bool] = False):
    rows, ks, ns = I.domain(0, M), I.domain(0, K), I.domain(0, N)  # noqa: F821
    for g in I.parallel(I.domain(0, G)):  # noqa: F821
        start = I.cast(batch_offsets[g], I.index)
        group = rows[start:start + I.cast(batch_sizes[g], I.index)]
        acc = I.matmul(a[group, ks], b[g, :, :], acc_dtype=I.f32, transpose_rhs=trans_b)
        c[group, ns] = I.cast(acc, I.bf16)


@I.kernel
def GroupedGemmFwdOp__f16__nt(a: I.In[I.f16, ("M", "K")], b: I.In[I.f16, ("G", "N", "K")],
                              batch_sizes: I.In[I.i32, ("G",)], batch_offsets: I.In[I.i32, ("G",)],
                              c: I.Out[I.f16, ("M", "N")], trans_b: I.Constexpr[bool] = True):
    rows, ks, ns = I.domain(0, M), I.domain(0, K), I.domain(0, N)  # noqa: F821
    for g in I.parallel(I.domain(0, G)):  # noqa: F821
        start = I.cast(batch_offsets[g], I.index)
        group = rows[start:start + I.cast(batch_sizes[g], I.index)]
        acc = I.matmul(a[group, ks], b[g, :, :], acc_dtype=I.f32, transpose_rhs=trans_b)
        c[group, ns] = I.cast(acc, I.f16)
