"""FlashAttentionFwdOp: o = softmax(softmax_scale * q k^T + attn_bias [+ causal mask]) v per batch
and head, written as FlashAttention: a region_fold over the keys whose summaries (row maxima,
sums of exp(score - max), unnormalized outputs) combine with the online-softmax rescaling (twin of
specs/kernels/FlashAttentionFwdOp.kir)."""
import intent as I


@I.fn
def shift_of(m):
    """A row maximum usable as a shift: -inf (no visible score yet) becomes 0."""
    return I.select(m != float("-inf"), m, 0.0)


@I.fn
def scores(k, bias, q, scale):
    """scale * q k^T + bias, query-major [M, S] (the bias slice arrives key-major)."""
    return I.contract(q, k, reduce=((1, 1),), acc_dtype=I.f32) * scale + I.transpose(bias)


@I.fn
def summary(x, v):
    """(row maxima, sums of exp(x - max), exp(x - max) @ v) of scores x [M, S]."""
    m = I.reduce.max(x, axis=1)
    p = I.exp(x - I.reshape(shift_of(m), (x.shape[0], 1)))
    return m, I.reduce.sum(p, axis=1), I.contract(p, v, reduce=((1, 0),), acc_dtype=I.f32)


@I.fn
def summarize_keys(k, v, bias, kpos, q, qpos, scale):
    return summary(scores(k, bias, q, scale), v)


@I.fn
def summarize_causal_keys(k, v, bias, kpos, q, qpos, scale):
    """As summarize_keys, with the scores of keys after the query (absolute positions) at -inf."""
    visible = I.reshape(qpos, (q.shape[0], 1)) >= kpos
    return summary(I.select(visible, scores(k, bias, q, scale), float("-inf")), v)


@I.fn
def merge_summaries(a, b):
    ma, la, acca = a
    mb, lb, accb = b
    m = I.maximum(ma, mb)
    sh = shift_of(m)
    alpha, beta = I.exp(ma - sh), I.exp(mb - sh)
    rows = ma.shape[0]
    return m, la * alpha + lb * beta, acca * I.reshape(alpha, (rows, 1)) + accb * I.reshape(beta, (rows, 1))


@I.fn
def attend(q, k, v, bias, kpos, qpos, scale, causal):
    """One (batch, head): the fold over the keys, then acc / l (0 for a row with no visible key)."""
    m, e = q.shape[0], v.shape[1]
    identity = (I.full((m,), float("-inf"), dtype=I.f32), I.zeros((m,), I.f32), I.zeros((m, e), I.f32))
    _, l, acc = I.region_fold(source=(k, v, bias, kpos), axis=0,
                              summarize=summarize_causal_keys if causal else summarize_keys,
                              combine=merge_summaries, identity=identity, operands=(q, qpos, scale))
    return acc / I.reshape(I.select(l > 0.0, l, 1.0), (m, 1))


@I.kernel
def FlashAttentionFwdOp__f32(q: I.In[I.f32, ("B", "H", "S", "D")], k: I.In[I.f32, ("B", "H", "SK", "D")],
                             v: I.In[I.f32, ("B", "H", "SK", "DV")], attn_bias: I.In[I.f32, ("B", "H", "S", "SK")],
                             o: I.Out[I.f32, ("B", "H", "S", "DV")], is_causal: I.Constexpr[bool] = False,
                             softmax_scale: I.f32 = None, present_attn_bias: I.Constexpr[bool] = False):
    rows, keys = I.domain(0, S), I.domain(0, SK)  # noqa: F821
    dd, de = I.domain(0, D), I.domain(0, DV)  # noqa: F821
    for b in I.parallel(I.domain(0, B)):  # noqa: F821
        for h in I.parallel(I.domain(0, H)):  # noqa: F821
            if present_attn_bias:
                bias = I.transpose(attn_bias[b, h, rows, keys])  # key-major, the folded axis first
            else:
                bias = I.zeros((SK, S), I.f32)  # noqa: F821
            o[b, h, rows, de] = attend(q[b, h, rows, dd], k[b, h, keys, dd], v[b, h, keys, de], bias,
                                       I.indices(keys), I.indices(rows), softmax_scale, causal=is_causal)
