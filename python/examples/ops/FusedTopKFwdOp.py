"""FusedTopKFwdOp: MoE top-k routing. Per token, the softmax of the E gate logits, then top_k
rounds of arg-max (ties to the lower expert), the chosen expert masked to -inf for the next round;
weights are the chosen probabilities (divided by their sum when `renormalize` holds), ids the
expert positions as i32 (twin of specs/kernels/FusedTopKFwdOp.kir)."""
import intent as I


@I.fn
def softmax_rows(x):
    t, e = x.shape
    ex = I.exp(x - I.reshape(I.reduce.max(x, axis=1), (t, 1)))
    return ex / I.reshape(I.reduce.sum(ex, axis=1), (t, 1))


@I.kernel
def FusedTopKFwdOp(gating_output: I.In[I.f32, ("T", "E")], weights: I.Out[I.f32, ("T", "K")],
                   ids: I.Out[I.i32, ("T", "K")], top_k: I.Constexpr[int], renormalize: I.Constexpr[bool] = True):
    tokens, experts, picks = I.domain(0, T), I.domain(0, E), I.domain(0, K)  # noqa: F821
    scores = softmax_rows(gating_output[tokens, experts])
    total = I.zeros((T,), I.f32)  # noqa: F821
    for j in picks:
        best, pos = I.arg_reduce.max(scores, axis=1)
        weights[tokens, j] = best
        ids[tokens, j] = I.cast(pos, I.i32)
        chosen = I.indices(experts) == I.reshape(pos, (T, 1))  # noqa: F821
        scores = I.select(chosen, float("-inf"), scores)
        total = total + best
    if renormalize:
        weights[tokens, picks] = weights[tokens, picks] / I.reshape(total, (T, 1))  # noqa: F821
