// See args.h.
#include "fuzz/gen/args.h"

#include <stdexcept>

namespace kir::fuzz {

std::map<std::string, interp::KernelArg> kernel_args(const GeneratedCase& gc, const Module& m) {
  const Function* k = m.find_function(gc.kernel);
  if (!k) throw std::runtime_error("no kernel @" + gc.kernel);
  std::map<std::string, const GeneratedCase::Input*> by_name;
  for (const auto& in : gc.inputs) by_name[in.name] = &in;
  std::map<std::string, interp::KernelArg> args;
  for (const kir::Value* p : k->params()) {
    auto it = by_name.find(p->name);
    if (p->type.is(TypeKind::View) && p->type.access() == Access::Out) {
      auto shape = interp::param_shape(*p, gc.dims);
      if (!shape) throw std::runtime_error("no shape for %" + p->name);
      args.emplace(p->name, interp::make_host_view(p->type.dtype(), *shape));
      continue;
    }
    if (it == by_name.end()) throw std::runtime_error("no input for %" + p->name);
    const auto& in = *it->second;
    if (in.scalar) {
      args.emplace(p->name, interp::Scalar{in.dtype, in.bits.at(0)});
      continue;
    }
    interp::HostView h;
    h.storage = std::make_shared<interp::Storage>();
    h.storage->dtype = in.dtype;
    h.storage->bits = in.bits;
    h.shape = in.shape;
    h.strides = in.strides;
    h.offset = in.offset;
    args.emplace(p->name, h);
  }
  return args;
}

}  // namespace kir::fuzz
