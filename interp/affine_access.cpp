// Strided load/store through affine relations (see affine_access.h). Bounds over the box of
// points: an affine coordinate base + sum_k s_k * c_k with 0 <= c_k < n_k takes its minimum and
// maximum at corners, computed exactly in 128 bits.
#include "interp/affine_access.h"

#include <algorithm>

#include "kir/attribute.h"

namespace kir::interp {
namespace {

// Storage index of relation point c: base + sum_k steps[k] * c[k].
struct AffineAddress {
  int64_t base = 0;
  Shape steps;
  bool init(const ViewV& v, const RelationV& r) {
    if (!r.affine || r.points == 0 || v.shape.size() != static_cast<size_t>(r.source_rank)) return false;
    const size_t rank = r.shape.size();
    int128 b = v.offset, lo = v.offset, hi = v.offset;
    std::vector<int128> st(rank, 0);
    for (size_t a = 0; a < v.shape.size(); ++a) {
      const AffineIndex& x = *r.coords[a].affine;
      int128 clo = x.base, chi = x.base;
      for (size_t k = 0; k < rank; ++k) {
        const int128 span = static_cast<int128>(x.strides[k]) * (r.shape[k] - 1);
        (span < 0 ? clo : chi) += span;
        st[k] += static_cast<int128>(x.strides[k]) * v.strides[a];
      }
      if (clo < 0 || chi >= v.shape[a]) return false;  // some point outside the view
      b += static_cast<int128>(x.base) * v.strides[a];
      const int128 slo = clo * v.strides[a], shi = chi * v.strides[a];
      lo += slo < shi ? slo : shi;
      hi += slo < shi ? shi : slo;
    }
    if (lo < 0 || hi >= static_cast<int128>(v.storage->bits.size())) return false;
    base = static_cast<int64_t>(b);
    steps.resize(rank);
    for (size_t k = 0; k < rank; ++k) steps[k] = static_cast<int64_t>(st[k]);  // |steps| * extent within the storage
    return true;
  }
  // Whether storage indices strictly increase in row-major point order: along each axis of
  // extent > 1 the step exceeds the largest offset reachable inside one block of the inner axes.
  bool increasing(const Shape& shape) const {
    int128 inner = 0;  // max offset within a block of the axes after k
    for (size_t k = shape.size(); k-- > 0;) {
      if (shape[k] <= 1) continue;
      if (steps[k] <= inner) return false;
      inner += static_cast<int128>(steps[k]) * (shape[k] - 1);
    }
    return true;
  }
  // Calls row(p0, idx0, n, step) for each innermost row of points p0 .. p0 + n - 1 with storage
  // indices idx0 + j * step, in row-major order.
  template <class Row>
  bool rows(const Shape& shape, Row&& row) const {
    const size_t rank = shape.size();
    const int64_t n = rank ? shape[rank - 1] : 1, step = rank ? steps[rank - 1] : 0;
    Shape c(rank, 0);
    int64_t idx = base;
    for (int64_t p0 = 0;; p0 += n) {
      if (!row(p0, idx, n, step)) return false;
      size_t k = rank ? rank - 1 : 0;
      for (;;) {  // odometer over the outer axes
        if (k == 0) return true;
        --k;
        if (++c[k] < shape[k]) { idx += steps[k]; break; }
        idx -= steps[k] * (shape[k] - 1);
        c[k] = 0;
      }
    }
  }
};

}  // namespace

bool affine_load(const ViewV& v, const RelationV& r, uint64_t fill, std::vector<uint64_t>& out) {
  AffineAddress ad;
  if (!ad.init(v, r)) return false;
  const uint64_t* bits = v.storage->bits.data();
  const uint8_t* def = v.storage->defined.empty() ? nullptr : v.storage->defined.data();
  const uint8_t* valid = r.masked ? r.valid.data() : nullptr;
  if (!def && !valid && r.shape.size() <= 1 && (r.shape.empty() || ad.steps[0] == 1)) {
    out.assign(bits + ad.base, bits + ad.base + r.points);  // one contiguous run
    return true;
  }
  out.resize(static_cast<size_t>(r.points));
  uint64_t* o = out.data();
  return ad.rows(r.shape, [&](int64_t p0, int64_t idx, int64_t n, int64_t step) {
    if (!def && !valid) {
      for (int64_t j = 0; j < n; ++j) o[p0 + j] = bits[idx + j * step];
      return true;
    }
    for (int64_t j = 0; j < n; ++j) {
      if (valid && !valid[p0 + j]) { o[p0 + j] = fill; continue; }
      const int64_t i = idx + j * step;
      if (def && !def[i]) return false;
      o[p0 + j] = bits[i];
    }
    return true;
  });
}

bool affine_store(const ViewV& v, const RelationV& r, const Value& val) {
  const uint64_t* data = nullptr;
  uint64_t one = 0;
  if (val.is_scalar()) one = val.scalar().bits;
  else if (val.tensor().shape == r.shape) data = val.tensor().bits.data();
  else return false;
  AffineAddress ad;
  if (!ad.init(v, r)) return false;
  Storage& s = *v.storage;
  uint64_t* bits = s.bits.data();
  uint8_t* def = s.defined.empty() ? nullptr : s.defined.data();
  const uint8_t* valid = r.masked ? r.valid.data() : nullptr;
  if (!valid && ad.increasing(r.shape))  // injective and in bounds: nothing can fail
    return ad.rows(r.shape, [&](int64_t p0, int64_t idx, int64_t n, int64_t step) {
      if (step == 1 && data) std::copy(data + p0, data + p0 + n, bits + idx);
      else if (step == 1) std::fill(bits + idx, bits + idx + n, one);
      else
        for (int64_t j = 0; j < n; ++j) bits[idx + j * step] = data ? data[p0 + j] : one;
      if (def && step == 1) std::fill(def + idx, def + idx + n, uint8_t{1});
      else if (def)
        for (int64_t j = 0; j < n; ++j) def[idx + j * step] = 1;
      return true;
    });
  int64_t prev = -1;
  return ad.rows(r.shape, [&](int64_t p0, int64_t idx, int64_t n, int64_t step) {
    for (int64_t j = 0; j < n; ++j) {
      const int64_t p = p0 + j;
      if (valid && !valid[p]) continue;
      const int64_t i = idx + j * step;
      if (i <= prev) return false;
      prev = i;
      bits[i] = data ? data[p] : one;
      if (def) def[i] = 1;
    }
    return true;
  });
}

}  // namespace kir::interp
