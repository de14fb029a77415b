"""GemmFwdOp: c = op(a) @ op(b) with op a transpose when trans_a / trans_b hold, accumulated in
f32 and rounded once to c's dtype. The transposes are never materialized: they only choose which
axis of each operand is K (twins of specs/kernels/GemmFwdOp.kir)."""
import intent as I


@I.kernel
def GemmFwdOp__f32__nn(a: I.In[I.f32, ("M", "K")], b: I.In[I.f32, ("K", "N")], c: I.Out[I.f32, ("M", "N")],
                       trans_a: I.Constexpr[bool] = False, trans_b: I.Constexpr[bool] = False):
    acc = I.matmul(a[:, :], b[:, :], acc_dtype=I.f32, transpose_lhs=trans_a, transpose_rhs=trans_b)
    c[:, :] = acc


@I.kernel
def GemmFwdOp__bf16__nt(a: I.In[I.bf16, ("M", "K")], b: I.In[I.bf16, ("N", "K")], c: I.Out[I.bf16, ("M", "N")],
                        trans_a: I.Constexpr[bool] = False, trans_b: I.Constexpr[bool] = True):
    acc = I.matmul(a[:, :], b[:, :], acc_dtype=I.f32, transpose_lhs=trans_a, transpose_rhs=trans_b)
    c[:, :] = I.cast(acc, I.bf16)


@I.kernel
def GemmFwdOp__f16__tn(a: I.In[I.f16, ("K", "M")], b: I.In[I.f16, ("K", "N")], c: I.Out[I.f16, ("M", "N")],
                       trans_a: I.Constexpr[bool] = True, trans_b: I.Constexpr[bool] = False):
    acc = I.matmul(a[:, :], b[:, :], acc_dtype=I.f32, transpose_lhs=trans_a, transpose_rhs=trans_b)
    c[:, :] = I.cast(acc, I.f16)
