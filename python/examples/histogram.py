"""A histogram of token ids with a validity mask (the DSL twin of examples/histogram.kir); the bin
count is the output view's extent (L13.1)."""
import intent as I


@I.kernel
def token_histogram(ids: I.In[I.i32, ("T",)], mask: I.In[I.bool, ("T",)], counts: I.Out[I.u32, ("V",)]):
    t = I.domain(0, T)  # noqa: F821
    counts[I.domain(0, V)] = I.histogram(ids[t], bins=V, valid=mask[t], count_dtype=I.u32)  # noqa: F821
