"""Row-wise softmax of an [M, N] matrix (the DSL twin of examples/softmax.kir)."""
import intent as I


@I.kernel
def softmax(x: I.In[I.f32, ("M", "N")], y: I.Out[I.f32, ("M", "N")]):
    rows, cols = I.domain(0, M), I.domain(0, N)  # noqa: F821
    v = x[rows, cols]
    e = I.exp(v - I.reshape(I.reduce.max(v, axis=1), (M, 1)))  # noqa: F821
    y[rows, cols] = e / I.reshape(I.reduce.sum(e, axis=1), (M, 1))  # noqa: F821
