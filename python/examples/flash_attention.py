"""Single-head attention O = softmax(scale * Q K^T) V over the key axis, written as FlashAttention:
a region_fold over the keys (the DSL twin of examples/flash_attention.kir).

Each contiguous slice of K/V rows is summarized into (m, l, acc): the row maxima of its scores,
the sums of exp(score - m) and the unnormalized outputs. Two adjacent summaries combine with the
online-softmax rescaling. The identity (m = -inf, l = 0, acc = 0) is neutral because a maximum of
-inf is replaced by 0 before it is subtracted, so exp never sees -inf - -inf."""
import intent as I


@I.fn
def shift_of(m):
    """A row maximum usable as a shift: -inf (no finite score yet) becomes 0."""
    return I.select(m != float("-inf"), m, 0.0)


@I.fn
def summarize_keys(k, v, q, scale):
    x = I.contract(q, k, reduce=((1, 1),), acc_dtype=I.f32) * scale
    m = I.reduce.max(x, axis=1)
    p = I.exp(x - I.reshape(shift_of(m), (q.shape[0], 1)))
    return m, I.reduce.sum(p, axis=1), I.contract(p, v, reduce=((1, 0),), acc_dtype=I.f32)


@I.fn
def merge_summaries(a, b):
    ma, la, acca = a
    mb, lb, accb = b
    m = I.maximum(ma, mb)
    sh = shift_of(m)
    alpha, beta = I.exp(ma - sh), I.exp(mb - sh)
    rows = ma.shape[0]
    return m, la * alpha + lb * beta, acca * I.reshape(alpha, (rows, 1)) + accb * I.reshape(beta, (rows, 1))


@I.kernel
def flash_attention(q: I.In[I.f32, ("M", "D")], k: I.In[I.f32, ("N", "D")], v: I.In[I.f32, ("N", "E")],
                    o: I.Out[I.f32, ("M", "E")], scale: I.f32):
    rows, keys = I.domain(0, M), I.domain(0, N)  # noqa: F821
    dd, de = I.domain(0, D), I.domain(0, E)  # noqa: F821
    qv, kv, vv = q[rows, dd], k[keys, dd], v[keys, de]
    identity = (I.full((M,), float("-inf"), dtype=I.f32), I.zeros((M,), I.f32),  # noqa: F821
                I.zeros((M, E), I.f32))  # noqa: F821
    m, l, acc = I.region_fold(source=(kv, vv), axis=0, summarize=summarize_keys, combine=merge_summaries,
                              identity=identity, operands=(qv, scale))
    den = I.select(l > 0.0, l, 1.0)
    o[rows, de] = acc / I.reshape(den, (M, 1))  # noqa: F821
