"""EmbeddingFwdOp: a vocabulary-sharded lookup. The shard holds the rows of ids
[vocab_start, vocab_start + V): output[b, s, :] = weight[input[b, s] - vocab_start, :] for ids in
the shard and 0 for the others, a gather whose invalid points read the fill (twins of
specs/kernels/EmbeddingFwdOp.kir). `vocab_size` only bounds the generated ids."""
import intent as I


@I.fn
def lookup(weight_rows, ids, vocab_start):
    """The shard row of every id [B, S, 1] and whether the id is in the shard's `weight_rows` rows."""
    b, s = ids.shape
    local = I.reshape(I.cast(ids, I.i64) - vocab_start, (b, s, 1))
    return local, (local >= 0) & (local < weight_rows)


@I.kernel
def EmbeddingFwdOp__f32(input: I.In[I.i32, ("B", "S")], weight: I.In[I.f32, ("V", "H")],
                        output: I.Out[I.f32, ("B", "S", "H")], vocab_start: I.i64, vocab_size: I.i64):
    bs, ss, hs = I.domain(0, B), I.domain(0, S), I.domain(0, H)  # noqa: F821
    row, inside = lookup(I.cast(V, I.i64), input[bs, ss], vocab_start)  # noqa: F821
    output[bs, ss, hs] = I.gather(weight, row, hs, valid=inside, fill=0.0)


@I.kernel
def EmbeddingFwdOp__bf16(input: I.In[I.i32, ("B", "S")], weight: I.In[I.bf16, ("V", "H")],
                         output: I.Out[I.bf16, ("B", "S", "H")], vocab_start: I.i64, vocab_size: I.i64):
    bs, ss, hs = I.domain(0, B), I.domain(0, S), I.domain(0, H)  # noqa: F821
    row, inside = lookup(I.cast(V, I.i64), input[bs, ss], vocab_start)  # noqa: F821
    output[bs, ss, hs] = I.gather(weight, row, hs, valid=inside, fill=0.0)


@I.kernel
def EmbeddingFwdOp__f16(input: I.In[I.i32, ("B", "S")], weight: I.In[I.f16, ("V", "H")],
                        output: I.Out[I.f16, ("B", "S", "H")], vocab_start: I.i64, vocab_size: I.i64):
    bs, ss, hs = I.domain(0, B), I.domain(0, S), I.domain(0, H)  # noqa: F821
    row, inside = lookup(I.cast(V, I.i64), input[bs, ss], vocab_start)  # noqa: F821
    output[bs, ss, hs] = I.gather(weight, row, hs, valid=inside, fill=0.0)
