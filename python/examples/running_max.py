"""The running maximum of a vector as an ordered loop with a carry (the DSL twin of
examples/running_max.kir): every prefix maximum is stored (L6.1)."""
import intent as I


@I.kernel
def running_max(x: I.In[I.f32, ("N",)], y: I.Out[I.f32, ("N",)]):
    best = I.cast(float("-inf"), I.f32)
    for i in I.domain(0, N):  # noqa: F821
        best = I.maximum(best, x[i])
        y[i] = best
