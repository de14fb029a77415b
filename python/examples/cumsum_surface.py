"""cumsum over the last axis with f16 input (default widening to f32) and a matmul (the DSL twin
of examples/cumsum_surface.kir)."""
import intent as I


@I.kernel
def prefix_and_project(x: I.In[I.f16, ("M", "N")], w: I.In[I.f16, ("N", "P")], y: I.Out[I.f32, ("M", "N")],
                       z: I.Out[I.f32, ("M", "P")]):
    rows, cols, outs = I.domain(0, M), I.domain(0, N), I.domain(0, P)  # noqa: F821
    xv = x[rows, cols]
    y[rows, cols] = I.cumsum(xv, axis=-1)
    z[rows, outs] = I.matmul(xv, w[cols, outs], acc_dtype=I.f32)
