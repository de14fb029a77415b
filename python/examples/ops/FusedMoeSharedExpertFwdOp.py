"""FusedMoeSharedExpertFwdOp: the MoE layer with an optional shared expert, in f32 rounded once to
bf16. Routing: softmax of the gate logits, top_k arg-max rounds over probability + correction_bias
(the bias steers the choice only), the chosen probabilities renormalized into a dense [T, E]
weight matrix. Routed experts: y_e = w_down[e] (silu(gate) * up), gate/up the two halves of
w_gate_up[e], combined as sum_e weight[t, e] y_e. Shared expert (when its weights are present): the
same MLP into shared_output (twin of specs/kernels/FusedMoeSharedExpertFwdOp.kir)."""
import intent  # not `as I`: I is an extent symbol of this kernel (the expert's intermediate size)


@intent.fn
def softmax_rows(x):
    t = x.shape[0]
    ex = intent.exp(x - intent.reshape(intent.reduce.max(x, axis=1), (t, 1)))
    return ex / intent.reshape(intent.reduce.sum(ex, axis=1), (t, 1))


@intent.fn
def route(probs, key, top_k):
    """The dense routing weights [T, E]: the top_k experts by `key`, their probabilities renormalized."""
    t, e = probs.shape
    tokens, experts = intent.indices(intent.domain(0, t)), intent.indices(intent.domain(0, e))
    dense, total = intent.zeros((t, e), intent.f32), intent.zeros((t,), intent.f32)
    for j in intent.domain(0, top_k):
        _, best = intent.arg_reduce.max(key, axis=1)
        hit = experts == intent.reshape(best, (t, 1))
        total = total + intent.gather(probs, tokens, best)
        dense = intent.select(hit, probs, dense)
        key = intent.select(hit, float("-inf"), key)
    return dense / intent.reshape(total, (t, 1))


@intent.fn
def swiglu(g, u):
    return g * intent.sigmoid(g) * u


@intent.kernel
def FusedMoeSharedExpertFwdOp__bf16(hidden_states: intent.In[intent.bf16, ("T", "H")],
                                    gating_output: intent.In[intent.f32, ("T", "E")],
                                    w_gate_up: intent.In[intent.bf16, ("E", "2*I", "H")],
                                    w_down: intent.In[intent.bf16, ("E", "H", "I")],
                                    correction_bias: intent.In[intent.f32, ("E",)],
                                    shared_w_gate_up: intent.In[intent.bf16, ("2*S", "H")],
                                    shared_w_down: intent.In[intent.bf16, ("H", "S")],
                                    shared_output: intent.Out[intent.bf16, ("T", "H")],
                                    routed_output: intent.Out[intent.bf16, ("T", "H")],
                                    top_k: intent.Constexpr[int] = 2,
                                    present_correction_bias: intent.Constexpr[bool] = False,
                                    present_shared_w_gate_up: intent.Constexpr[bool] = False):
    ts, hs, es, inner = intent.domain(0, T), intent.domain(0, H), intent.domain(0, E), intent.domain(0, I)  # noqa: F821
    x = intent.cast(hidden_states[ts, hs], intent.f32)
    # route_select
    probs = softmax_rows(gating_output[ts, es])
    key = probs
    if present_correction_bias:
        key = probs + correction_bias[es]
    weights = route(probs, key, top_k)
    # routed_experts: gate rows [0, I), up rows [I, 2I) of every w_gate_up[e]
    gate_w = intent.cast(w_gate_up[es, inner, hs], intent.f32)
    up_w = intent.cast(w_gate_up[es, intent.indices(inner) + I, hs], intent.f32)  # noqa: F821
    act = swiglu(intent.contract(x, gate_w, reduce=((1, 2),), acc_dtype=intent.f32),
                 intent.contract(x, up_w, reduce=((1, 2),), acc_dtype=intent.f32))  # [T, E, I]
    y = intent.contract(act, intent.cast(w_down[es, hs, inner], intent.f32), batch=((1, 0),), reduce=((2, 2),),
                        acc_dtype=intent.f32)  # [T, E, H]
    routed = intent.contract(weights, y, batch=((0, 0),), reduce=((1, 1),), acc_dtype=intent.f32)
    routed_output[ts, hs] = intent.cast(routed, intent.bf16)
    # shared_expert
    if present_shared_w_gate_up:
        ss = intent.domain(0, S)  # noqa: F821
        gate_s = intent.cast(shared_w_gate_up[ss, hs], intent.f32)
        up_s = intent.cast(shared_w_gate_up[intent.indices(ss) + S, hs], intent.f32)  # noqa: F821
        act_s = swiglu(intent.contract(x, gate_s, reduce=((1, 1),), acc_dtype=intent.f32),
                       intent.contract(x, up_s, reduce=((1, 1),), acc_dtype=intent.f32))  # [T, S]
        shared = intent.contract(act_s, intent.cast(shared_w_down[hs, ss], intent.f32), reduce=((1, 1),),
                                 acc_dtype=intent.f32)
        shared_output[ts, hs] = intent.cast(shared, intent.bf16)
