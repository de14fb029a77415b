// See kernel_inputs.h.
#include "tools/kernel_inputs.h"

#include <algorithm>

#include "interp/npy.h"
#include "kir/suggest.h"
#include "tools/index_ranges.h"
#include "numerics/format.h"
#include "numerics/philox.h"
#include "numerics/value_text.h"

namespace kir::tools {
namespace {

uint64_t name_hash(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

// A deterministic pseudo-random element of dtype d: floats in [-2, 2), integers in [0, limit)
// (default 8), bools 0/1, e8m0 scales near 1.
uint64_t random_elem(DType d, uint64_t seed, uint64_t i, uint64_t limit = 8) {
  const uint32_t w = num::random_bits(seed, i);
  if (d == DType::Bool) return w & 1;
  if (d == DType::E8M0) return 120 + w % 15;
  if (is_any_float(d)) {
    const double u = static_cast<double>(w) / 4294967296.0;
    return num::from_double(4.0 * u - 2.0, d);
  }
  return w % limit;
}

// The exclusive upper bound of the values of an integer input that indexes the given axes: the
// smallest bound extent, capped by the dtype's largest value; 8 when nothing it indexes is bound.
uint64_t index_limit(DType d, const std::vector<Extent>& axes, const std::map<std::string, int64_t>& bound) {
  std::optional<int64_t> lim;
  for (const Extent& e : axes) {
    auto v = e.evaluate([&](const std::string& s) -> std::optional<int64_t> {
      auto it = bound.find(s);
      return it == bound.end() ? std::nullopt : std::optional<int64_t>(it->second);
    });
    if (v && (!lim || *v < *lim)) lim = *v;
  }
  if (!lim || *lim <= 0) return 8;
  const int bits = info(d).bits - (is_signed_integer(d) ? 1 : 0);
  const uint64_t cap = bits >= 63 ? UINT64_MAX : (uint64_t{1} << bits);
  return std::min<uint64_t>(static_cast<uint64_t>(*lim), cap);
}

// NAME=VALUE (a leading % of NAME dropped); false without '='.
bool split_assignment(const std::string& s, std::string& name, std::string& value) {
  const auto eq = s.find('=');
  if (eq == std::string::npos) return false;
  name = s.substr(0, eq);
  if (!name.empty() && name[0] == '%') name = name.substr(1);
  value = s.substr(eq + 1);
  return true;
}

// The argument of scalar or enum parameter `p` from the text `flag` gave it: a literal of its
// dtype, or an enum member (bare or @Enum::member, checked against the enum when binding).
std::string literal_arg(const kir::Value& p, const std::string& text, const std::string& flag, interp::KernelArg& out) {
  if (p.type.is(TypeKind::Enum)) {
    out = interp::EnumArg{text};
    return "";
  }
  auto v = num::parse_value(text, p.type.dtype());
  if (!v) return flag + " " + p.name + ": " + v.error().message;
  out = *v;
  return "";
}

}  // namespace

std::string make_kernel_args(const Function& k, const InputSpec& spec, std::map<std::string, interp::KernelArg>& args,
                             std::ostream& notes) {
  std::map<std::string, const kir::Value*> params;
  std::vector<std::string> inputs, extents;
  for (const kir::Value* p : k.params()) {
    params[p->name] = p;
    if (!(p->type.is(TypeKind::View) && p->type.access() == Access::Out)) inputs.push_back(p->name);
    if (p->type.is(TypeKind::View))
      for (const Extent& e : p->type.shape())
        for (const auto& sym : e.symbols())
          if (sym[0] != '%' && std::find(extents.begin(), extents.end(), sym) == extents.end()) extents.push_back(sym);
  }
  for (const auto& [n, v] : spec.values) {
    if (!params.count(n))
      return "kernel @" + k.name + " has no parameter %" + n + did_you_mean(n, inputs) + "; its inputs are " +
             join_names(inputs, "%");
    const kir::Value* p = params[n];
    if (p->type.is(TypeKind::View) && p->type.access() == Access::Out)
      return "%" + n + " is an Out view, which the kernel defines (it is unreadable on entry and takes no input); "
             "the inputs of kernel @" + k.name + " are " + join_names(inputs, "%");
  }
  for (const auto& [s, v] : spec.dims)
    if (std::find(extents.begin(), extents.end(), s) == extents.end())
      return "kernel @" + k.name + " has no extent " + s + did_you_mean(s, extents) + " to set; its extents are " +
             join_names(extents);
  const auto& specs = spec.values;
  // Views given as .npy fix their extents first.
  for (const auto& [n, value] : specs) {
    const kir::Value* p = params[n];
    if (!p->type.is(TypeKind::View)) continue;
    if (value.rfind("random:", 0) == 0) continue;
    try {
      interp::Tensor t = interp::npy_to_tensor(interp::read_npy(value), p->type.dtype());
      args[n] = interp::make_host_view(t.dtype, t.shape, std::move(t.bits));
    } catch (const std::exception& e) {
      return "input %" + n + " (" + p->type.str() + ") from " + value + ": " + e.what();
    }
  }
  auto bound = interp::bind_kernel_extents(k, args);  // a shape disagreement names its parameters
  for (const auto& [s, v] : spec.dims) bound[s] = v;
  // Then the file's default invocation, for extents neither the inputs nor --dim fix.
  for (const auto& [s, v] : k.invocation)
    if (!bound.count(s) && v.is_int()) bound[s] = static_cast<int64_t>(v.i);
  // Every view's extents first: an integer input that indexes another view's axis draws below that
  // axis's extent (index_ranges.h), which the other view may be the one to default.
  for (const kir::Value* p : k.params()) {
    if (args.count(p->name) || !p->type.is(TypeKind::View)) continue;
    std::string missing;
    while (!interp::param_shape(*p, bound, &missing)) {
      if (missing.empty() || missing[0] == '%') return std::string("cannot determine the shape of %" + p->name);
      notes << "note: extent " << missing << " is not fixed by the inputs; using " << spec.default_extent
            << " (pass --dim " << missing << "=N)\n";
      bound[missing] = spec.default_extent;
    }
  }
  const auto indexing = index_extents(k);
  for (const kir::Value* p : k.params()) {
    if (args.count(p->name)) continue;
    auto sit = specs.find(p->name);
    uint64_t seed = spec.seed ^ name_hash(p->name);
    if (sit != specs.end() && sit->second.rfind("random:", 0) == 0) seed = std::stoull(sit->second.substr(7)) ^ name_hash(p->name);
    if (p->type.is(TypeKind::View)) {
      std::string missing;
      std::optional<interp::Shape> shape;
      while (!(shape = interp::param_shape(*p, bound, &missing))) {
        if (missing.empty() || missing[0] == '%') return std::string("cannot determine the shape of %" + p->name);
        notes << "note: extent " << missing << " is not fixed by the inputs; using " << spec.default_extent
              << " (pass --dim " << missing << "=N)\n";
        bound[missing] = spec.default_extent;
      }
      const DType d = p->type.dtype();
      interp::HostView h;
      try {
        h = interp::make_host_view(d, *shape);
      } catch (const interp::RuntimeError& e) {  // e.g. a shape over the size limit from --dim
        throw interp::RuntimeError(e.kind(), "", p->loc.str(), "parameter %" + p->name + ": " + e.message());
      }
      auto ix = indexing.find(p->name);
      const uint64_t limit = ix == indexing.end() ? 8 : index_limit(d, ix->second, bound);
      if (p->type.access() != Access::Out)
        for (size_t i = 0; i < h.storage->bits.size(); ++i) h.storage->bits[i] = random_elem(d, seed, i, limit);
      args[p->name] = h;
    } else if (p->type.is(TypeKind::Enum)) {
      if (sit != specs.end()) {
        if (std::string e = literal_arg(*p, sit->second, "--input", args[p->name]); !e.empty()) return e;
      } else if (!p->default_value) {
        return std::string("constexpr enum %" + p->name + " needs --input " + p->name + "=MEMBER");
      }
    } else if (p->type.is_scalar()) {
      const DType d = p->type.dtype();
      if (sit != specs.end() && sit->second.rfind("random:", 0) != 0) {
        if (std::string e = literal_arg(*p, sit->second, "--input", args[p->name]); !e.empty()) return e;
      } else if (!(p->is_constexpr && p->default_value && sit == specs.end())) {
        // Runtime scalars default to a benign value: floats in [0, 0.5), integers in [0, 8).
        uint64_t bits = random_elem(d, seed, 0);
        if (is_any_float(d)) bits = num::from_double(static_cast<double>(num::random_bits(seed, 1)) / 8589934592.0, d);
        args[p->name] = interp::Scalar{d, bits};
      }
    }
  }
  return "";
}

std::string parse_input_spec(const std::vector<std::string>& inputs, const std::vector<std::string>& dims, uint64_t seed,
                             InputSpec& spec) {
  spec.seed = seed;
  for (const auto& in : inputs) {
    std::string n, v;
    if (!split_assignment(in, n, v)) return "--input needs name=file.npy|random:SEED|VALUE, got '" + in + "'";
    spec.values[n] = v;
  }
  for (const auto& d : dims) {
    auto eq = d.find('=');
    try {
      if (eq == std::string::npos) throw std::invalid_argument("");
      long long v = std::stoll(d.substr(eq + 1));
      if (v < 0) throw std::invalid_argument("");
      spec.dims[d.substr(0, eq)] = v;
    } catch (...) {
      return "--dim needs NAME=N with N >= 0, got '" + d + "'";
    }
  }
  return "";
}

std::string parse_const_args(const Module& m, const std::vector<const Function*>& kernels,
                             const std::vector<std::string>& consts,
                             std::map<std::string, std::map<std::string, interp::KernelArg>>& args) {
  std::vector<std::string> valid;
  for (const Function* k : kernels)
    for (const kir::Value* p : k->params())
      if ((p->is_constexpr || p->type.is(TypeKind::Enum)) && std::find(valid.begin(), valid.end(), p->name) == valid.end())
        valid.push_back(p->name);
  for (const auto& c : consts) {
    std::string n, text;
    if (!split_assignment(c, n, text)) return "--const needs NAME=VALUE, got '" + c + "'";
    if (std::find(valid.begin(), valid.end(), n) == valid.end())
      return "--const " + n + ": " + (kernels.size() == 1 ? "kernel @" + kernels[0]->name : std::string("no kernel compiled")) +
             " has no constexpr or enum parameter %" + n + did_you_mean(n, valid) + "; they are " + join_names(valid, "%");
    for (const Function* k : kernels)
      for (const kir::Value* p : k->params()) {
        if (p->name != n || !(p->is_constexpr || p->type.is(TypeKind::Enum))) continue;
        if (std::string e = literal_arg(*p, text, "--const", args[k->name][n]); !e.empty()) return e;
        if (!p->type.is(TypeKind::Enum)) continue;
        // --input leaves the member to the binding; a specialization needs it now.
        std::vector<std::string> members;
        if (const EnumDecl* d = m.find_enum(p->type.enum_name()))
          for (const auto& [member, value] : d->members) members.push_back(member);
        const auto colon = text.rfind("::");
        const std::string member = colon == std::string::npos ? text : text.substr(colon + 2);
        if (std::find(members.begin(), members.end(), member) == members.end())
          return "--const " + n + ": '" + member + "' is not a member of @" + p->type.enum_name() +
                 did_you_mean(member, members) + "; its members are " + join_names(members);
      }
  }
  return "";
}

const Function* choose_kernel(const Module& m, const std::string& name, const std::string& path, std::string& err) {
  std::vector<std::string> kernels;
  for (const auto& f : m.functions)
    if (f->is_kernel()) kernels.push_back(f->name);
  if (!name.empty()) {
    const std::string n = name[0] == '@' ? name.substr(1) : name;  // --kernel k or --kernel @k
    const Function* k = m.find_function(n);
    if (!k || !k->is_kernel())
      err = "no kernel @" + n + " in " + path + did_you_mean(n, kernels) + "; its kernels are " + join_names(kernels, "@");
    return err.empty() ? k : nullptr;
  }
  if (kernels.size() == 1) return m.find_function(kernels[0]);
  std::string list;
  for (const auto& n : kernels) list += " @" + n;
  err = kernels.empty() ? path + " has no kernel" : "several kernels (" + list + " ); choose one with --kernel";
  return nullptr;
}

}  // namespace kir::tools
