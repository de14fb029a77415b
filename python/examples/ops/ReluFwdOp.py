"""ReluFwdOp: output = max(input, 0); with `inplace` the result is written back into `input`
(twins of specs/kernels/ReluFwdOp.kir)."""
import intent as I


@I.kernel
def ReluFwdOp__f16(input: I.InOut[I.f16, ("M", "N")], output: I.Out[I.f16, ("M", "N")],
                   inplace: I.Constexpr[bool] = False):
    rows, cols = I.domain(0, M), I.domain(0, N)  # noqa: F821
    y = I.maximum(input[rows, cols], 0.0)
    if inplace:
        input[rows, cols] = y
    else:
        output[rows, cols] = y


@I.kernel
def ReluFwdOp__bf16(input: I.InOut[I.bf16, ("M", "N")], output: I.Out[I.bf16, ("M", "N")],
                    inplace: I.Constexpr[bool] = False):
    rows, cols = I.domain(0, M), I.domain(0, N)  # noqa: F821
    y = I.maximum(input[rows, cols], 0.0)
    if inplace:
        input[rows, cols] = y
    else:
        output[rows, cols] = y


@I.kernel
def ReluFwdOp__f32__r3(input: I.InOut[I.f32, ("B", "M", "N")], output: I.Out[I.f32, ("B", "M", "N")],
                       inplace: I.Constexpr[bool] = False):
    bats, rows, cols = I.domain(0, B), I.domain(0, M), I.domain(0, N)  # noqa: F821
    y = I.maximum(input[bats, rows, cols], 0.0)
    if inplace:
        input[bats, rows, cols] = y
    else:
        output[bats, rows, cols] = y
