"""IndexAddFwdOp: output = input, then output[index[l], ...] += alpha * source[l, ...] for every l
along dim 0, repeated ids colliding: a scatter_reduce whose combine takes alpha as an operand
(rank 2), or a parallel loop over the source rows with atomic adds (rank 3) (twins of
specs/kernels/IndexAddFwdOp.kir)."""
import intent as I


@I.fn
def add_scaled(old, v, alpha):
    return old + v * alpha


@I.kernel
def IndexAddFwdOp__f32(input: I.In[I.f32, ("N", "D")], index: I.In[I.i64, ("L",)], source: I.In[I.f32, ("L", "D")],
                       output: I.Out[I.f32, ("N", "D")], alpha: I.f32):
    ns, ds, ls = I.domain(0, N), I.domain(0, D), I.domain(0, L)  # noqa: F821
    output[ns, ds] = input[ns, ds]
    I.scatter_reduce(output, I.reshape(index[ls], (L, 1)), ds, value=source[ls, ds], combine=add_scaled,  # noqa: F821
                     operands=alpha)


@I.kernel
def IndexAddFwdOp__bf16(input: I.In[I.bf16, ("N", "D")], index: I.In[I.i64, ("L",)],
                        source: I.In[I.bf16, ("L", "D")], output: I.Out[I.bf16, ("N", "D")], alpha: I.f32):
    ns, ds, ls = I.domain(0, N), I.domain(0, D), I.domain(0, L)  # noqa: F821
    output[ns, ds] = input[ns, ds]
    # the update is computed in bf16, alpha rounded to bf16 first
    I.scatter_reduce(output, I.reshape(index[ls], (L, 1)), ds, value=source[ls, ds], combine=add_scaled,  # noqa: F821
                     operands=I.cast(alpha, I.bf16))


@I.kernel
def IndexAddFwdOp__f32__r3(input: I.In[I.f32, ("N", "A", "B")], index: I.In[I.i64, ("L",)],
                           source: I.In[I.f32, ("L", "A", "B")], output: I.Out[I.f32, ("N", "A", "B")], alpha: I.f32):
    ns, da, db = I.domain(0, N), I.domain(0, A), I.domain(0, B)  # noqa: F821
    output[ns, da, db] = input[ns, da, db]
    for p in I.parallel(I.domain(0, L)):  # noqa: F821
        row = index[p]
        for i in da:
            for j in db:
                I.atomic.add(output[row, i, j], source[p, i, j] * alpha)
