// Helpers for the per-family op tests (test_ops_*.cpp): surface programs loaded through the
// normalizer (the canonical path a surface shorthand takes, L19.1), tensors built from doubles
// for call_helper, and their values read back.
#pragma once
#include <functional>

#include "interp_test.h"
#include "kir/normalize/normalize.h"

namespace kir::itest {

// Parses, normalizes surface shorthands, then verifies as canonical KIR.
inline std::unique_ptr<Module> load_surface(const std::string& text) {
  Diagnostics d;
  auto m = parse_module(text, "t.kir", d);
  INFO(d.render(text));
  REQUIRE(m);
  bool ok = normalize_module(*m, d);
  INFO(d.render(text));
  REQUIRE(ok);
  ok = verify_module(*m, d);
  INFO(d.render(text));
  REQUIRE(ok);
  return m;
}

// A tensor of dtype d from doubles (floats rounded once, integers exact), or from raw bits.
inline interp::Tensor tensor(DType d, const interp::Shape& shape, const std::vector<double>& vals) {
  interp::Tensor t;
  t.dtype = d;
  t.shape = shape;
  for (double v : vals) {
    if (is_any_float(d)) t.bits.push_back(num::from_double(v, d));
    else t.bits.push_back(num::make_int(d, static_cast<uint64_t>(static_cast<int64_t>(v))).bits);
  }
  return t;
}

inline interp::Tensor raw_tensor(DType d, const interp::Shape& shape, std::vector<uint64_t> bits) {
  interp::Tensor t;
  t.dtype = d;
  t.shape = shape;
  t.bits = std::move(bits);
  return t;
}

inline std::vector<double> tvalues(const interp::Value& v) {
  std::vector<double> out;
  const auto& t = v.tensor();
  for (uint64_t b : t.bits) out.push_back(as_double(t.dtype, b));
  return out;
}

inline double svalue(const interp::Value& v) { return as_double(v.scalar().dtype, v.scalar().bits); }

// Whether the module (any function, any nesting) contains an op named `name`.
inline bool has_op(const Module& m, const std::string& name) {
  bool found = false;
  std::function<void(const Region&)> walk = [&](const Region& r) {
    for (const auto& op : r.ops) {
      if (op->name == name) found = true;
      for (const auto& sub : op->regions) walk(*sub);
    }
  };
  for (const auto& f : m.functions) walk(f->body);
  return found;
}

}  // namespace kir::itest
