"""Mamba-style chunked state passing (the DSL twin of examples/mamba_chunk_scan.kir): the
sequence is cut into an explicit logical chunk domain whose per-chunk state is part of the
algorithm, so the state passes through an ordinary ordered loop carry, not a region_scan (L9.7).
Inside a chunk, h_t = a_t h_{t-1} + b_t x_t^T is an ordinary scan over (a, u) pairs composed
associatively, and y_t = c_t h_t."""
import intent as I


@I.fn
def compose(l, r):
    al, ul = l
    ar, ur = r
    return al * ar, ar * ul + ur


@I.fn
def chunk_step(x, a, b, c, h):
    t, e = x.shape
    p = b.shape[1]
    u = I.reshape(b, (t, p, 1)) * I.reshape(x, (t, 1, e))
    ap, up = I.scan((a, u), axis=0, identity=(1.0, 0.0), combine=compose)
    hs = I.reshape(ap, (t, 1, 1)) * I.reshape(h, (1, p, e)) + up
    y = I.contract(c, hs, reduce=((1, 1),), batch=((0, 0),), acc_dtype=I.f32)
    return y, hs[t - 1, I.domain(0, p), I.domain(0, e)]


@I.kernel
def mamba_chunk_scan(x: I.In[I.f32, ("L", "E")], a: I.In[I.f32, ("L",)], b: I.In[I.f32, ("L", "P")],
                     c: I.In[I.f32, ("L", "P")], h0: I.In[I.f32, ("P", "E")], y: I.Out[I.f32, ("L", "E")],
                     h_final: I.Out[I.f32, ("P", "E")], chunk: I.Constexpr[I.index] = 4):
    seq, dp, de = I.domain(0, L), I.domain(0, P), I.domain(0, E)  # noqa: F821
    h = h0[dp, de]
    for start in I.domain(0, L, chunk):  # noqa: F821
        members = seq[start:min(start + chunk, L)]  # noqa: F821
        yv, h = chunk_step(x[members, de], a[members], b[members, dp], c[members, dp], h)
        y[members, de] = yv
    h_final[dp, de] = h
