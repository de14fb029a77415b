// Leaf-wise slicing of structured sources; see tree.h.
#include "interp/tree.h"

#include <stdexcept>

#include "interp/engine.h"

namespace kir::interp {
namespace {

template <class F>
Value map_leaves(const Value& v, F&& fn) {
  if (v.is_tensor()) return fn(v.tensor());
  if (v.is_tuple()) {
    TupleV t;
    for (const auto& e : v.tuple().elems) t.elems.push_back(map_leaves(e, fn));
    return t;
  }
  if (v.is_record()) {
    RecordV r;
    r.names = v.record().names;
    for (const auto& e : v.record().elems) r.elems.push_back(map_leaves(e, fn));
    return r;
  }
  throw std::logic_error("structured source leaf is not a tensor");
}

}  // namespace

Value take_slice(const Value& src, const std::vector<int64_t>& axes, const Shape& at) {
  return map_leaves(src, [&](const Tensor& t) -> Value {
    Shape strides = row_major_strides(t.shape);
    int64_t base = 0;
    std::vector<bool> removed(t.shape.size(), false);
    for (size_t k = 0; k < axes.size(); ++k) {
      auto a = static_cast<size_t>(axes[k]);
      removed.at(a) = true;
      base += at[k] * strides[a];
    }
    Shape os, ost;
    for (size_t a = 0; a < t.shape.size(); ++a)
      if (!removed[a]) { os.push_back(t.shape[a]); ost.push_back(strides[a]); }
    if (os.empty()) return Scalar{t.dtype, t.bits[static_cast<size_t>(base)]};
    Tensor o = make_tensor(t.dtype, os);
    Shape c(os.size(), 0);
    int64_t src_i = base;
    for (size_t i = 0; i < o.bits.size(); ++i) {
      o.bits[i] = t.bits[static_cast<size_t>(src_i)];
      for (size_t k = os.size(); k-- > 0;) {
        if (++c[k] < os[k]) { src_i += ost[k]; break; }
        src_i -= ost[k] * (os[k] - 1);
        c[k] = 0;
      }
    }
    return o;
  });
}

Value slice_range(const Value& src, int64_t axis, int64_t begin, int64_t end) {
  return map_leaves(src, [&](const Tensor& t) -> Value {
    auto a = static_cast<size_t>(axis);
    Shape os = t.shape;
    os.at(a) = end - begin;
    Tensor o = make_tensor(t.dtype, os);
    int64_t outer = 1, inner = 1;
    for (size_t k = 0; k < a; ++k) outer *= t.shape[k];
    for (size_t k = a + 1; k < t.shape.size(); ++k) inner *= t.shape[k];
    const int64_t n = t.shape[a], m = end - begin;
    for (int64_t o1 = 0; o1 < outer; ++o1)
      for (int64_t j = 0; j < m; ++j)
        for (int64_t i = 0; i < inner; ++i)
          o.bits[static_cast<size_t>((o1 * m + j) * inner + i)] = t.bits[static_cast<size_t>((o1 * n + begin + j) * inner + i)];
    return o;
  });
}

Value concat_range(const std::vector<Value>& parts, int64_t axis) {
  const Value& first = parts.at(0);
  if (first.is_tensor()) {
    const auto a = static_cast<size_t>(axis);
    Shape os = first.tensor().shape;
    if (a >= os.size()) throw std::logic_error("segment output has no axis " + std::to_string(axis));
    os[a] = 0;
    for (const auto& p : parts) os[a] += p.tensor().shape.at(a);
    Tensor o = make_tensor(first.tensor().dtype, os);
    int64_t outer = 1, inner = 1;
    for (size_t k = 0; k < a; ++k) outer *= os[k];
    for (size_t k = a + 1; k < os.size(); ++k) inner *= os[k];
    int64_t begin = 0;
    for (const auto& p : parts) {
      const Tensor& t = p.tensor();
      const int64_t m = t.shape[a];
      for (int64_t o1 = 0; o1 < outer; ++o1)
        for (int64_t j = 0; j < m; ++j)
          for (int64_t i = 0; i < inner; ++i)
            o.bits[static_cast<size_t>((o1 * os[a] + begin + j) * inner + i)] = t.bits[static_cast<size_t>((o1 * m + j) * inner + i)];
      begin += m;
    }
    return o;
  }
  auto component = [&](size_t i) {
    std::vector<Value> c;
    for (const auto& p : parts) c.push_back(p.is_tuple() ? p.tuple().elems.at(i) : p.record().elems.at(i));
    return concat_range(c, axis);
  };
  if (first.is_tuple()) {
    TupleV t;
    for (size_t i = 0; i < first.tuple().elems.size(); ++i) t.elems.push_back(component(i));
    return t;
  }
  if (first.is_record()) {
    RecordV r;
    r.names = first.record().names;
    for (size_t i = 0; i < first.record().elems.size(); ++i) r.elems.push_back(component(i));
    return r;
  }
  throw std::logic_error("segment output leaf is not a tensor");
}

static void put_rec(Value& out, int64_t axis, int64_t pos, const Value& acc) {
  if (out.is_tensor()) {
    if (!out.unique_tensor()) out = Value(Tensor(out.tensor()));  // copy-on-write: values are immutable
    Tensor& t = *out.unique_tensor();
    auto a = static_cast<size_t>(axis);
    int64_t outer = 1, inner = 1;
    for (size_t k = 0; k < a; ++k) outer *= t.shape[k];
    for (size_t k = a + 1; k < t.shape.size(); ++k) inner *= t.shape[k];
    const int64_t n = t.shape[a];
    for (int64_t o1 = 0; o1 < outer; ++o1)
      for (int64_t i = 0; i < inner; ++i) {
        int64_t k = o1 * inner + i;
        uint64_t b = acc.is_scalar() ? acc.scalar().bits : acc.tensor().bits.at(static_cast<size_t>(k));
        t.bits[static_cast<size_t>((o1 * n + pos) * inner + i)] = b;
      }
    return;
  }
  if (out.is_tuple()) {
    if (!out.unique_tuple()) out = Value(TupleV(out.tuple()));
    TupleV& t = *out.unique_tuple();
    for (size_t i = 0; i < t.elems.size(); ++i) put_rec(t.elems[i], axis, pos, acc.tuple().elems.at(i));
    return;
  }
  if (out.is_record()) {
    if (!out.unique_record()) out = Value(RecordV(out.record()));
    RecordV& r = *out.unique_record();
    for (size_t i = 0; i < r.elems.size(); ++i) put_rec(r.elems[i], axis, pos, acc.record().elems.at(i));
    return;
  }
  throw std::logic_error("scan result leaf is not a tensor");
}

void put_slice(Value& out, int64_t axis, int64_t pos, const Value& acc) { put_rec(out, axis, pos, acc); }

Value zeros_like(const Value& src) {
  return map_leaves(src, [](const Tensor& t) -> Value { return make_tensor(t.dtype, t.shape); });
}

int64_t leaf_extent(const Value& src, int64_t axis) {
  if (src.is_tensor()) return src.tensor().shape.at(static_cast<size_t>(axis));
  if (src.is_tuple() && !src.tuple().elems.empty()) return leaf_extent(src.tuple().elems[0], axis);
  if (src.is_record() && !src.record().elems.empty()) return leaf_extent(src.record().elems[0], axis);
  throw std::logic_error("structured source without tensor leaves");
}

bool leaves_agree(const Value& src, int64_t axis, int64_t extent) {
  if (src.is_tensor()) return src.tensor().shape.size() > static_cast<size_t>(axis) && src.tensor().shape[static_cast<size_t>(axis)] == extent;
  if (src.is_tuple()) {
    for (const auto& e : src.tuple().elems)
      if (!leaves_agree(e, axis, extent)) return false;
    return true;
  }
  if (src.is_record()) {
    for (const auto& e : src.record().elems)
      if (!leaves_agree(e, axis, extent)) return false;
    return true;
  }
  return false;
}

}  // namespace kir::interp
