"""EmbeddingFwdOp: a vocabulary-sharded lookup. The shard holds the rows of ids
[vocab_start, vocab_start + V): output[b, s, :] = weight[input[b, s] - vocab_start, :] for ids in
the shard, 0 for the others (twins of specs/kernels/EmbeddingFwdOp.kir). `vocab_size` only bounds
the generated ids."""
import intent as I


@I.fn
def shard_rows(ids, vocab_start, rows):
    """The shard row of every id (0 where the id is outside the shard's `rows` rows) and whether the
    id is inside."""
    local = I.cast(ids, I.i64) - vocab_start
    inside = (local >= 0) & (local < rows)
    return I.select(inside, local, 0), inside


@I.fn
def masked(rows, inside):
    """rows [B, S, H] where inside [B, S] holds, 0 elsewhere."""
    b, s, h = rows.shape
    return I.select(I.reshape(inside, (b, s, 1)), rows, 0.0)


@I.kernel
def EmbeddingFwdOp__f32(input: I.In[I.i32, ("B", "S")], weight: I.In[I.f32, ("V", "H")],
                        output: I.Out[I.f32, ("B", "S", "H")], vocab_start: I.i64, vocab_size: I.i64):
    bs, ss, hs = I.domain(0, B), I.domain(0, S), I.domain(0, H)  # noqa: F821
    row, inside = shard_rows(input[bs, ss], vocab_start, I.cast(V, I.i64))  # noqa: F821
    # a data-dependent read: rows outside the shard read row 0 and are masked to 0
    output[bs, ss, hs] = masked(weight[row, hs], inside)


@I.kernel
def EmbeddingFwdOp__bf16(input: I.In[I.i32, ("B", "S")], weight: I.In[I.bf16, ("V", "H")],
                         output: I.Out[I.bf16, ("B", "S", "H")], vocab_start: I.i64, vocab_size: I.i64):
    bs, ss, hs = I.domain(0, B), I.domain(0, S), I.domain(0, H)  # noqa: F821
    row, inside = shard_rows(input[bs, ss], vocab_start, I.cast(V, I.i64))  # noqa: F821
    output[bs, ss, hs] = masked(weight[row, hs], inside)


@I.kernel
def EmbeddingFwdOp__f16(input: I.In[I.i32, ("B", "S")], weight: I.In[I.f16, ("V", "H")],
                        output: I.Out[I.f16, ("B", "S", "H")], vocab_start: I.i64, vocab_size: I.i64):
    bs, ss, hs = I.domain(0, B), I.domain(0, S), I.domain(0, H)  # noqa: F821
    row, inside = shard_rows(input[bs, ss], vocab_start, I.cast(V, I.i64))  # noqa: F821
    output[bs, ss, hs] = masked(weight[row, hs], inside)
