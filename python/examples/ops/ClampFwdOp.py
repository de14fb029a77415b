"""ClampFwdOp: output = min(max(input, min), max), each bound optional (`present_*`) and
broadcast against the input by how it is indexed (twins of specs/kernels/ClampFwdOp.kir)."""
import intent as I


@I.kernel
def ClampFwdOp__f16(input: I.In[I.f16, ("M", "N")], min: I.In[I.f16, ("M", "N")], max: I.In[I.f16, (1,)],
                    output: I.Out[I.f16, ("M", "N")], present_min: I.Constexpr[bool],
                    present_max: I.Constexpr[bool]):
    rows, cols = I.domain(0, M), I.domain(0, N)  # noqa: F821
    x = input[rows, cols]
    if present_min:
        x = I.maximum(x, min[rows, cols])
    if present_max:
        x = I.minimum(x, max[0])
    output[rows, cols] = x


@I.kernel
def ClampFwdOp__bf16(input: I.In[I.bf16, ("M", "N")], min: I.In[I.bf16, ("N",)], max: I.In[I.bf16, (1,)],
                     output: I.Out[I.bf16, ("M", "N")], present_min: I.Constexpr[bool],
                     present_max: I.Constexpr[bool]):
    rows, cols = I.domain(0, M), I.domain(0, N)  # noqa: F821
    x = input[rows, cols]
    if present_min:
        x = I.maximum(x, min[cols])
    if present_max:
        x = I.minimum(x, max[0])
    output[rows, cols] = x


@I.kernel
def ClampFwdOp__f32(input: I.In[I.f32, ("M", "N")], min: I.In[I.f32, ("N",)], max: I.In[I.f32, ("M", 1)],
                    output: I.Out[I.f32, ("M", "N")], present_min: I.Constexpr[bool],
                    present_max: I.Constexpr[bool]):
    rows, cols = I.domain(0, M), I.domain(0, N)  # noqa: F821
    x = input[rows, cols]
    if present_min:
        x = I.maximum(x, min[cols])
    if present_max:
        x = I.minimum(x, max[rows, I.domain(0, 1)])
    output[rows, cols] = x
