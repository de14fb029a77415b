// GeneratedCase -> kernel arguments (case_args.h).
#include "fuzz/campaign/case_args.h"

#include <stdexcept>

namespace kir::fuzz {

std::map<std::string, interp::KernelArg> case_args(const Module& m, const GeneratedCase& c) {
  const Function* k = m.find_function(c.kernel);
  if (!k) throw std::runtime_error("generated case: no kernel @" + c.kernel);
  std::map<std::string, const GeneratedCase::Input*> given;
  for (const auto& in : c.inputs) given[in.name[0] == '%' ? in.name.substr(1) : in.name] = &in;
  std::map<std::string, interp::KernelArg> args;
  for (const kir::Value* p : k->params()) {
    auto it = given.find(p->name);
    if (p->type.is(TypeKind::View)) {
      if (it == given.end()) {
        if (p->type.access() != Access::Out) throw std::runtime_error("generated case: no data for %" + p->name);
        std::string missing;
        auto shape = interp::param_shape(*p, c.dims, &missing);
        if (!shape) throw std::runtime_error("generated case: extent " + missing + " of %" + p->name + " is unbound");
        args[p->name] = interp::make_host_view(p->type.dtype(), *shape);
        continue;
      }
      const auto& in = *it->second;
      interp::HostView h = interp::make_host_view(in.dtype, interp::Shape{static_cast<int64_t>(in.bits.size())}, in.bits);
      h.shape = in.shape;
      h.strides = in.strides;
      h.offset = in.offset;
      if (h.strides.empty()) h.strides = interp::row_major_strides(h.shape);
      args[p->name] = h;
    } else if (it != given.end()) {
      const auto& in = *it->second;
      if (in.bits.size() != 1) throw std::runtime_error("generated case: scalar %" + p->name + " needs one value");
      args[p->name] = interp::Scalar{in.dtype, in.bits[0]};
    } else if (!(p->is_constexpr && p->default_value)) {
      throw std::runtime_error("generated case: no value for %" + p->name);
    }
  }
  return args;
}

}  // namespace kir::fuzz
