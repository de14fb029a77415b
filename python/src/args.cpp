// See args.h.
#include "args.h"

#include <cmath>
#include <sstream>

#include "numerics/format.h"
#include "numerics/value_text.h"
#include "tools/kernel_inputs.h"

namespace kir::py_kir {

num::Scalar scalar_arg(py::handle given, DType d, const std::string& what) {
  py::object v = py::reinterpret_borrow<py::object>(given);  // owns what it is reassigned to below
  auto parsed = [&](const std::string& text) {
    auto r = num::parse_value(text, d);
    if (!r) throw KirFailure(what + ": " + r.error().message);
    return *r;
  };
  // intent Array of one element, 0-d arrays and NumPy scalars of d's own carrier: the bits as given.
  if (py::hasattr(v, "bits") && py::hasattr(v, "dtype") && py::isinstance<py::str>(v.attr("dtype"))) {
    Bits b = array_bits(v, d, what);
    if (b.bits.size() != 1) throw KirFailure(what + ": a scalar takes one element, got an Array of shape " + interp::shape_str(b.shape));
    return num::Scalar{d, b.bits[0]};
  }
  if (py::isinstance<py::array>(v) || py::hasattr(v, "dtype")) {
    py::array a = py::module_::import("numpy").attr("asarray")(v);
    if (a.ndim() != 0) throw KirFailure(what + ": a scalar parameter takes a number, got an array of " + std::to_string(a.ndim()) + " dimensions");
    // d's own NumPy type, or its carrier (bf16 as uint16, e4m3 as uint8, ...): the bit pattern.
    if (has_dtype(a, carrier_dtype(d))) return num::Scalar{d, array_bits(a, d, what).bits[0]};
    v = a.attr("item")();
  }
  if (py::isinstance<py::str>(v)) return parsed(v.cast<std::string>());
  if (py::isinstance<py::bool_>(v)) return parsed(v.cast<bool>() ? (d == DType::Bool ? "true" : "1") : (d == DType::Bool ? "false" : "0"));
  if (py::isinstance<py::int_>(v)) {
    if (d == DType::Bool) {
      const std::string s = py::str(v).cast<std::string>();
      if (s != "0" && s != "1") throw KirFailure(what + ": a bool takes True, False, 0 or 1, got " + s);
      return num::make_bool(s == "1");
    }
    return parsed(py::str(v).cast<std::string>());  // exact: out of range is an error
  }
  if (py::isinstance<py::float_>(v)) {
    const double x = v.cast<double>();
    if (is_any_float(d)) return num::Scalar{d, num::from_double(x, d)};
    if (std::isfinite(x) && x == std::floor(x) && std::fabs(x) < 1.9e19)
      return parsed(py::str(py::int_(v)).cast<std::string>());
    throw KirFailure(what + ": " + std::string(name(d)) + " takes an integer, got " + py::repr(v).cast<std::string>());
  }
  throw KirFailure(what + ": cannot use " + py::repr(v).cast<std::string>() + " as a " + std::string(name(d)));
}

BoundArgs bind_args(const PyModule& pm, const Function& k, py::handle args, py::handle dims, uint64_t seed) {
  BoundArgs out;
  std::map<std::string, const kir::Value*> params;
  for (const kir::Value* p : k.params()) params[p->name] = p;
  tools::InputSpec spec;
  spec.seed = seed;
  if (!args.is_none()) {
    if (!py::isinstance<py::dict>(args)) throw KirFailure("args must be a dict of parameter name -> value");
    for (auto [key, value] : py::reinterpret_borrow<py::dict>(args)) {
      std::string n = py::str(key).cast<std::string>();
      if (!n.empty() && n[0] == '%') n = n.substr(1);
      auto it = params.find(n);
      if (it == params.end()) throw KirFailure("kernel @" + k.name + " has no parameter %" + n);
      if (value.is_none()) continue;
      const kir::Value& p = *it->second;
      const std::string what = "parameter %" + n;
      const Type& t = p.type;
      if (t.is(TypeKind::View)) {
        Bits b = array_bits(value, t.dtype(), what + " (" + t.str() + ")");
        if (b.shape.size() != t.rank())
          throw KirFailure(what + " (" + t.str() + "): expected an array of rank " + std::to_string(t.rank()) +
                           ", got shape " + interp::shape_str(b.shape));
        try {
          out.args[n] = interp::make_host_view(t.dtype(), b.shape, std::move(b.bits));
        } catch (const interp::RuntimeError& e) {
          throw KirFailure(what + ": " + e.message());
        }
      } else if (t.is(TypeKind::Enum)) {
        const EnumDecl* e = pm.module->find_enum(t.enum_name());
        std::string member;
        if (py::isinstance<py::str>(value)) {
          member = value.cast<std::string>();
        } else if (py::isinstance<py::int_>(value) && !py::isinstance<py::bool_>(value) && e) {
          const int64_t iv = value.cast<int64_t>();
          for (const auto& [mn, mv] : e->members)
            if (mv == iv) member = mn;
          if (member.empty()) throw KirFailure(what + ": no member of @" + t.enum_name() + " has the value " + std::to_string(iv));
        } else {
          throw KirFailure(what + ": a constexpr enum<@" + t.enum_name() + "> takes a member name (str) or its value (int)");
        }
        out.args[n] = interp::EnumArg{member};
      } else if (t.is_scalar()) {
        out.args[n] = scalar_arg(value, t.dtype(), what + " (" + t.str() + ")");
      } else {
        throw KirFailure(what + ": unsupported parameter type " + t.str());
      }
    }
  }
  if (!dims.is_none()) {
    if (!py::isinstance<py::dict>(dims)) throw KirFailure("dims must be a dict of extent symbol -> N");
    for (auto [key, value] : py::reinterpret_borrow<py::dict>(dims)) {
      const std::string s = py::str(key).cast<std::string>();
      if (!py::isinstance<py::int_>(value) || py::isinstance<py::bool_>(value))
        throw KirFailure("dims: " + s + " needs an integer N >= 0, got " + py::repr(value).cast<std::string>());
      const int64_t v = value.cast<int64_t>();
      if (v < 0) throw KirFailure("dims: " + s + " needs N >= 0, got " + std::to_string(v));
      spec.dims[s] = v;
    }
  }
  std::ostringstream notes;
  const std::string err = tools::make_kernel_args(k, spec, out.args, notes);
  if (!err.empty()) throw KirFailure(err);
  std::istringstream in(notes.str());
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.notes.push_back(line);
  return out;
}

py::dict outputs_of(const Function& k, const std::map<std::string, interp::KernelArg>& args, py::dict* undefined,
                    py::dict* dtypes) {
  py::dict out;
  for (const kir::Value* p : k.params()) {
    if (!p->type.is(TypeKind::View) || p->type.access() == Access::In) continue;
    auto it = args.find(p->name);
    if (it == args.end() || !std::holds_alternative<interp::HostView>(it->second)) continue;
    const auto& h = std::get<interp::HostView>(it->second);
    out[py::str(p->name)] = bits_array(h.storage->dtype, h.shape, h.storage->bits);
    if (dtypes) (*dtypes)[py::str(p->name)] = std::string(name(h.storage->dtype));
    if (undefined) {
      int64_t n = 0;
      for (uint8_t d : h.storage->defined) n += d == 0;
      (*undefined)[py::str(p->name)] = n;
    }
  }
  return out;
}

py::dict dims_of(const Function& k, const std::map<std::string, interp::KernelArg>& args) {
  py::dict d;
  for (const auto& [s, v] : interp::bind_kernel_extents(k, args)) d[py::str(s)] = v;
  return d;
}

}  // namespace kir::py_kir
