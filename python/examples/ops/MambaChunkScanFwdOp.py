"""MambaChunkScanFwdOp: the selective-scan recurrence h_t = a_t h_{t-1} + b_t^T x_t, y_t = c_t h_t
per batch, chunk by chunk (chunks of chunk_size positions, a shorter tail): inside a chunk
h_t = A_t h_in + U_t with (A_t, U_t) the running composition of the (decay, increment) pairs
(a1, u1) . (a2, u2) = (a1 a2, a2 u1 + u2); the chunk's last state carries to the next chunk and the
last one goes to final_state (twin of specs/kernels/MambaChunkScanFwdOp.kir).

The .kir composes the pairs with a scan over a tuple (decay, increment); the DSL's reduce and scan
take one tensor source, so the composition runs as an ordered loop over the chunk's positions in
the same order (the scan's canonical left fold), with the same results."""
import intent as I


@I.kernel
def MambaChunkScanFwdOp__f32(x: I.In[I.f32, ("B", "L", "E")], a: I.In[I.f32, ("B", "L")],
                             b: I.In[I.f32, ("B", "L", "P")], c: I.In[I.f32, ("B", "L", "P")],
                             initial_state: I.In[I.f32, ("B", "P", "E")], y: I.Out[I.f32, ("B", "L", "E")],
                             final_state: I.Out[I.f32, ("B", "P", "E")], chunk_size: I.Constexpr[int] = 4,
                             present_initial_state: I.Constexpr[bool] = False):
    positions, ps, es = I.domain(0, L), I.domain(0, P), I.domain(0, E)  # noqa: F821
    for bi in I.parallel(I.domain(0, B)):  # noqa: F821
        if present_initial_state:
            h = initial_state[bi, ps, es]
        else:
            h = I.zeros((P, E), I.f32)  # noqa: F821
        for start in I.domain(0, L, chunk_size):  # noqa: F821
            chunk = positions[start:I.minimum(start + chunk_size, L)]  # noqa: F821
            decay, increment, h_out = I.cast(1.0, I.f32), I.zeros((P, E), I.f32), h  # noqa: F821
            for t in chunk:
                at = a[bi, t]
                decay = decay * at
                increment = at * increment + I.reshape(b[bi, t, ps], (P, 1)) * x[bi, t, es]  # noqa: F821
                h_out = decay * h + increment
                y[bi, t, es] = I.vecmat(c[bi, t, ps], h_out, acc_dtype=I.f32)
            h = h_out
        final_state[bi, ps, es] = h
