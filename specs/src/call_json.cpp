// JSON encoding of values and calls (see call_json.h).
#include "specs/src/call_json.h"

#include <cmath>

namespace kir::specs {
namespace {

nlohmann::json big_int(const mpz_class& v) {
  if (fits_i64(v)) return static_cast<int64_t>(v.get_si());
  return v.get_str();
}

}  // namespace

nlohmann::json value_json(const Value& v) {
  using T = Value::T;
  switch (v.t) {
    case T::None: return nullptr;
    case T::Bool: return v.b;
    case T::Int: return big_int(v.i);
    case T::Float:
      if (std::isnan(v.f)) return {{"float", "nan"}};
      if (std::isinf(v.f)) return {{"float", v.f > 0 ? "inf" : "-inf"}};
      return v.f;
    case T::Str: return v.s;
    case T::Seq: {
      nlohmann::json a = nlohmann::json::array();
      for (const auto& x : v.seq) a.push_back(value_json(x));
      return a;
    }
    case T::Adt: {
      nlohmann::json f = nlohmann::json::object();
      for (const auto& [k, x] : v.adt->fields) f[k] = value_json(x);
      return {{"kind", v.adt->ctor}, {"fields", f}};
    }
  }
  return nullptr;
}

nlohmann::json call_json(const Call& c) {
  nlohmann::json j;
  j["case_id"] = c.case_id;
  j["label"] = c.label;
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [k, v] : c.params) params[k] = value_json(v);
  j["params"] = params;
  nlohmann::json ts = nlohmann::json::array();
  for (const auto& t : c.tensors) {
    nlohmann::json tj;
    tj["name"] = t.name;
    tj["role"] = t.role == Role::Input ? "input" : t.role == Role::Output ? "output" : "ctor";
    tj["present"] = t.present;
    if (t.present) {
      nlohmann::json shape = nlohmann::json::array();
      for (const auto& d : t.shape) shape.push_back(big_int(d));
      tj["shape"] = shape;
      tj["dtype"] = t.dtype;
      if (t.values) tj["values"] = value_json(*t.values);
      if (t.cpu) tj["device"] = "cpu";
    }
    ts.push_back(tj);
  }
  j["tensors"] = ts;
  nlohmann::json ix = nlohmann::json::object();
  for (const auto& [k, v] : c.ix) ix[k] = value_json(v);
  j["ix"] = ix;
  if (c.flops) j["roofline"]["flops"] = value_json(*c.flops);
  if (c.bytes) j["roofline"]["bytes"] = value_json(*c.bytes);
  return j;
}

}  // namespace kir::specs
