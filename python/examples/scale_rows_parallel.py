"""Each row of x scaled by its own factor, rows in unordered parallel iteration (the DSL twin of
examples/scale_rows_parallel.kir, L5.1)."""
import intent as I


@I.kernel
def scale_rows(x: I.In[I.f32, ("M", "N")], s: I.In[I.f32, ("M",)], y: I.Out[I.f32, ("M", "N")]):
    cols = I.domain(0, N)  # noqa: F821
    for r in I.parallel(I.domain(0, M)):  # noqa: F821
        y[r, cols] = x[r, cols] * s[r]
