"""MeanPoolingFwdOp: the mean of every chunk of `chunk_size` positions along the sequence, the last
chunk of a sequence possibly shorter; sums in f32, the mean rounded once. Dense (x [B, S, H, D]):
chunk j covers [j*c, min(j*c + c, S)). Varlen (x [S, H, D] packing the sequences): chunk row r of
`indices` is (sequence s, chunk k) and covers [offsets[s] + k*c, min(offsets[s] + k*c + c,
offsets[s + 1])) (twins of specs/kernels/MeanPoolingFwdOp.kir)."""
import intent as I


@I.fn
def mean(total, begin, end):
    return total / I.cast(end - begin, I.f32)


@I.kernel
def MeanPoolingFwdOp__f16__dense(x: I.In[I.f16, ("B", "S", "H", "D")], offsets: I.In[I.i32, ("NS + 1",)],
                                 indices: I.In[I.i32, ("NC", 2)], y: I.Out[I.f16, ("B", "NC", "H", "D")],
                                 chunk_size: I.Constexpr[I.index] = 64):
    bs, seq, hs, ds = I.domain(0, B), I.domain(0, S), I.domain(0, H), I.domain(0, D)  # noqa: F821
    for j in I.parallel(I.domain(0, NC)):  # noqa: F821
        begin = j * chunk_size
        end = I.minimum(begin + chunk_size, S)  # noqa: F821
        total = I.reduce.sum(x[bs, seq[begin:end], hs, ds], axis=1)
        y[bs, j, hs, ds] = I.cast(mean(total, begin, end), I.f16)


@I.kernel
def MeanPoolingFwdOp__bf16__varlen(x: I.In[I.bf16, ("S", "H", "D")], offsets: I.In[I.i32, ("NS + 1",)],
                                   indices: I.In[I.i32, ("NC", 2)], y: I.Out[I.bf16, ("NC", "H", "D")],
                                   chunk_size: I.Constexpr[I.index] = 64):
    seq, hs, ds = I.domain(0, S), I.domain(0, H), I.domain(0, D)  # noqa: F821
    for r in I.parallel(I.domain(0, NC)):  # noqa: F821
        s, k = I.cast(indices[r, 0], I.index), I.cast(indices[r, 1], I.index)
        begin = I.cast(offsets[s], I.index) + k * chunk_size
        end = I.minimum(begin + chunk_size, I.cast(offsets[s + 1], I.index))
        total = I.reduce.sum(x[seq[begin:end], hs, ds], axis=0)
        y[r, hs, ds] = I.cast(mean(total, begin, end), I.bf16)
