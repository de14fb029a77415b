// One manifest case's kernel invocation (spec_args.h): the kernel of a dtype case and its
// arguments from the instantiated call and the generated data.
#include "oracle/spec_args.h"

#include <algorithm>
#include <optional>
#include <regex>

#include "interp/npy.h"
#include "kir/load.h"
#include "numerics/format.h"
#include "numerics/scalar.h"
#include "specs/src/dtypes.h"
#include "specs/src/parity.h"

namespace kir::oracle {
namespace {

[[noreturn]] void fail(const std::string& msg) { throw SpecCaseError(msg); }

int64_t to_extent(const mpz_class& v, const std::string& what) {
  if (!v.fits_slong_p() || v < 0) fail(what + " has extent " + v.get_str() + ", not a usable size");
  return v.get_si();
}

interp::Shape call_shape(const specs::TensorCall& t) {
  interp::Shape s;
  for (const auto& d : t.shape) s.push_back(to_extent(d, "tensor '" + t.name + "'"));
  return s;
}

// Whether kernel `f` takes this call's present tensors: same dtypes and ranks, constant extents
// equal, and each extent symbol bound to one value across all views (so layout variants of one
// dtype case, e.g. A[M, K] x B[K, N] against B[N, K], choose themselves). Absent tensors do not
// constrain; extents that are expressions are left to the interpreter's binding check.
// Returns the extent symbols the views bind, or nullopt when the kernel does not fit.
using Bindings = std::map<std::string, int64_t>;
std::optional<Bindings> kernel_fits(const Function& f, const specs::Call& call) {
  Bindings bound;
  for (const kir::Value* p : f.params()) {
    if (!p->type.is(TypeKind::View)) continue;
    const specs::TensorCall* t = call.tensor(p->name);
    if (!t || !t->present) continue;
    if (specs::kir_dtype_name(t->dtype) != std::string(name(p->type.dtype())) || p->type.rank() != t->shape.size()) return std::nullopt;
    for (size_t i = 0; i < t->shape.size(); ++i) {
      const Extent& e = p->type.shape()[i];
      if (!t->shape[i].fits_slong_p()) return std::nullopt;
      const int64_t n = t->shape[i].get_si();
      if (e.is_constant()) {
        if (e.evaluate([](const std::string&) { return std::optional<int64_t>(); }) != n) return std::nullopt;
      } else if (e.is_symbol()) {
        auto [it, fresh] = bound.emplace(e.symbol_name(), n);
        if (!fresh && it->second != n) return std::nullopt;
      }
    }
  }
  return bound;
}

// The call's value of fixed param `name`: a dotted name (`layout.packing`) reads a field of an
// ADT param; nullopt when the call has no such param or field.
std::optional<specs::Value> call_value(const specs::Call& call, const std::string& name) {
  const size_t dot = name.find('.');
  const std::string head = name.substr(0, dot);
  const specs::Value* v = nullptr;
  for (const auto& [n, x] : call.params)
    if (n == head) v = &x;
  for (size_t at = dot; v && at != std::string::npos;) {
    const size_t next = name.find('.', at + 1);
    const std::string field = name.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1);
    v = v->t == specs::Value::T::Adt && v->adt ? v->adt->field(field) : nullptr;
    at = next;
  }
  return v ? std::optional<specs::Value>(*v) : std::nullopt;
}

// Whether the call's value `v` is exactly the fixed value `a`: an integer an Int, a float a
// number of the same double value, a bool a Bool, a string a Str (or the constructor of an ADT
// value), `none` None, an extent symbol the Int the views bind it to, a list a sequence of as
// many matching items.
bool fixed_value_matches(const Attribute& a, const specs::Value& v, const Bindings& bound) {
  using T = specs::Value::T;
  switch (a.kind) {
    case Attribute::Kind::Int: return v.t == T::Int && v.i == mpz_class(int128_str(a.i));
    case Attribute::Kind::Float: return (v.t == T::Float || v.t == T::Int) && v.as_double() == a.f;
    case Attribute::Kind::Bool: return v.t == T::Bool && v.b == a.b;
    case Attribute::Kind::String: return (v.t == T::Str && v.s == a.s) || (v.t == T::Adt && v.adt && v.adt->ctor == a.s);
    case Attribute::Kind::Keyword: {
      if (a.s == "none") return v.is_none();
      auto it = bound.find(a.s);
      return it != bound.end() && v.t == T::Int && v.i == it->second;
    }
    case Attribute::Kind::List:
      if (v.t != T::Seq || v.seq.size() != a.list.size()) return false;
      for (size_t i = 0; i < a.list.size(); ++i)
        if (!fixed_value_matches(a.list[i], v.seq[i], bound)) return false;
      return true;
    case Attribute::Kind::Symbol: case Attribute::Kind::EnumMember: break;
  }
  return false;
}

// The fixed params of `f` whose values the call does not have, in declaration order.
std::vector<std::pair<std::string, Attribute>> fixes_mismatch(const Function& f, const specs::Call& call, const Bindings& bound) {
  std::vector<std::pair<std::string, Attribute>> out;
  for (const auto& [n, a] : f.fixes) {
    const auto v = call_value(call, n);
    if (!v || !fixed_value_matches(a, *v, bound)) out.emplace_back(n, a);
  }
  return out;
}

// The generated bytes as a host view, decoded like an .npy file of the same descr (interp/npy.h).
interp::HostView view_from_data(DType d, const interp::Shape& shape, const specs::TensorData& data) {
  try {
    interp::Tensor t = interp::npy_to_tensor(interp::NpyArray{data.npy_descr, shape, data.bytes}, d);
    return interp::make_host_view(d, shape, std::move(t.bits));
  } catch (const std::runtime_error& e) {
    fail("generated data of '" + data.name + "' (" + data.dtype + ") does not fit " + std::string(name(d)) +
         interp::shape_str(shape) + ": " + e.what());
  }
}

interp::KernelArg scalar_arg(const kir::Value& p, const specs::Value& v) {
  const std::string where = "param '" + p.name + "' = " + v.repr();
  if (p.type.is(TypeKind::Enum)) {
    if (v.t != specs::Value::T::Str) fail(where + " is no enum member name");
    return interp::EnumArg{v.s};
  }
  const DType d = p.type.dtype();
  if (d == DType::Bool) {
    if (v.t != specs::Value::T::Bool) fail(where + " is not a bool");
    return num::make_bool(v.b);
  }
  if (is_integer(d)) {
    if (!v.is_intlike() || !v.as_int().fits_slong_p()) fail(where + " is not an integer of " + std::string(name(d)));
    return num::make_int(d, static_cast<uint64_t>(v.as_int().get_si()));
  }
  if (is_any_float(d)) {
    if (!v.is_number()) fail(where + " is not a number");
    return num::Scalar{d, num::from_double(v.as_double(), d)};
  }
  fail(where + ": kernel parameter type " + p.type.str() + " cannot take it");
}

}  // namespace

LoadedKernels load_kernels(const std::string& path) {
  LoadedKernels k;
  k.path = path;
  Diagnostics diags;
  k.module = load_canonical(path, diags, k.source, &k.normalized);
  if (!k.module) {
    k.error = diags.render(k.source);
    return k;
  }
  // `// compare: ulps=N [atol=X]` anywhere in the file (a comment: tooling metadata).
  static const std::regex directive(R"(//\s*compare:\s*ulps\s*=\s*(\d+)(?:\s+atol\s*=\s*([0-9.eE+-]+))?)");
  std::smatch mt;
  if (std::regex_search(k.source, mt, directive)) {
    k.tolerance.ulps = std::stoull(mt[1].str());
    if (mt[2].matched) k.tolerance.atol = std::stod(mt[2].str());
  }
  return k;
}

const Function& kernel_for_call(const Module& m, const std::string& op, const specs::Call& call, const std::string& file) {
  std::string tried, fixed;
  std::vector<std::string> row_params;  // the params some shape-fitting kernel fixes otherwise
  for (const auto& f : m.functions) {
    if (!f->is_kernel() || !(f->name == op || f->name.rfind(op + "__", 0) == 0)) continue;
    if (const auto bound = kernel_fits(*f, call)) {
      const auto bad = fixes_mismatch(*f, call, *bound);
      if (bad.empty()) return *f;
      std::string fx;
      for (const auto& [n, a] : bad) {
        fx += (fx.empty() ? "" : ", ") + n + " = " + a.str();
        if (std::find(row_params.begin(), row_params.end(), n) == row_params.end()) row_params.push_back(n);
      }
      fixed += "; @" + f->name + " fixes " + fx;
    }
    tried += " @" + f->name;
  }
  if (!fixed.empty()) {
    std::string row;
    for (const auto& n : row_params) {
      const auto v = call_value(call, n);
      row += (row.empty() ? "" : ", ") + n + " = " + (v ? v->repr() : "(no such param)");
    }
    throw SpecCaseSkip("no kernel of " + file + " fixes " + row + " (this row)" + fixed);
  }
  std::string dts;
  for (const auto& t : call.tensors)
    if (t.present) {
      std::string shape;
      for (const auto& d : t.shape) shape += (shape.empty() ? "" : ", ") + d.get_str();
      dts += (dts.empty() ? "" : ", ") + t.name + ": " + t.dtype + "[" + shape + "]";
    }
  fail(file + " has no kernel for the dtypes and shapes {" + dts + "}" + (tried.empty() ? " (no kernel @" + op + " at all)" : " (tried" + tried + ")"));
}

std::vector<specs::TensorData> generate_case_inputs(const specs::OpSpec& op, const specs::Call& call,
                                                    const specs::DataOptions& opts) {
  try {
    return specs::generate_inputs(op, call, opts);
  } catch (const std::exception& e) {
    fail(std::string("input generation: ") + e.what());
  }
}

Invocation build_args(const Function& k, const specs::Call& call, const std::vector<specs::TensorData>& data) {
  Invocation inv;
  std::vector<const kir::Value*> absent;
  for (const kir::Value* p : k.params()) {
    if (p->type.is(TypeKind::View)) {
      const specs::TensorCall* t = call.tensor(p->name);
      if (!t) fail("kernel parameter %" + p->name + " (" + p->loc.str() + ") is no tensor of the manifest");
      if (!t->present) {
        absent.push_back(p);
        continue;
      }
      const interp::Shape shape = call_shape(*t);
      interp::HostView h;
      if (t->role == specs::Role::Output) {
        h = interp::make_host_view(p->type.dtype(), shape);
      } else {
        auto it = std::find_if(data.begin(), data.end(), [&](const specs::TensorData& d) { return d.name == t->name; });
        if (it == data.end()) fail("no generated data for input '" + t->name + "'");
        h = view_from_data(p->type.dtype(), shape, *it);
      }
      inv.args[p->name] = h;
      inv.views[p->name] = h;
      continue;
    }
    if (std::string of = specs::presence_flag_target(p->name); !of.empty() && p->is_constexpr && p->type.is_scalar() && p->type.dtype() == DType::Bool) {
      const specs::TensorCall* t = call.tensor(of);
      if (!t) fail("kernel parameter %" + p->name + " (" + p->loc.str() + ") names no tensor '" + of + "' of the manifest");
      inv.args[p->name] = num::make_bool(t->present);
      continue;
    }
    const specs::Value* v = nullptr;
    for (const auto& [n, x] : call.params)
      if (n == p->name) v = &x;
    if (!v || v->is_none()) {
      if (p->default_value) continue;  // the kernel's own default
      fail("kernel parameter %" + p->name + " (" + p->loc.str() + ") has no value in the call and no default");
    }
    inv.args[p->name] = scalar_arg(*p, *v);
  }
  // Omitted optional tensors: each axis the extent the present views bind (0 where it is
  // unbound, e.g. a dimension only the omitted tensor has), every element undefined.
  const auto bound = interp::bind_kernel_extents(k, inv.args);
  auto lookup = [&](const std::string& sym) -> std::optional<int64_t> {
    auto it = bound.find(sym);
    return it == bound.end() ? std::nullopt : std::optional<int64_t>(it->second);
  };
  for (const kir::Value* p : absent) {
    interp::Shape shape;
    for (const Extent& e : p->type.shape()) shape.push_back(std::max<int64_t>(0, e.evaluate(lookup).value_or(0)));
    interp::HostView h = interp::make_host_view(p->type.dtype(), shape);
    h.absent = true;
    inv.args[p->name] = h;
  }
  return inv;
}

}  // namespace kir::oracle
