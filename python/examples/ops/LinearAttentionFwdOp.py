"""LinearAttentionFwdOp: causal linear attention o_t = q_t S_t, S_t = S_0 + sum_{s <= t} k_s^T v_s
per batch and head, as a region_scan over the sequence: a slice's transition is the sum of its
k^T v, apply adds it to the state, emit forms the slice's outputs from its incoming state plus the
intra-slice causal part; the final state is the second output (twin of
specs/kernels/LinearAttentionFwdOp.kir)."""
import intent as I


@I.fn
def add_states(a, b):
    return a + b


@I.fn
def summarize_kv(q, k, v, pos):
    return I.contract(k, v, reduce=((0, 0),), acc_dtype=I.f32)


@I.fn
def apply_kv(t, state):
    return state + t


@I.fn
def emit_outputs(q, k, v, pos, state):
    """q S_in + (q k^T masked to s <= t) v for one slice; the mask compares absolute positions."""
    causal = I.reshape(pos, (pos.shape[0], 1)) >= pos
    inter = I.contract(q, state, reduce=((1, 0),), acc_dtype=I.f32)
    qk = I.select(causal, I.contract(q, k, reduce=((1, 1),), acc_dtype=I.f32), 0.0)
    return inter + I.contract(qk, v, reduce=((1, 0),), acc_dtype=I.f32)


@I.kernel
def LinearAttentionFwdOp__f32(q: I.In[I.f32, ("B", "H", "L", "D")], k: I.In[I.f32, ("B", "H", "L", "D")],
                              v: I.In[I.f32, ("B", "H", "L", "E")], initial_state: I.In[I.f32, ("B", "H", "D", "E")],
                              o: I.Out[I.f32, ("B", "H", "L", "E")], final_state: I.Out[I.f32, ("B", "H", "D", "E")],
                              present_initial_state: I.Constexpr[bool] = False):
    ls, dd, de = I.domain(0, L), I.domain(0, D), I.domain(0, E)  # noqa: F821
    zero = I.zeros((D, E), I.f32)  # noqa: F821
    for b in I.parallel(I.domain(0, B)):  # noqa: F821
        for h in I.parallel(I.domain(0, H)):  # noqa: F821
            if present_initial_state:
                init = initial_state[b, h, dd, de]
            else:
                init = zero
            out, final = I.region_scan(source=(q[b, h, ls, dd], k[b, h, ls, dd], v[b, h, ls, de], I.indices(ls)),
                                       axis=0, summarize=summarize_kv, combine=add_states, identity=zero,
                                       initial_state=init, apply=apply_kv, emit=emit_outputs)
            o[b, h, ls, de] = out
            final_state[b, h, dd, de] = final
