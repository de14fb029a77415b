"""DropoutFwdOp: element e (row-major flat index) is kept when u = uniform(seed, offset + e) >= p;
output = kept ? x / (1 - p) : 0 (in f32, rounded once) and mask = kept. The Philox counter is the
element's logical index, so the result is independent of execution order (twins of
specs/kernels/DropoutFwdOp.kir)."""
import intent as I


@I.fn
def dropout(x, flat, p, seed, offset):
    """(x scaled by 1 / (1 - p) where kept, else 0; kept) for elements of flat indices `flat`."""
    keep = I.random.uniform(seed, offset + I.cast(flat, I.u64)) >= p
    return I.select(keep, I.cast(x, I.f32) * (1.0 / (1.0 - p)), 0.0), keep


@I.kernel
def DropoutFwdOp__f32(input: I.In[I.f32, ("M", "N")], output: I.Out[I.f32, ("M", "N")],
                      mask: I.Out[I.bool, ("M", "N")], p: I.f32, seed: I.u64, offset: I.u64):
    rows, cols = I.domain(0, M), I.domain(0, N)  # noqa: F821
    flat = I.reshape(I.indices(rows) * N, (M, 1)) + I.indices(cols)  # noqa: F821
    y, keep = dropout(input[rows, cols], flat, p, seed, offset)
    output[rows, cols] = y
    mask[rows, cols] = keep


@I.kernel
def DropoutFwdOp__f16(input: I.In[I.f16, ("M", "N")], output: I.Out[I.f16, ("M", "N")],
                      mask: I.Out[I.bool, ("M", "N")], p: I.f32, seed: I.u64, offset: I.u64):
    rows, cols = I.domain(0, M), I.domain(0, N)  # noqa: F821
    flat = I.reshape(I.indices(rows) * N, (M, 1)) + I.indices(cols)  # noqa: F821
    y, keep = dropout(input[rows, cols], flat, p, seed, offset)
    output[rows, cols] = I.cast(y, I.f16)
    mask[rows, cols] = keep


@I.kernel
def DropoutFwdOp__bf16__r3(input: I.In[I.bf16, ("B", "M", "N")], output: I.Out[I.bf16, ("B", "M", "N")],
                           mask: I.Out[I.bool, ("B", "M", "N")], p: I.f32, seed: I.u64, offset: I.u64):
    bats, rows, cols = I.domain(0, B), I.domain(0, M), I.domain(0, N)  # noqa: F821
    plane = I.reshape(I.indices(bats) * M, (B, 1)) + I.indices(rows)  # noqa: F821
    flat = I.reshape(plane * N, (B, M, 1)) + I.indices(cols)  # noqa: F821
    y, keep = dropout(input[bats, rows, cols], flat, p, seed, offset)
    output[bats, rows, cols] = I.cast(y, I.bf16)
    mask[bats, rows, cols] = keep
