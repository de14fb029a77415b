// Python semantics for values: equality across numeric types, ordering, repr.
#include "specs/src/value.h"

#include <cmath>
#include <cstdio>

namespace kir::specs {

Value Value::ints(const std::vector<mpz_class>& v) {
  std::vector<Value> out;
  out.reserve(v.size());
  for (const auto& x : v) out.push_back(integer(x));
  return sequence(std::move(out));
}

mpz_class Value::as_int() const {
  if (t == T::Int) return i;
  if (t == T::Bool) return b ? 1 : 0;
  throw EvalError("expected an integer, got " + repr());
}

double Value::as_double() const {
  if (t == T::Float) return f;
  if (t == T::Bool) return b ? 1.0 : 0.0;
  if (t == T::Int) return i.get_d();
  throw EvalError("expected a number, got " + repr());
}

bool Value::truthy() const {
  switch (t) {
    case T::None: return false;
    case T::Bool: return b;
    case T::Int: return i != 0;
    case T::Float: return f != 0;
    case T::Str: return !s.empty();
    case T::Seq: return !seq.empty();
    case T::Adt: return true;
  }
  return false;
}

static std::string float_repr(double f) {
  if (std::isnan(f)) return "nan";
  if (std::isinf(f)) return f > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", f);
  // shortest round-trip form, Python style
  for (int prec = 1; prec <= 17; ++prec) {
    char b2[64];
    std::snprintf(b2, sizeof b2, "%.*g", prec, f);
    if (std::strtod(b2, nullptr) == f) {
      std::snprintf(buf, sizeof buf, "%s", b2);
      break;
    }
  }
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

std::string Value::repr() const {
  switch (t) {
    case T::None: return "None";
    case T::Bool: return b ? "True" : "False";
    case T::Int: return i.get_str();
    case T::Float: return float_repr(f);
    case T::Str: return "'" + s + "'";
    case T::Seq: {
      std::string out = "(";
      for (size_t k = 0; k < seq.size(); ++k) {
        if (k) out += ", ";
        out += seq[k].repr();
      }
      if (seq.size() == 1) out += ",";
      return out + ")";
    }
    case T::Adt: {
      std::string out = "{" + adt->ctor + ": {";
      for (size_t k = 0; k < adt->fields.size(); ++k) {
        if (k) out += ", ";
        out += adt->fields[k].first + ": " + adt->fields[k].second.repr();
      }
      return out + "}}";
    }
  }
  return "?";
}

const Value* AdtValue::field(const std::string& name) const {
  for (const auto& [k, v] : fields)
    if (k == name) return &v;
  return nullptr;
}

bool operator==(const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) {
    if (a.t == Value::T::Float || b.t == Value::T::Float) {
      if (a.t == Value::T::Float && b.t == Value::T::Float) return a.f == b.f;
      const Value& fl = a.t == Value::T::Float ? a : b;
      const Value& in = a.t == Value::T::Float ? b : a;
      if (std::isnan(fl.f)) return false;
      return cmp(in.as_int(), fl.f) == 0;
    }
    return a.as_int() == b.as_int();
  }
  if (a.t != b.t) return false;
  switch (a.t) {
    case Value::T::None: return true;
    case Value::T::Str: return a.s == b.s;
    case Value::T::Seq: return a.seq == b.seq;
    case Value::T::Adt: return a.adt->ctor == b.adt->ctor && a.adt->fields == b.adt->fields;
    default: return false;
  }
}

int compare(const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) {
    if (a.t == Value::T::Float || b.t == Value::T::Float) {
      if ((a.t == Value::T::Float && std::isnan(a.f)) || (b.t == Value::T::Float && std::isnan(b.f)))
        throw EvalError("ordering with nan");
      if (a.t == Value::T::Float && b.t == Value::T::Float) return a.f < b.f ? -1 : a.f > b.f ? 1 : 0;
      if (a.t == Value::T::Float) return -cmp(b.as_int(), a.f) < 0 ? -1 : (-cmp(b.as_int(), a.f) > 0 ? 1 : 0);
      int c = cmp(a.as_int(), b.f);
      return c < 0 ? -1 : c > 0 ? 1 : 0;
    }
    int c = cmp(a.as_int(), b.as_int());
    return c < 0 ? -1 : c > 0 ? 1 : 0;
  }
  if (a.is_seq() && b.is_seq()) {
    size_t n = std::min(a.seq.size(), b.seq.size());
    for (size_t k = 0; k < n; ++k) {
      if (a.seq[k] == b.seq[k]) continue;
      return compare(a.seq[k], b.seq[k]);
    }
    return a.seq.size() < b.seq.size() ? -1 : a.seq.size() > b.seq.size() ? 1 : 0;
  }
  throw EvalError("cannot order " + a.repr() + " and " + b.repr());
}

std::vector<mpz_class> to_ints(const Value& v, const std::string& what) {
  if (!v.is_seq()) throw EvalError(what + " must be a list of integers, got " + v.repr());
  std::vector<mpz_class> out;
  out.reserve(v.seq.size());
  for (const auto& x : v.seq) {
    if (!x.is_int()) throw EvalError(what + " must be a list of integers, got " + v.repr());
    out.push_back(x.i);
  }
  return out;
}

bool fits_i64(const mpz_class& v) {
  return v >= mpz_class("-9223372036854775808") && v <= mpz_class("9223372036854775807");
}

long to_i64(const mpz_class& v, const std::string& what) {
  if (!fits_i64(v)) throw EvalError(what + " " + v.get_str() + " is too large");
  return static_cast<long>(v.get_si());
}

}  // namespace kir::specs
