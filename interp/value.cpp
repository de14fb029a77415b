// Runtime value helpers: sizes with the element cap, coordinate spelling, accessors that turn a
// kind mismatch (which the verifier excludes) into an exception instead of UB, and summaries.
#include "interp/value.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "interp/error.h"
#include "numerics/format.h"
#include "numerics/value_text.h"

namespace kir::interp {

int64_t checked_numel(const Shape& shape) {
  int64_t n = 1;
  bool over = false;  // the product left the int64 range
  for (int64_t e : shape) {
    if (e < 0) throw RuntimeError(ErrorKind::ShapeMismatch, "", "", "negative extent " + std::to_string(e) + " in shape " + shape_str(shape));
    if (e == 0) n = 0;
    else if (!over && n > INT64_MAX / e) over = true;
    else if (!over) n *= e;
  }
  if (n != 0 && (over || n > kMaxElements))
    throw RuntimeError(ErrorKind::Limit, "", "",
                       "shape " + shape_str(shape) + " has " + (over ? std::string("more than 2^63") : std::to_string(n)) +
                           " elements, which exceeds the interpreter's limit of 2^28 elements");
  return n;
}

static std::string join_ints(const Shape& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out;
}
std::string shape_str(const Shape& shape) { return "[" + join_ints(shape) + "]"; }
std::string coord_str(const Shape& coord) { return "(" + join_ints(coord) + ")"; }

Shape unravel(int64_t flat, const Shape& shape) {
  Shape c(shape.size(), 0);
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] > 0) {
      c[i] = flat % shape[i];
      flat /= shape[i];
    }
  }
  return c;
}

Shape row_major_strides(const Shape& shape) {
  Shape s(shape.size(), 1);
  int64_t acc = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    s[i] = acc;
    acc *= std::max<int64_t>(shape[i], 1);
  }
  return s;
}

template <class T>
static const T& get_or_throw(const decltype(Value::v)& v, const char* what) {
  if (auto* p = std::get_if<T>(&v)) return *p;
  throw std::logic_error(std::string("interpreter: expected a ") + what + " value");
}

Scalar Value::scalar() const { return get_or_throw<Scalar>(v, "scalar"); }
const Tensor& Value::tensor() const {
  const Tensor& t = *get_or_throw<std::shared_ptr<const Tensor>>(v, "tensor");
  // Payloads are allocated non-const (value.h); only the engine thread holding the baton runs.
  if (t.affine) const_cast<Tensor&>(t).materialize();
  return t;
}

const Tensor& Value::lazy_tensor() const { return *get_or_throw<std::shared_ptr<const Tensor>>(v, "tensor"); }

void Tensor::materialize() {
  if (!affine) return;
  const AffineIndex a = *affine;
  affine.reset();
  bits.resize(static_cast<size_t>(checked_numel(shape)));
  // Row-major odometer: the value moves by strides[k] along axis k.
  const size_t r = shape.size();
  Shape c(r, 0);
  uint64_t v = static_cast<uint64_t>(a.base);
  for (auto& b : bits) {
    b = v;
    for (size_t k = r; k-- > 0;) {
      if (++c[k] < shape[k]) { v += static_cast<uint64_t>(a.strides[k]); break; }
      v -= static_cast<uint64_t>(a.strides[k]) * static_cast<uint64_t>(shape[k] - 1);
      c[k] = 0;
    }
  }
}
const TupleV& Value::tuple() const { return *get_or_throw<std::shared_ptr<const TupleV>>(v, "tuple"); }
const RecordV& Value::record() const { return *get_or_throw<std::shared_ptr<const RecordV>>(v, "record"); }
const DomainV& Value::domain() const { return *get_or_throw<std::shared_ptr<const DomainV>>(v, "domain"); }
const RelationV& Value::relation() const { return *get_or_throw<std::shared_ptr<const RelationV>>(v, "relation"); }
const ViewV& Value::view() const { return *get_or_throw<std::shared_ptr<const ViewV>>(v, "view"); }

static std::string tensor_summary(const Tensor& t) {
  std::string s = std::string(name(t.dtype)) + shape_str(t.shape);
  if (t.bits.empty()) return s + " (empty)";
  if (t.bits.size() <= 8) {
    s += " {";
    for (size_t i = 0; i < t.bits.size(); ++i) s += (i ? ", " : "") + num::format_value(t.at(static_cast<int64_t>(i)));
    return s + "}";
  }
  if (is_any_float(t.dtype)) {
    double lo = INFINITY, hi = -INFINITY;
    int64_t nans = 0;
    for (uint64_t b : t.bits) {
      double d = num::to_double(b, t.dtype);
      if (std::isnan(d)) { ++nans; continue; }
      lo = std::min(lo, d);
      hi = std::max(hi, d);
    }
    char buf[128];
    std::snprintf(buf, sizeof buf, " min=%.9g max=%.9g nan=%lld", lo, hi, static_cast<long long>(nans));
    return s + buf;
  }
  Scalar lo = t.at(0), hi = t.at(0);
  bool sgn = is_signed_integer(t.dtype);
  for (int64_t i = 1; i < t.size(); ++i) {
    Scalar x = t.at(i);
    if (sgn ? num::as_signed(x) < num::as_signed(lo) : x.bits < lo.bits) lo = x;
    if (sgn ? num::as_signed(x) > num::as_signed(hi) : x.bits > hi.bits) hi = x;
  }
  return s + " min=" + num::format_value(lo) + " max=" + num::format_value(hi);
}

std::string summarize(const Value& v) {
  if (v.is_scalar()) return std::string(name(v.scalar().dtype)) + " " + num::format_value(v.scalar());
  if (v.is_tensor()) return tensor_summary(v.tensor());
  if (v.is_tuple()) {
    std::string s = "tuple(";
    const auto& t = v.tuple();
    for (size_t i = 0; i < t.elems.size(); ++i) s += (i ? ", " : "") + summarize(t.elems[i]);
    return s + ")";
  }
  if (v.is_record()) {
    std::string s = "record(";
    const auto& r = v.record();
    for (size_t i = 0; i < r.elems.size(); ++i) s += (i ? ", " : "") + r.names[i] + ": " + summarize(r.elems[i]);
    return s + ")";
  }
  if (v.is_enum()) return "@" + v.enumv().enum_name + "::" + v.enumv().member;
  if (v.is_domain()) {
    const auto& d = v.domain();
    return std::string(d.subregion ? "subregion" : "domain") + "(" + std::to_string(d.member(0)) + " + " +
           std::to_string(d.step) + "*k, k < " + std::to_string(d.count) + ")";
  }
  if (v.is_relation()) {
    const auto& r = v.relation();
    return "relation<" + std::to_string(r.source_rank) + " -> " + shape_str(r.shape) + (r.masked ? ", masked>" : ">");
  }
  if (v.is_view()) {
    const auto& w = v.view();
    return std::string(w.is_buffer ? "buffer " : "view ") + w.name + " " + std::string(name(w.storage->dtype)) + shape_str(w.shape);
  }
  return "<none>";
}

namespace {

void render_tensor(std::string& out, const Tensor& t, size_t axis, int64_t& flat, int64_t& budget) {
  if (axis == t.shape.size()) {
    if (budget-- > 0) out += num::format_value(t.at(flat));
    ++flat;
    return;
  }
  out += "[";
  for (int64_t i = 0; i < t.shape[axis]; ++i) {
    if (i) out += ", ";
    if (budget <= 0) {
      out += "...";
      int64_t rest = 1;
      for (size_t a = axis + 1; a < t.shape.size(); ++a) rest *= t.shape[a];
      flat += (t.shape[axis] - i) * rest;
      break;
    }
    render_tensor(out, t, axis + 1, flat, budget);
  }
  out += "]";
}

}  // namespace

std::string render_elements(const Value& v, int64_t limit) {
  if (v.is_scalar()) return num::format_value(v.scalar());
  if (v.is_tensor()) {
    std::string out;
    int64_t flat = 0, budget = limit;
    render_tensor(out, v.tensor(), 0, flat, budget);
    return out;
  }
  if (v.is_tuple() || v.is_record()) {
    const auto& elems = v.is_tuple() ? v.tuple().elems : v.record().elems;
    std::string s = v.is_tuple() ? "(" : "{";
    for (size_t i = 0; i < elems.size(); ++i)
      s += (i ? ", " : "") + (v.is_record() ? v.record().names[i] + ": " : std::string()) + render_elements(elems[i], limit);
    return s + (v.is_tuple() ? ")" : "}");
  }
  return summarize(v);
}

}  // namespace kir::interp
