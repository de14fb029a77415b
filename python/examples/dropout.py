"""Dropout with the language's counter-based RNG (the DSL twin of examples/dropout.kir): element
i is kept when uniform(seed, i) >= p and then scaled by 1 / (1 - p) (L17.2)."""
import intent as I


@I.kernel
def dropout(x: I.In[I.f32, ("N",)], y: I.Out[I.f32, ("N",)], seed: I.u64, p: I.f32):
    n = I.domain(0, N)  # noqa: F821
    keep = I.random.uniform(seed, n) >= p
    y[n] = I.select(keep, x[n] * (1.0 / (1.0 - p)), 0.0)
