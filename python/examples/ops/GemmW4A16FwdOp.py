"""GemmW4A16FwdOp: y = x @ W^T with int4 weights, W[n, k] = (q - 8) * scales[n, k / group_size],
q the k-th nibble of packed_weight row n (low nibble of byte k / 2 for even k, high for odd):
per-group partial dots x[m, g, :] . q[n, g, :] (a contract batched over the groups), each scaled by
its group scale, summed over the groups in f32 and rounded once (twins of
specs/kernels/GemmW4A16FwdOp.kir)."""
import intent as I


@I.fn
def w4a16(x, packed_weight, scales, group_size):
    """x [M, K] (a view) times the dequantized weight [N, K] transposed, in f32."""
    m, n, g = x.shape[0], scales.shape[0], scales.shape[1]
    ms, ns, gs = I.domain(0, m), I.domain(0, n), I.domain(0, g)
    # k = g * group_size + j as a [G, group] grid: x and the weight viewed as [.., G, group]
    k = I.reshape(I.indices(gs) * group_size, (g, 1)) + I.indices(I.domain(0, group_size))
    xs = I.cast(x[ms, k], I.f32)
    nibbles = (packed_weight[ns, I.div(k, 2)] >> I.cast(I.rem(k, 2) * 4, I.u8)) & 15
    q = I.cast(nibbles, I.f32) - 8.0
    part = I.contract(xs, q, batch=((1, 1),), reduce=((2, 2),), acc_dtype=I.f32)  # [M, G, N]
    return I.reduce.sum(part * I.transpose(I.cast(scales[ns, gs], I.f32)), axis=1)


@I.kernel
def GemmW4A16FwdOp__f16(x: I.In[I.f16, ("M", "K")], packed_weight: I.In[I.u8, ("N", "floordiv(K, 2)")],
                        scales: I.In[I.f16, ("N", "G")], y: I.Out[I.f16, ("M", "N")],
                        group_size: I.Constexpr[int] = 128):
    y[I.domain(0, M), I.domain(0, N)] = I.cast(w4a16(x, packed_weight, scales, group_size), I.f16)  # noqa: F821


@I.kernel
def GemmW4A16FwdOp__bf16(x: I.In[I.bf16, ("M", "K")], packed_weight: I.In[I.u8, ("N", "floordiv(K, 2)")],
                         scales: I.In[I.bf16, ("N", "G")], y: I.Out[I.bf16, ("M", "N")],
                         group_size: I.Constexpr[int] = 128):
    y[I.domain(0, M), I.domain(0, N)] = I.cast(w4a16(x, packed_weight, scales, group_size), I.bf16)  # noqa: F821
