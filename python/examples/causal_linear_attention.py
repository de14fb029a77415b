"""Causal linear attention o_t = sum_{s<=t} (q_t . k_s) v_s as a region_scan over the sequence
(the DSL twin of examples/causal_linear_attention.kir). The transition of a slice is its k^T v;
transitions compose by addition; a slice's output is q times the incoming state plus the causal
intra-slice part. Slice boundaries are the compiler's and not observable (L9.5)."""
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
    n = pos.shape[0]
    inter = I.contract(q, state, reduce=((1, 0),), acc_dtype=I.f32)
    qk = I.contract(q, k, reduce=((1, 1),), acc_dtype=I.f32)
    causal = I.reshape(pos, (n, 1)) >= I.reshape(pos, (1, n))
    return inter + I.contract(I.select(causal, qk, 0.0), v, reduce=((1, 0),), acc_dtype=I.f32)


@I.kernel
def causal_linear_attention(q: I.In[I.f32, ("L", "D")], k: I.In[I.f32, ("L", "D")], v: I.In[I.f32, ("L", "E")],
                            s0: I.In[I.f32, ("D", "E")], o: I.Out[I.f32, ("L", "E")],
                            s_final: I.Out[I.f32, ("D", "E")]):
    seq, dd, de = I.domain(0, L), I.domain(0, D), I.domain(0, E)  # noqa: F821
    out, final = I.region_scan(source=(q[seq, dd], k[seq, dd], v[seq, de], I.indices(seq)), axis=0,
                               summarize=summarize_kv, combine=add_states, identity=I.zeros((D, E), I.f32),  # noqa: F821
                               initial_state=s0[dd, de], apply=apply_kv, emit=emit_outputs)
    o[seq, de] = out
    s_final[dd, de] = final
