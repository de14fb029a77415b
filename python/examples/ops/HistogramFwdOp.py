"""HistogramFwdOp: counts[b] = the number of i with mask[i] (when the mask is passed) and
values[i] == b; values outside [0, num_bins) are not counted (twins of
specs/kernels/HistogramFwdOp.kir)."""
import intent as I


@I.fn
def in_range(values, num_bins):
    v = I.cast(values, I.i64)
    return (v >= 0) & (v < num_bins)


@I.kernel
def HistogramFwdOp__i64(values: I.In[I.i64, ("N",)], mask: I.In[I.bool, ("N",)], counts: I.Out[I.i64, ("B",)],
                        num_bins: I.i64, present_mask: I.Constexpr[bool] = False):
    n = I.domain(0, N)  # noqa: F821
    valid = in_range(values[n], num_bins)
    if present_mask:
        valid = mask[n] & valid
    counts[I.domain(0, B)] = I.histogram(values[n], bins=B, valid=valid, count_dtype=I.i64)  # noqa: F821


@I.kernel
def HistogramFwdOp__i32(values: I.In[I.i32, ("N",)], mask: I.In[I.bool, ("N",)], counts: I.Out[I.i32, ("B",)],
                        num_bins: I.i64, present_mask: I.Constexpr[bool] = False):
    n = I.domain(0, N)  # noqa: F821
    valid = in_range(values[n], num_bins)
    if present_mask:
        valid = mask[n] & valid
    counts[I.domain(0, B)] = I.histogram(values[n], bins=B, valid=valid, count_dtype=I.i32)  # noqa: F821
