// Row-value conversion by kind (see convert.h).
#include "specs/src/convert.h"

#include "specs/src/dtypes.h"
#include "specs/src/expr_eval.h"
#include "specs/src/primitives.h"
#include "specs/src/yaml_util.h"

namespace kir::specs {

namespace {
std::string show(const YAML::Node& n) {
  if (n.IsScalar()) return n.Scalar();
  YAML::Emitter e;
  e << YAML::Flow << n;
  return e.good() ? std::string(e.c_str()) : std::string("<value>");
}
}  // namespace

std::string check_invariant(const Value& v, const Manifest& m) {
  if (v.t != Value::T::Adt) return "";
  auto it = m.adts.find(v.adt->adt);
  if (it == m.adts.end()) return "";
  const AdtCtor* c = it->second.ctor(v.adt->ctor);
  if (!c || !c->invariant || !c->invariant->ok()) return "";
  Env env;
  for (const auto& [k, x] : v.adt->fields) env.vars[k] = x;
  try {
    if (!eval(*c->invariant->expr, env).truthy()) return "invariant '" + c->invariant->text + "' of constructor '" + c->name + "' fails";
  } catch (const EvalError& e) {
    return std::string("invariant of constructor '") + c->name + "' raises: " + e.what();
  }
  return "";
}

std::optional<Value> convert_seq_int(const YAML::Node& n, std::string& err) {
  if (n.IsScalar() && scalar_type(n) == ScalarType::Str) {
    ParseError pe;
    auto e = parse_expr(n.Scalar(), pe);
    if (!e) { err = "'" + n.Scalar() + "': " + pe.message; return std::nullopt; }
    if (e->k != Expr::K::Call) { err = "'" + n.Scalar() + "' is not a list of ints or a value-primitive call"; return std::nullopt; }
    const PrimitiveDef* p = find_primitive(e->s);
    if (!p || !p->value_primitive) { err = "'" + e->s + "' is not a value primitive (balanced_sizes, repeat)"; return std::nullopt; }
    try {
      Value v = eval(*e, Env{});
      to_ints(v, "value list");
      return v;
    } catch (const EvalError& x) {
      err = x.what();
      return std::nullopt;
    }
  }
  if (!n.IsSequence()) { err = "value " + show(n) + " is not a list of ints"; return std::nullopt; }
  auto v = plain_value(n);
  if (!v) { err = "value " + show(n) + " is not a list of ints"; return std::nullopt; }
  for (const auto& x : v->seq)
    if (!x.is_int()) { err = "value " + show(n) + " is not a list of ints"; return std::nullopt; }
  return v;
}

static std::optional<Value> conv(const YAML::Node& n, const Kind& k, const Manifest& m, std::string& err, int depth) {
  if (depth > 16) { err = "value nests too deeply"; return std::nullopt; }
  auto bad = [&](const std::string& what) -> std::optional<Value> {
    err = "value " + show(n) + " is not " + what;
    return std::nullopt;
  };
  switch (k.t) {
    case Kind::T::Dim:
    case Kind::T::Int: {
      if (!n.IsScalar() || scalar_type(n) != ScalarType::Int) return bad(k.t == Kind::T::Dim ? "a non-negative int (Dim)" : "an int");
      Value v = scalar_value(n);
      if (k.t == Kind::T::Dim && v.i < 0) return bad("a non-negative int (Dim)");
      return v;
    }
    case Kind::T::Bool:
      if (!n.IsScalar() || scalar_type(n) != ScalarType::Bool) return bad("a bool");
      return scalar_value(n);
    case Kind::T::Enum:
      if (!n.IsScalar() || !k.members.count(n.Scalar()) || scalar_type(n) == ScalarType::Null) return bad("one of " + k.str());
      return Value::str(n.Scalar());
    case Kind::T::DType:
      if (!n.IsScalar() || !find_dtype(n.Scalar()) || (!k.members.empty() && !k.members.count(n.Scalar()))) return bad("a dtype in " + k.str());
      return Value::str(n.Scalar());
    case Kind::T::Seq: {
      if (!n.IsSequence()) return bad("a list (" + k.str() + ")");
      if (k.length >= 0 && static_cast<long>(n.size()) != k.length) return bad("a list of length " + std::to_string(k.length));
      std::vector<Value> items;
      for (const auto& x : n) {
        auto v = conv(x, *k.elem, m, err, depth + 1);
        if (!v) return std::nullopt;
        items.push_back(*v);
      }
      return Value::sequence(std::move(items));
    }
    case Kind::T::Maybe:
      if (n.IsNull() || (n.IsScalar() && scalar_type(n) == ScalarType::Null)) return Value::none();
      return conv(n, *k.elem, m, err, depth + 1);
    case Kind::T::Union: {
      for (const auto& a : k.alts) {
        std::string e2;
        if (auto v = conv(n, a, m, e2, depth + 1)) return v;
      }
      return bad("a value of type " + k.str());
    }
    case Kind::T::Adt: {
      auto it = m.adts.find(k.adt);
      if (it == m.adts.end()) { err = "ADT '" + k.adt + "' is not declared"; return std::nullopt; }
      if (!n.IsMap() || n.size() != 1) return bad("an ADT literal {constructor: {field: value}}");
      auto ctor_it = n.begin();
      std::string cname = ctor_it->first.Scalar();
      const AdtCtor* c = it->second.ctor(cname);
      if (!c) return bad("an ADT literal: '" + cname + "' is not a constructor of " + k.adt);
      const YAML::Node fields = ctor_it->second;  // a copy: the iterator proxy is a temporary
      auto a = std::make_shared<AdtValue>();
      a->adt = k.adt;
      a->ctor = cname;
      size_t given = fields.IsMap() ? fields.size() : 0;
      if (!fields.IsMap() && !c->fields.empty()) return bad("an ADT literal: fields must be a mapping");
      for (const auto& [fname, fk] : c->fields) {
        if (!fields[fname]) { err = "ADT literal " + show(n) + " misses field '" + fname + "'"; return std::nullopt; }
        auto v = conv(fields[fname], fk, m, err, depth + 1);
        if (!v) return std::nullopt;
        a->fields.emplace_back(fname, *v);
      }
      if (given != c->fields.size()) { err = "ADT literal " + show(n) + " has fields outside constructor '" + cname + "'"; return std::nullopt; }
      Value v;
      v.t = Value::T::Adt;
      v.adt = a;
      std::string inv = check_invariant(v, m);
      if (!inv.empty()) { err = "ADT literal " + show(n) + ": " + inv; return std::nullopt; }
      return v;
    }
    case Kind::T::Value: {
      auto v = plain_value(n);
      if (!v) return bad("a plain value");
      return v;
    }
    case Kind::T::Tensor:
    case Kind::T::None:
    case Kind::T::Str:
      break;
  }
  return bad("convertible");
}

std::optional<Value> convert_value(const YAML::Node& n, const Kind& k, const Manifest& m, std::string& err) {
  return conv(n, k, m, err, 0);
}

}  // namespace kir::specs
