"""MoePrePermuteFwdOp: group the T*K routed copies of the hidden rows by expert. Copy r = t*K + k
(expert topk_ids[t, k]) goes to permuted row start[e] + (copies before r with the same expert),
start the exclusive prefix sum of the per-expert counts; other rows are 0. bf16: counts rounded
up to the alignment 4, metadata = the expert owning each row (num_experts past the last tile);
f16: tight, metadata = the inclusive end offsets (twins of specs/kernels/MoePrePermuteFwdOp.kir)."""
import intent as I


@I.fn
def destinations(ids, starts):
    """The permuted row of every routed copy: its expert's start plus its rank among the copies
    routed to the same expert before it."""
    (r,), (e,) = ids.shape, starts.shape
    onehot = I.cast(I.reshape(ids, (r, 1)) == I.cast(I.indices(I.domain(0, e)), I.i32), I.i32)
    before = I.cumsum(onehot, axis=0, inclusive=False)
    return I.gather(starts, ids) + I.gather(before, I.indices(I.domain(0, r)), ids)


@I.kernel
def MoePrePermuteFwdOp__bf16(hidden: I.In[I.bf16, ("T", "H")], topk_ids: I.In[I.i32, ("T", "K")],
                             permuted: I.Out[I.bf16, ("C", "H")], metadata: I.Out[I.i32, ("C",)], num_experts: I.i64):
    ts, hs, ks, cs = I.domain(0, T), I.domain(0, H), I.domain(0, K), I.domain(0, C)  # noqa: F821
    ne = I.cast(num_experts, I.index)
    ids = I.reshape(topk_ids[ts, ks], (T * K,))  # noqa: F821
    padded = I.div(I.histogram(ids, bins=ne, count_dtype=I.i32) + 3, 4) * 4  # counts aligned to 4
    starts = I.cumsum(padded, axis=0, inclusive=False)
    copies = I.domain(0, T * K)  # noqa: F821
    permuted[cs, hs] = I.zeros((C, H), I.bf16)  # noqa: F821
    I.unique_store(permuted, I.reshape(destinations(ids, starts), (T * K, 1)), hs,  # noqa: F821
                   value=hidden[I.div(I.indices(copies), K), hs])  # noqa: F821
    # the expert owning row c: how many experts' aligned ranges end at or before c
    past = I.reshape(starts + padded, (1, ne)) <= I.reshape(I.cast(I.indices(cs), I.i32), (C, 1))  # noqa: F821
    metadata[cs] = I.reduce.sum(I.cast(past, I.i32), axis=1)


@I.kernel
def MoePrePermuteFwdOp__f16(hidden: I.In[I.f16, ("T", "H")], topk_ids: I.In[I.i32, ("T", "K")],
                            permuted: I.Out[I.f16, ("C", "H")], metadata: I.Out[I.i32, ("E",)], num_experts: I.i64):
    ts, hs, ks, es = I.domain(0, T), I.domain(0, H), I.domain(0, K), I.domain(0, E)  # noqa: F821
    ids = I.reshape(topk_ids[ts, ks], (T * K,))  # noqa: F821
    counts = I.histogram(ids, bins=E, count_dtype=I.i32)  # noqa: F821
    starts = I.cumsum(counts, axis=0, inclusive=False)
    copies = I.domain(0, T * K)  # noqa: F821
    I.unique_store(permuted, I.reshape(destinations(ids, starts), (T * K, 1)), hs,  # noqa: F821
                   value=hidden[I.div(I.indices(copies), K), hs])  # noqa: F821
    metadata[es] = starts + counts
