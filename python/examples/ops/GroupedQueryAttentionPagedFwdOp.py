"""GroupedQueryAttentionPagedFwdOp: decode attention over a paged KV cache. Cache position j of
request b lives in page block_table[b, j / PS], slot j % PS; query head h reads KV head
h / (HQ / HKV). K and V are gathered with validity j < cache_seqlens[b] (fill 0; fp8 KV cast to
f32 after the read); softmax(q k^T / sqrt(D)) v over the live positions, 0 for a request with no
cached tokens (twins of specs/kernels/GroupedQueryAttentionPagedFwdOp.kir)."""
import intent as I


@I.fn
def paged_kv(pages, page, slot, kv_head, live):
    """The cached rows of every (request, query head, position) as f32 [B, HQ, J, D], 0 where the
    position is not live: page [B, J], slot [J], kv_head [HQ], live [B, J]."""
    (b, j), (hq,), d = page.shape, kv_head.shape, pages.shape[3]
    rows = I.gather(pages, I.reshape(page, (b, 1, j, 1)), I.reshape(slot, (j, 1)), I.reshape(kv_head, (hq, 1, 1)),
                    I.indices(I.domain(0, d)), valid=I.reshape(live, (b, 1, j, 1)), fill=0.0)
    return I.cast(rows, I.f32)


@I.fn
def attend(q, k, v, live):
    """softmax(q k^T / sqrt(D)) v per (request, head) over the live positions [B, J]."""
    b, hq, d = q.shape
    j = live.shape[1]
    visible = I.reshape(live, (b, 1, j))
    dots = I.contract(q, k, batch=((0, 0), (1, 1)), reduce=((2, 3),), acc_dtype=I.f32)
    scores = I.select(visible, dots * I.rsqrt(I.cast(d, I.f32)), float("-inf"))
    p = I.select(visible, I.exp(scores - I.reshape(I.reduce.max(scores, axis=2), (b, hq, 1))), 0.0)
    den = I.reduce.sum(p, axis=2)
    num = I.contract(p, v, batch=((0, 0), (1, 1)), reduce=((2, 2),), acc_dtype=I.f32)
    return num / I.reshape(I.select(den > 0.0, den, 1.0), (b, hq, 1))


@I.fn
def paged_attention(q, k_pages, v_pages, cache_seqlens, block_table):
    b, hq, d = q.shape
    ps, hkv, w = k_pages.shape[1], k_pages.shape[2], block_table.shape[1]
    bs, positions = I.domain(0, b), I.domain(0, w * ps)
    j = I.indices(positions)
    page = I.gather(block_table, I.reshape(I.indices(bs), (b, 1)), I.div(j, ps))
    live = I.cast(j, I.i32) < I.reshape(cache_seqlens[bs], (b, 1))
    group = I.div(I.cast(hq, I.index), hkv)  # query heads per KV head (one extent made a value)
    kv_head = I.div(I.indices(I.domain(0, hq)), group)
    slot = I.rem(j, ps)
    k = paged_kv(k_pages, page, slot, kv_head, live)
    v = paged_kv(v_pages, page, slot, kv_head, live)
    return attend(I.cast(q[bs, I.domain(0, hq), I.domain(0, d)], I.f32), k, v, live)


@I.kernel
def GroupedQueryAttentionPagedFwdOp__f16__f16(q: I.In[I.f16, ("B", "HQ", "D")],
                                              k_pages: I.In[I.f16, ("P", "PS", "HKV", "D")],
                                              v_pages: I.In[I.f16, ("P", "PS", "HKV", "D")],
                                              cache_seqlens: I.In[I.i32, ("B",)], block_table: I.In[I.i32, ("B", "W")],
                                              output: I.Out[I.f16, ("B", "HQ", "D")]):
    o = paged_attention(q, k_pages, v_pages, cache_seqlens, block_table)
    output[I.domain(0, B), I.domain(0, HQ), I.domain(0, D)] = I.cast(o, I.f16)  # noqa: F821


@I.kernel
def GroupedQueryAttentionPagedFwdOp__bf16__e4m3(q: I.In[I.bf16, ("B", "HQ", "D")],
                                                k_pages: I.In[I.e4m3, ("P", "PS", "HKV", "D")],
                                                v_pages: I.In[I.e4m3, ("P", "PS", "HKV", "D")],
                                                cache_seqlens: I.In[I.i32, ("B",)],
                                                block_table: I.In[I.i32, ("B", "W")],
                                                output: I.Out[I.bf16, ("B", "HQ", "D")]):
    o = paged_attention(q, k_pages, v_pages, cache_seqlens, block_table)
    output[I.domain(0, B), I.domain(0, HQ), I.domain(0, D)] = I.cast(o, I.bf16)  # noqa: F821
