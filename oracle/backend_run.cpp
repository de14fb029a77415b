// Host side of a native call (backend_run.h): storages in the interpreter's layout (one 64-bit
// pattern per element) are packed into the ABI's element layout and back.
#include "oracle/backend_run.h"

#include <cstring>
#include <deque>
#include <stdexcept>

#include "oracle/fault.h"

namespace kir::oracle {
namespace {

size_t elem_bytes(DType d) {
  int b = info(d).bits;
  return b <= 8 ? 1 : static_cast<size_t>(b / 8);
}

std::vector<uint8_t> pack(const interp::Storage& s) {
  size_t w = elem_bytes(s.dtype);
  std::vector<uint8_t> out(s.bits.size() * w + 64);
  for (size_t i = 0; i < s.bits.size(); ++i) std::memcpy(out.data() + i * w, &s.bits[i], w);  // little-endian
  return out;
}

void unpack(const std::vector<uint8_t>& bytes, interp::Storage& s) {
  size_t w = elem_bytes(s.dtype);
  uint64_t mask = info(s.dtype).bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << info(s.dtype).bits) - 1;
  for (size_t i = 0; i < s.bits.size(); ++i) {
    uint64_t v = 0;
    std::memcpy(&v, bytes.data() + i * w, w);
    s.bits[i] = v & mask;
  }
  s.defined.clear();
}

}  // namespace

cpu::Specialization specialization_of(const Module& m, const Function& k,
                                      const std::map<std::string, interp::KernelArg>& args) {
  cpu::Specialization spec;
  for (const kir::Value* p : k.params()) {
    if (!(p->is_constexpr || p->type.is(TypeKind::Enum))) continue;
    auto it = args.find(p->name);
    if (it == args.end()) continue;
    if (const auto* s = std::get_if<interp::Scalar>(&it->second)) {
      uint64_t bits = s->bits;
      if (is_signed_integer(s->dtype)) bits = static_cast<uint64_t>(num::as_signed(*s));
      spec.constexprs[p->name] = bits;
    } else if (const auto* e = std::get_if<interp::EnumArg>(&it->second)) {
      std::string member = e->member;
      auto colon = member.rfind("::");
      if (colon != std::string::npos) member = member.substr(colon + 2);
      const EnumDecl* ed = p->type.is(TypeKind::Enum) ? m.find_enum(p->type.enum_name()) : nullptr;
      bool found = false;
      for (const auto& [n, v] : ed ? ed->members : std::vector<std::pair<std::string, int64_t>>{})
        if (n == member) {
          spec.constexprs[p->name] = static_cast<uint64_t>(v);
          found = true;
        }
      if (!found) throw std::runtime_error("no member `" + member + "` for enum parameter %" + p->name);
    }
  }
  return spec;
}

cpu::CompiledSource compile_for_args(const Module& m, const std::string& name,
                                     const std::map<std::string, interp::KernelArg>& args, const cpu::CompileOptions& opt_in) {
  const Function* k = m.find_function(name);
  if (!k) throw std::runtime_error("no kernel @" + name);
  cpu::CompileOptions opt = opt_in;
  opt.spec = specialization_of(m, *k, args);
  for (const kir::Value* p : k->params()) {  // view facts the program is specialized on
    auto it = args.find(p->name);
    if (!p->type.is(TypeKind::View) || it == args.end() || !std::holds_alternative<interp::HostView>(it->second)) continue;
    const auto& h = std::get<interp::HostView>(it->second);
    opt.spec.unit_inner_stride[p->name] = h.strides.empty() || h.strides.back() == 1;
  }
  return cpu::compile_to_source(m, name, opt);
}

BackendRunResult run_on_backend(const Module& m, const std::string& name, std::map<std::string, interp::KernelArg>& args,
                                const cpu::CompileOptions& opt) {
  cpu::CompiledSource src = compile_for_args(m, name, args, opt);
  BackendRunResult r;
  std::deque<cpu::CompiledSource> one;
  one.push_back(std::move(src));
  r.kernel = cpu::build_kernels(std::move(one), opt.cache).front();
  r.compiled = r.kernel->artifact().compiled;
  call_on_backend(*r.kernel, m, name, args);
  return r;
}

BoundCall::BoundCall(const cpu::NativeKernel& kernel, const Module& m, const std::string& name,
                     std::map<std::string, interp::KernelArg>& args)
    : kernel_(kernel) {
  const Function* k = m.find_function(name);
  if (!k) throw std::runtime_error("no kernel @" + name);
  const cpu::Program& P = kernel.program();
  auto dims = interp::bind_kernel_extents(*k, args);
  // Symbols that appear only inside compound extents (`NS + 1`) are solved from a view axis
  // whose extent is linear in that one symbol with coefficient 1.
  for (const kir::Value* p : k->params()) {
    if (!p->type.is(TypeKind::View)) continue;
    auto it = args.find(p->name);
    if (it == args.end() || !std::holds_alternative<interp::HostView>(it->second)) continue;
    const auto& shape = std::get<interp::HostView>(it->second).shape;
    for (size_t a = 0; a < p->type.shape().size() && a < shape.size(); ++a) {
      const Extent& e = p->type.shape()[a];
      auto syms = e.symbols();
      if (syms.size() != 1 || dims.count(syms[0])) continue;
      auto at = [&](int64_t v) { return e.evaluate([&](const std::string&) { return std::optional<int64_t>(v); }); };
      auto c0 = at(0), c1 = at(1), c2 = at(2);
      if (c0 && c1 && c2 && *c1 - *c0 == 1 && *c2 - *c1 == 1) dims[syms[0]] = shape[a] - *c0;
    }
  }
  for (const auto& s : P.symbols) {
    auto it = dims.find(s);
    if (it == dims.end()) throw FaultError(host_fault("binding", "extent " + s + " of kernel @" + name + " is not bound by the views"));
    extents_.push_back(it->second);
  }
  for (cpu::VarId v : P.scalar_params) {
    const auto& pname = P.var(v).name;
    auto it = args.find(pname);
    if (it == args.end() || !std::holds_alternative<interp::Scalar>(it->second))
      throw FaultError(host_fault("binding", "runtime scalar %" + pname + " has no value"));
    scalars_.push_back(std::get<interp::Scalar>(it->second).bits);
  }
  storage_.reserve(P.view_params.size());  // the views point into these: no reallocation
  for (cpu::BufId b : P.view_params) {
    const auto& pname = P.buf(b).name;
    auto it = args.find(pname);
    if (it == args.end() || !std::holds_alternative<interp::HostView>(it->second))
      throw FaultError(host_fault("binding", "view %" + pname + " has no value"));
    auto& h = std::get<interp::HostView>(it->second);
    if (h.shape.size() > KIR_MAX_RANK) throw std::runtime_error("view %" + pname + " has rank above 8");
    storage_.push_back(pack(*h.storage));
    hosts_.push_back(&h);
    kir_view v{};
    v.data = storage_.back().data();
    v.offset = h.offset;
    v.rank = static_cast<int64_t>(h.shape.size());
    interp::Shape st = h.strides.empty() ? interp::row_major_strides(h.shape) : h.strides;
    // The strides the view type fixes are compiled in: the view handed over must have them.
    if (const auto& fixed = P.buf(b).static_strides)
      for (size_t a = 0; a < fixed->size() && a < st.size(); ++a)
        if ((*fixed)[a] != cpu::kDynamicStride && (*fixed)[a] != st[a] && h.shape[a] > 1)
          throw FaultError(host_fault("binding", "view %" + pname + ": axis " + std::to_string(a) + " has stride " +
                                                     std::to_string(st[a]) + " but its type fixes stride " +
                                                     std::to_string((*fixed)[a])));
    for (size_t a = 0; a < h.shape.size(); ++a) {
      v.shape[a] = h.shape[a];
      v.strides[a] = st[a];
    }
    views_.push_back(v);
  }
}

kir_fault BoundCall::call() { return kernel_.call(views_, scalars_, extents_); }

void BoundCall::write_back() {
  const cpu::Program& P = kernel_.program();
  for (size_t i = 0; i < hosts_.size(); ++i)
    if (P.buf(P.view_params[i]).access != Access::In) unpack(storage_[i], *hosts_[i]->storage);
}

void call_on_backend(const cpu::NativeKernel& kernel, const Module& m, const std::string& name,
                     std::map<std::string, interp::KernelArg>& args) {
  BoundCall bc(kernel, m, name, args);
  kir_fault f = bc.call();
  if (f.code != 0) throw FaultError(fault_of(kernel, f));
  bc.write_back();
}

interp::Options declared_order_options(const cpu::Program& p) {
  interp::Options o;
  o.accumulation = interp::AccumulationOrder::Sequential;
  for (const auto& b : p.bindings) {
    if (b.op_id < 0) continue;
    const std::string& loc = p.ops[static_cast<size_t>(b.op_id)].location;
    if (b.order == "sequential-fused") o.accumulation_at[loc] = interp::AccumulationOrder::SequentialFused;
    if (b.order == "sequential-fused-pairs") o.accumulation_at[loc] = interp::AccumulationOrder::SequentialFusedPairs;
    if (b.order == "lanes") {
      interp::LanesOrder lo;
      for (const auto& [name, v] : b.params) {
        if (name == "lanes") lo.lanes = v;
        if (name == "block") lo.block = v;
      }
      o.reduce_lanes_at[loc] = lo;
    }
    if (b.order == "blocks")
      for (const auto& [name, v] : b.params)
        if (name == "block") o.scan_blocks_at[loc] = v;
    if (b.order == "segments")
      for (const auto& [name, v] : b.params)
        if (name == "region_block" && v > 0) o.region_blocks_at[loc] = v;
  }
  return o;
}

std::vector<BatchProgram> build_batch(size_t n, const std::function<cpu::CompiledSource(size_t)>& compile) {
  std::vector<BatchProgram> out(n);
  std::deque<cpu::CompiledSource> sources;
  std::vector<size_t> compiled;
  for (size_t i = 0; i < n; ++i) {
    try {
      sources.push_back(compile(i));
      compiled.push_back(i);
    } catch (const std::exception& e) {
      out[i].error = e.what();
    }
  }
  if (sources.empty()) return out;
  try {
    auto natives = cpu::build_kernels(std::move(sources));
    for (size_t j = 0; j < compiled.size(); ++j) out[compiled[j]].native = natives[j];
    return out;
  } catch (const std::exception&) {
    // Some program breaks the batch: build each alone to find which.
  }
  for (size_t i : compiled) {
    try {
      std::deque<cpu::CompiledSource> one;
      one.push_back(compile(i));
      out[i].native = cpu::build_kernels(std::move(one)).front();
    } catch (const std::exception& e) {
      out[i].error = e.what();
    }
  }
  return out;
}

}  // namespace kir::oracle
