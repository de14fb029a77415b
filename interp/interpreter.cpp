// Kernel invocation (issue 4 item 1): binding external views (shape, strides, offset, access),
// runtime scalars and constexpr specialization to a kernel's parameters. Extent symbols are bound
// from the view shapes in parameter order and must agree everywhere (an error names both
// parameters); declared strides/offsets are checked; every view must lie inside its storage.
#include "interp/interpreter.h"

#include "interp/engine.h"
#include "numerics/format.h"

namespace kir::interp {

HostView make_host_view(DType dtype, const Shape& shape, std::vector<uint64_t> bits) {
  HostView h;
  h.storage = std::make_shared<Storage>();
  h.storage->dtype = dtype;
  const int64_t n = checked_numel(shape);
  if (bits.empty()) bits.assign(static_cast<size_t>(n), 0);
  h.storage->bits = std::move(bits);
  h.shape = shape;
  return h;
}

namespace {

[[noreturn]] void bind_fail(const kir::Value& p, const std::string& msg) {
  throw RuntimeError(ErrorKind::Binding, "", p.loc.str(), "parameter %" + p.name + ": " + msg);
}

// Plain extent symbols from view shapes; `who` remembers which parameter bound each symbol.
void bind_plain(const Function& k, const std::map<std::string, KernelArg>& args, std::map<std::string, int64_t>& b,
                std::map<std::string, std::string>& who) {
  for (const kir::Value* p : k.params()) {
    if (!p->type.is(TypeKind::View)) continue;
    auto it = args.find(p->name);
    if (it == args.end() || !std::holds_alternative<HostView>(it->second)) continue;
    const HostView& h = std::get<HostView>(it->second);
    const auto& decl = p->type.shape();
    if (decl.size() != h.shape.size())
      bind_fail(*p, "view of rank " + std::to_string(h.shape.size()) + " for a parameter of rank " + std::to_string(decl.size()));
    for (size_t i = 0; i < decl.size(); ++i) {
      if (!decl[i].is_symbol()) continue;
      const std::string s = decl[i].symbol_name();
      auto [bt, fresh] = b.emplace(s, h.shape[i]);
      if (fresh) who[s] = "%" + p->name + " axis " + std::to_string(i);
      else if (bt->second != h.shape[i])
        bind_fail(*p, "extent " + s + " is " + std::to_string(bt->second) + " from " + who[s] + " but " +
                          std::to_string(h.shape[i]) + " from %" + p->name + " axis " + std::to_string(i));
    }
  }
}

std::optional<int64_t> eval(const Extent& e, const std::map<std::string, int64_t>& b, std::string* missing) {
  return e.evaluate([&](const std::string& n) -> std::optional<int64_t> {
    auto it = b.find(n);
    if (it == b.end()) {
      if (missing) *missing = n;
      return std::nullopt;
    }
    return it->second;
  });
}

}  // namespace

std::map<std::string, int64_t> bind_kernel_extents(const Function& kernel, const std::map<std::string, KernelArg>& args) {
  std::map<std::string, int64_t> b;
  std::map<std::string, std::string> who;
  bind_plain(kernel, args, b, who);
  return b;
}

std::optional<Shape> param_shape(const kir::Value& param, const std::map<std::string, int64_t>& dims, std::string* missing) {
  Shape s;
  const Type t = param.type.is(TypeKind::View) || param.type.is(TypeKind::Buffer) ? param.type.tensor_type() : param.type;
  if (!t.is_tensor()) return Shape{};
  for (const auto& e : t.shape()) {
    auto v = eval(e, dims, missing);
    if (!v) return std::nullopt;
    s.push_back(*v);
  }
  return s;
}

void Engine::run_kernel(const Function& k, const std::map<std::string, KernelArg>& args) {
  Frame f;
  f.fn = &k;
  std::map<std::string, std::string> who;
  bind_plain(k, args, f.symbols, who);
  for (const kir::Value* p : k.params()) {
    auto it = args.find(p->name);
    if (p->type.is(TypeKind::View)) {
      if (it == args.end() || !std::holds_alternative<HostView>(it->second)) bind_fail(*p, "needs a view argument");
      const HostView& h = std::get<HostView>(it->second);
      if (!h.storage) bind_fail(*p, "view without storage");
      if (h.storage->dtype != p->type.dtype())
        bind_fail(*p, "view of dtype " + std::string(name(h.storage->dtype)) + " for " + p->type.str());
      const auto& decl = p->type.shape();
      for (size_t i = 0; i < decl.size(); ++i) {
        std::string missing;
        auto v = eval(decl[i], f.symbols, &missing);
        if (v && *v != h.shape[i])
          bind_fail(*p, "axis " + std::to_string(i) + " is " + std::to_string(h.shape[i]) + " but its extent " + decl[i].str() + " is " + std::to_string(*v));
      }
      auto v = std::make_shared<ViewV>();
      v->storage = h.storage;
      v->name = p->name;
      v->access = p->type.access();
      v->shape = h.shape;
      v->strides = h.strides.empty() ? row_major_strides(h.shape) : h.strides;
      v->offset = h.offset;
      if (v->strides.size() != v->shape.size()) bind_fail(*p, "strides do not match the rank");
      if (const auto& ds = p->type.strides()) {
        for (size_t i = 0; i < ds->size() && i < v->strides.size(); ++i) {
          const Extent& e = (*ds)[i];
          if (e.is_symbol() && !f.symbols.count(e.symbol_name())) { f.symbols[e.symbol_name()] = v->strides[i]; continue; }
          auto sv = eval(e, f.symbols, nullptr);
          if (sv && *sv != v->strides[i])
            bind_fail(*p, "stride " + std::to_string(i) + " is " + std::to_string(v->strides[i]) + " but the type declares " +
                              e.str() + (e.is_constant() ? "" : " = " + std::to_string(*sv)));
        }
      }
      if (const auto& off = p->type.offset()) {
        if (off->is_symbol() && !f.symbols.count(off->symbol_name())) f.symbols[off->symbol_name()] = v->offset;
        auto ov = eval(*off, f.symbols, nullptr);
        if (ov && *ov != v->offset) bind_fail(*p, "offset is " + std::to_string(v->offset) + " but the type declares " + std::to_string(*ov));
      }
      // The view must lie inside its storage.
      int64_t n = 0;
      try {
        n = checked_numel(v->shape);
      } catch (const RuntimeError& e) {
        bind_fail(*p, e.message());
      }
      if (n > 0) {
        int64_t lo = v->offset, hi = v->offset;
        for (size_t i = 0; i < v->shape.size(); ++i) {
          const int64_t span = (v->shape[i] - 1) * v->strides[i];
          (span < 0 ? lo : hi) += span;
        }
        if (lo < 0 || hi >= static_cast<int64_t>(h.storage->bits.size()))
          bind_fail(*p, "view elements [" + std::to_string(lo) + ", " + std::to_string(hi) + "] lie outside its storage of " +
                            std::to_string(h.storage->bits.size()) + " elements");
      }
      // Out is not readable on entry: every element starts undefined (L2.2).
      h.storage->mark.clear();  // write marks belong to one run
      if (v->access == Access::Out || h.absent) h.storage->defined.assign(h.storage->bits.size(), 0);
      else h.storage->defined.clear();  // In and InOut hold their input contents (L2.3)
      f.env[p] = Value(std::shared_ptr<const ViewV>(v));
      continue;
    }
    if (p->type.is(TypeKind::Enum)) {
      std::string member;
      if (it != args.end() && std::holds_alternative<EnumArg>(it->second)) member = std::get<EnumArg>(it->second).member;
      else if (it == args.end() && p->default_value) member = p->default_value->member;
      else bind_fail(*p, "needs a member of enum @" + p->type.enum_name());
      if (auto c = member.find("::"); c != std::string::npos) member = member.substr(c + 2);
      const EnumDecl* d = module.find_enum(p->type.enum_name());
      EnumV ev{p->type.enum_name(), member, 0};
      bool found = false;
      if (d)
        for (const auto& [m, val] : d->members)
          if (m == member) { ev.value = val; found = true; }
      if (!found) bind_fail(*p, "'" + member + "' is not a member of @" + p->type.enum_name());
      f.env[p] = ev;
      continue;
    }
    if (p->type.is_scalar()) {
      Scalar s{p->type.dtype(), 0};
      if (it != args.end() && std::holds_alternative<Scalar>(it->second)) s = std::get<Scalar>(it->second);
      else if (it == args.end() && p->default_value) {
        const Attribute& a = *p->default_value;
        if (a.kind == Attribute::Kind::Bool) s = num::make_bool(a.b);
        else if (a.kind == Attribute::Kind::Int) s = num::make_int(p->type.dtype(), static_cast<uint64_t>(a.i));
        else if (a.kind == Attribute::Kind::Float) s = Scalar{p->type.dtype(), num::from_double(a.f, p->type.dtype())};
      } else {
        bind_fail(*p, std::string(p->is_constexpr ? "constexpr " : "runtime ") + "scalar " + p->type.str() + " not given");
      }
      if (s.dtype != p->type.dtype()) bind_fail(*p, "scalar of dtype " + std::string(name(s.dtype)) + " for " + p->type.str());
      f.env[p] = s;
      continue;
    }
    bind_fail(*p, "unsupported kernel parameter type " + p->type.str());
  }
  Operation site;  // locates budget errors of the kernel body
  site.name = "kernel";
  site.loc = k.loc;
  CallScope call(*this, k, site);
  Flow fl = run_region(f, k.body, {});
  (void)fl;
}

Interpreter::Interpreter(const Module& m, Options opts) : engine_(std::make_unique<Engine>(m, opts)) {
  if (opts.check_laws) {
    engine_->laws = &engine_->own_laws;
    engine_->law_seed = opts.law_seed;
  }
}
Interpreter::~Interpreter() = default;

void Interpreter::run_kernel(const std::string& name, const std::map<std::string, KernelArg>& args) {
  const Function* k = engine_->module.find_function(name);
  if (!k || !k->is_kernel()) throw RuntimeError(ErrorKind::Binding, "", "", "no kernel @" + name);
  engine_->start_clock();
  engine_->run_kernel(*k, args);
}

std::vector<Value> Interpreter::call_helper(const std::string& name, const std::vector<Value>& args) {
  const Function* fn = engine_->module.find_function(name);
  if (!fn || fn->is_kernel()) throw RuntimeError(ErrorKind::Binding, "", "", "no helper @" + name);
  Operation site;
  site.name = "call";
  site.loc = fn->loc;
  engine_->start_clock();
  return engine_->call_function(*fn, args, site);
}

uint64_t Interpreter::steps() const { return engine_->steps; }

const LawReport& Interpreter::law_report() const { return engine_->own_laws; }

LawReport Interpreter::check_region_fold_laws(const std::string& name, const std::vector<Value>& args, uint64_t seed,
                                              int random_splits) {
  LawReport report;
  struct Scope {  // restores the Options::check_laws setting
    Engine& E;
    LawReport* laws;
    uint64_t seed;
    int splits;
    ~Scope() {
      E.laws = laws;
      E.law_seed = seed;
      E.law_splits = splits;
    }
  } scope{*engine_, engine_->laws, engine_->law_seed, engine_->law_splits};
  engine_->laws = &report;
  engine_->law_seed = seed;
  engine_->law_splits = random_splits < 0 ? 0 : random_splits;
  call_helper(name, args);
  return report;
}

}  // namespace kir::interp
