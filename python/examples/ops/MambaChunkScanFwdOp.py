"""MambaChunkScanFwdOp: the selective-scan recurrence h_t = a_t h_{t-1} + b_t^T x_t, y_t = c_t h_t
per batch, chunk by chunk (chunks of chunk_size positions, a shorter tail): the state passes
between chunks through an ordered loop carry; inside a chunk h_t = A_t h_in + U_t with (A_t, U_t)
a scan over the (decay, increment) pairs (a1, u1) . (a2, u2) = (a1 a2, a2 u1 + u2). h_0 is the
optional initial_state, the last state goes to final_state (twin of
specs/kernels/MambaChunkScanFwdOp.kir)."""
import intent as I


@I.fn
def compose(l, r):
    al, ul = l
    ar, ur = r
    return al * ar, ar * ul + ur


@I.fn
def chunk_step(x, a, b, c, h):
    """One chunk: its outputs y [T, E] and the state after it, from the incoming state h [P, E]."""
    t, e = x.shape
    p = b.shape[1]
    u = I.reshape(b, (t, p, 1)) * I.reshape(x, (t, 1, e))
    decay, increment = I.scan((a, u), axis=0, identity=(1.0, 0.0), combine=compose)
    hs = I.reshape(decay, (t, 1, 1)) * h + increment
    y = I.contract(c, hs, reduce=((1, 1),), batch=((0, 0),), acc_dtype=I.f32)
    return y, hs[t - 1, :, :]


@I.kernel
def MambaChunkScanFwdOp__f32(x: I.In[I.f32, ("B", "L", "E")], a: I.In[I.f32, ("B", "L")],
                             b: I.In[I.f32, ("B", "L", "P")], c: I.In[I.f32, ("B", "L", "P")],
                             initial_state: I.In[I.f32, ("B", "P", "E")], y: I.Out[I.f32, ("B", "L", "E")],
                             final_state: I.Out[I.f32, ("B", "P", "E")], chunk_size: I.Constexpr[I.index] = 4,
                             present_initial_state: I.Constexpr[bool] = False):
    positions, ps, es = I.domain(0, L), I.domain(0, P), I.domain(0, E)  # noqa: F821
    for bi in I.parallel(I.domain(0, B)):  # noqa: F821
        if present_initial_state:
            h = initial_state[bi, ps, es]
        else:
            h = I.zeros((P, E), I.f32)  # noqa: F821
        for start in I.domain(0, L, chunk_size):  # noqa: F821
            chunk = positions[start:I.minimum(start + chunk_size, L)]  # noqa: F821
            yc, h = chunk_step(x[bi, chunk, es], a[bi, chunk], b[bi, chunk, ps], c[bi, chunk, ps], h)
            y[bi, chunk, es] = yc
        final_state[bi, ps, es] = h
