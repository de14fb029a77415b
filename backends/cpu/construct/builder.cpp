// The construction driver (builder.h): kernel parameters become ABI views, extent symbols and
// scalar parameters; regions are constructed op by op through the family handlers; helpers are
// inlined with their extent symbols bound from the arguments' shapes.
#include "backends/cpu/construct/builder.h"

#include <algorithm>
#include <sstream>

#include "backends/cpu/rt/kir_abi.h"
#include "numerics/scalar.h"
#include "kir/rules/rule.h"

namespace kir::cpu {

DType value_dtype(const Type& t) {
  if (t.is(TypeKind::Enum)) return DType::I64;
  return t.dtype();
}

Builder::Builder(const Module& m, Program& p) : module_(m), prog_(p) {
  register_value_ops(handlers_);
  register_domain_ops(handlers_);
  register_control_ops(handlers_);
  register_memory_ops(handlers_);
  register_structured_ops(handlers_);
  register_format_ops(handlers_);
  register_region_ops(handlers_);
  register_effect_ops(handlers_);
}

const CValue& Builder::get(const kir::Value* v) const {
  auto it = frames_.back().values.find(v);
  if (it == frames_.back().values.end())
    throw BackendError("internal: value %" + v->name + " used before construction");
  return it->second;
}

void Builder::set(const kir::Value* v, CValue c) {
  if (c.kind == CValue::Kind::Scalar && v->type.is_scalar() && v->type.dtype() == DType::Index)
    frames_.back().symbols["%" + v->name] = c.scalar;
  frames_.back().values[v] = std::move(c);
}

void Builder::emit(StmtP s) {
  if (scalar_mode()) throw BackendError("internal: statement emitted in scalar mode");
  block_->push_back(std::move(s));
}

void Builder::with_block(std::vector<StmtP>& into, const std::function<void()>& f) {
  auto* saved = block_;
  auto saved_extents = frames_.back().extents;  // values bound inside are not defined after it
  block_ = &into;
  try {
    f();
  } catch (...) {
    block_ = saved;
    throw;
  }
  block_ = saved;
  frames_.back().extents = std::move(saved_extents);
}

int32_t Builder::origin(const Operation& op) { return prog_.add_origin(op); }

void Builder::fail(const Operation& op, const std::string& message) const {
  throw BackendError(op.loc.str() + ": error[backend]: " + message + " (op `" + op.name + "`)" + rules::explain_hint("backend"));
}

void Builder::fail_kind(const Operation& op, const std::string& kind, const std::string& message) const {
  throw BackendError(op.loc.str() + ": error[" + kind + "]: " + message + " (op `" + op.name + "`)" + rules::explain_hint(kind));
}

void Builder::not_implemented(const Operation& op, const std::string& what) const {
  throw BackendError(op.loc.str() + ": error[backend]: not implemented: " + what + " on the CPU backend" + rules::explain_hint("backend"));
}

ExprP Builder::extent_expr(const Operation& op, const Extent& e) {
  ExprP total = make_index(0);
  for (const auto& [coef, atoms] : e.monomials()) {
    ExprP term = make_index(coef);
    for (const auto& a : atoms) {
      ExprP f;
      if (a->kind == ExtentAtom::Kind::Symbol) {
        auto& syms = frames_.back().symbols;
        auto it = syms.find(a->name);
        if (it == syms.end()) fail(op, "extent `" + a->name + "` is not bound here");
        f = it->second;
      } else if (auto it = frames_.back().extents.find(a->name); it != frames_.back().extents.end()) {
        f = it->second;
      } else {
        // floordiv of an index: the language's floor division of non-negative extents.
        ExprP n = extent_expr(op, a->num), d = extent_expr(op, a->den);
        f = make_binary("floordiv", n, d);
      }
      term = index_mul(term, f);
    }
    total = index_add(total, term);
  }
  return total;
}

std::vector<ExprP> Builder::shape_of(const Operation& op, const Type& t) {
  std::vector<ExprP> s;
  for (const auto& e : t.shape()) s.push_back(extent_expr(op, e));
  return s;
}

// Whether index expression `e` is never negative: a non-negative constant, an extent of a view
// (a symbol of the call or a view's dim), a variable bound to such a value (a point count, a
// let), a max with one of them, and sums, products and floor quotients (by a positive constant)
// of those — the extents of views' shapes.
bool Builder::nonnegative(const Expr& e) const {
  auto arg = [&](size_t i) { return nonnegative(*e.args[i]); };
  switch (e.kind) {
    case ExprKind::Const: return static_cast<int64_t>(e.bits) >= 0;
    case ExprKind::ViewDim: return true;
    case ExprKind::Var:
      return prog_.var(e.var).role == VarRole::Symbol || nonnegative_.count(e.var) > 0;
    case ExprKind::Binary:
      if (e.op == "max") return arg(0) || arg(1);
      if (e.op == "add" || e.op == "add_nw" || e.op == "mul" || e.op == "min") return arg(0) && arg(1);
      if (e.op == "floordiv") return arg(0) && const_index(e.args[1]).value_or(0) > 0;
      return false;
    default: return false;
  }
}

std::vector<ExprP> Builder::runtime_shape(const Operation& op, const Type& t) {
  std::vector<ExprP> s = shape_of(op, t);
  if (scalar_mode()) return s;
  for (size_t a = 0; a < s.size(); ++a) {
    if (nonnegative(*s[a])) continue;
    auto chk = make_stmt(StmtKind::Check, origin(op));
    chk->value = make_compare("ge", s[a], make_index(0));
    chk->fault = KIR_FAULT_SHAPE_MISMATCH;  // a negative extent
    chk->detail = {s[a], make_index(static_cast<int64_t>(a))};
    emit(std::move(chk));
  }
  return s;
}

bool Builder::floordiv_atom(const Extent& e) {
  auto terms = e.monomials();
  return terms.size() == 1 && terms[0].first == 1 && terms[0].second.size() == 1 &&
         terms[0].second[0]->kind == ExtentAtom::Kind::FloorDiv;
}

void Builder::bind_extent(const Extent& e, ExprP value) {
  if (floordiv_atom(e)) frames_.back().extents[e.monomials()[0].second[0]->name] = std::move(value);
}

void Builder::note_nonnegative(const ExprP& e) {
  if (e->kind == ExprKind::Var) nonnegative_.insert(e->var);
}

BufId Builder::new_local(const std::string& name, DType d, std::vector<ExprP> shape) {
  Buffer b;
  b.name = name;
  b.kind = BufKind::Local;
  b.dtype = d;
  b.shape = std::move(shape);
  return prog_.add_buffer(std::move(b));
}

ExprP Builder::element(const CValue& v, const std::vector<ExprP>& coords) const {
  if (v.kind == CValue::Kind::Scalar || v.kind == CValue::Kind::Enum) return v.scalar;
  if (v.kind != CValue::Kind::Tensor) throw BackendError("internal: element of a non-tensor value");
  const Buffer& b = prog_.buf(v.buf);
  if (b.shape.size() > coords.size()) throw BackendError("internal: element needs " + std::to_string(b.shape.size()) + " coordinates");
  std::vector<ExprP> idx(coords.end() - static_cast<std::ptrdiff_t>(b.shape.size()), coords.end());
  return make_load(v.buf, b.dtype, std::move(idx));
}

CValue Builder::compute(const Operation& op, const std::string& name, DType d, std::vector<ExprP> shape,
                        const std::function<ExprP(const std::vector<ExprP>&)>& value) {
  BufId b = new_local(name, d, shape);
  auto s = make_stmt(StmtKind::Compute, origin(op));
  s->buf = b;
  std::vector<ExprP> coords;
  for (size_t k = 0; k < shape.size(); ++k) {
    VarId c = prog_.add_var("c" + std::to_string(k), DType::Index, VarRole::Loop);
    s->coords.push_back(c);
    coords.push_back(make_var(c, DType::Index));
  }
  s->extents = std::move(shape);
  s->value = value(coords);
  if (s->value->dtype != d) fail(op, "internal: computed dtype mismatch");
  emit(std::move(s));
  return CValue::of_tensor(b);
}

CValue Builder::let(const std::string& name, ExprP e) {
  if (scalar_mode() || e->kind == ExprKind::Const || e->kind == ExprKind::Var) return CValue::of_scalar(e);
  VarId v = prog_.add_var(name, e->dtype, VarRole::Let);
  if (e->dtype == DType::Index && nonnegative(*e)) nonnegative_.insert(v);
  auto s = make_stmt(StmtKind::Let, e->op_id);
  s->var = v;
  s->value = e;
  emit(std::move(s));
  return CValue::of_scalar(make_var(v, e->dtype));
}

const Function& Builder::helper(const Operation& op, const std::string& attr) const {
  const Attribute* a = op.attr(attr);
  if (!a) fail(op, "missing attribute `" + attr + "`");
  const Function* f = module_.find_function(a->s);
  if (!f) fail(op, "unknown helper @" + a->s);
  return *f;
}

void Builder::leaves(const CValue& v, std::vector<const CValue*>& out) {
  if (v.kind == CValue::Kind::Tuple || v.kind == CValue::Kind::Record) {
    for (const auto& e : v.elems) leaves(e, out);
  } else {
    out.push_back(&v);
  }
}

std::vector<CValue> Builder::leaf_values(const CValue& v) {
  std::vector<const CValue*> ls;
  leaves(v, ls);
  std::vector<CValue> out;
  for (const auto* l : ls) out.push_back(*l);
  return out;
}

void Builder::type_leaves(const Type& t, std::vector<Type>& out) {
  if (t.is(TypeKind::Tuple)) {
    for (const auto& e : t.elements()) type_leaves(e, out);
  } else if (t.is(TypeKind::Record)) {
    for (const auto& [n, e] : t.fields()) type_leaves(e, out);
  } else {
    out.push_back(t);
  }
}

CValue Builder::from_leaves(const Type& t, std::vector<CValue>::const_iterator& it) {
  if (t.is(TypeKind::Tuple)) {
    CValue v;
    v.kind = CValue::Kind::Tuple;
    for (const auto& e : t.elements()) v.elems.push_back(from_leaves(e, it));
    return v;
  }
  if (t.is(TypeKind::Record)) {
    CValue v;
    v.kind = CValue::Kind::Record;
    for (const auto& [n, e] : t.fields()) {
      v.names.push_back(n);
      v.elems.push_back(from_leaves(e, it));
    }
    return v;
  }
  return *it++;
}

void Builder::bind_symbols(const Type& param, const CValue& arg) {
  auto& syms = frames_.back().symbols;
  auto bind_shape = [&](const Type& t, const std::vector<ExprP>& shape) {
    const auto& ext = t.shape();
    for (size_t k = 0; k < ext.size() && k < shape.size(); ++k)
      if (ext[k].is_symbol() && !syms.count(ext[k].symbol_name())) syms[ext[k].symbol_name()] = shape[k];
  };
  switch (arg.kind) {
    case CValue::Kind::Tensor:
    case CValue::Kind::View:
    case CValue::Kind::LogicalBuffer:
      if (param.is_tensor() || param.is(TypeKind::View) || param.is(TypeKind::Buffer))
        bind_shape(param, prog_.buf(arg.buf).shape);
      break;
    case CValue::Kind::Tuple:
      if (param.is(TypeKind::Tuple))
        for (size_t i = 0; i < arg.elems.size() && i < param.elements().size(); ++i)
          bind_symbols(param.elements()[i], arg.elems[i]);
      break;
    case CValue::Kind::Record:
      if (param.is(TypeKind::Record))
        for (size_t i = 0; i < arg.elems.size() && i < param.fields().size(); ++i)
          bind_symbols(param.fields()[i].second, arg.elems[i]);
      break;
    case CValue::Kind::Domain:
      if ((param.is(TypeKind::Domain) || param.is(TypeKind::Subregion)) && param.extent().is_symbol() &&
          !syms.count(param.extent().symbol_name()))
        syms[param.extent().symbol_name()] = arg.count;
      break;
    case CValue::Kind::Relation:
      if (param.is(TypeKind::Relation)) {
        const auto& ext = param.shape();
        for (size_t k = 0; k < ext.size() && k < arg.rel_shape.size(); ++k)
          if (ext[k].is_symbol() && !syms.count(ext[k].symbol_name())) syms[ext[k].symbol_name()] = arg.rel_shape[k];
      }
      break;
    default:
      break;
  }
}

void Builder::build_kernel(const Function& kernel, const Specialization& spec) {
  prog_.kernel = kernel.name;
  prog_.body.kind = StmtKind::Block;
  block_ = &prog_.body.body;
  frames_.push_back({});
  frames_.back().fn = &kernel;
  auto& syms = frames_.back().symbols;
  struct CompoundCheck {
    const kir::Value* param;
    BufId buf;
    size_t axis;
    size_t at;  // its place in the kernel body
  };
  std::vector<CompoundCheck> compound_checks;
  // Extent symbols of the view parameters, in order of first appearance.
  for (const kir::Value* p : kernel.params()) {
    if (!p->type.is(TypeKind::View)) continue;
    for (const auto& e : p->type.shape())
      for (const auto& s : e.symbols())
        if (s[0] != '%' && !syms.count(s)) {
          VarId v = prog_.add_var(s, DType::Index, VarRole::Symbol);
          prog_.var(v).param = static_cast<int>(prog_.symbols.size());
          prog_.symbols.push_back(s);
          prog_.symbol_vars.push_back(v);
          syms[s] = make_var(v, DType::Index);
        }
  }
  for (const kir::Value* p : kernel.params()) {
    const Type& t = p->type;
    if (t.is(TypeKind::View)) {
      if (t.rank() > KIR_MAX_RANK)
        throw BackendError(p->loc.str() + ": error[backend]: view parameter %" + p->name + " has rank " +
                           std::to_string(t.rank()) + "; the native call passes views of rank at most " +
                           std::to_string(KIR_MAX_RANK) + " (KIR_MAX_RANK, backends/cpu/rt/kir_abi.h)" +
                           rules::explain_hint("backend"));
      Buffer b;
      b.name = p->name;
      b.kind = BufKind::View;
      b.dtype = t.dtype();
      b.access = t.access();
      b.param = static_cast<int>(prog_.view_params.size());
      for (const auto& e : t.shape()) b.extent_names.push_back(e.str());
      if (t.strides()) {
        std::vector<int64_t> st;
        bool any = false;
        for (const auto& e : *t.strides()) {
          auto c = e.constant_value();
          st.push_back(c ? *c : kDynamicStride);
          any = any || c.has_value();
        }
        if (any) b.static_strides = st;
      }
      if (t.offset() && t.offset()->constant_value()) b.static_offset = *t.offset()->constant_value();
      if (auto u = spec.unit_inner_stride.find(p->name); u != spec.unit_inner_stride.end() && u->second && t.rank() > 0) {
        if (!b.static_strides) b.static_strides = std::vector<int64_t>(t.rank(), kDynamicStride);
        if (b.static_strides->back() == kDynamicStride) b.static_strides->back() = 1;
      }
      // The ABI does not promise that views of distinct parameters are disjoint: the generated
      // code never assumes noalias (no restrict), so aliased views behave as in the interpreter.
      b.may_alias_outputs = true;
      Operation dummy;
      dummy.loc = p->loc;
      b.shape = shape_of(dummy, t);
      BufId id = prog_.add_buffer(std::move(b));
      prog_.view_params.push_back(id);
      // Entry checks: every axis must have exactly its declared extent at the call (two views
      // disagreeing on a symbol, a wrong constant or an `N + 1` axis one short is a located
      // `binding` fault before anything runs, as in the interpreter); loads proven inside the
      // declared extents then need no check.
      Buffer& vb = prog_.buf(id);
      vb.extent_checked.assign(vb.shape.size(), false);
      for (size_t a = 0; a < vb.shape.size(); ++a) {
        const ExprP& e = vb.shape[a];
        if (e->kind != ExprKind::Const && e->kind != ExprKind::Var) {
          compound_checks.push_back({p, id, a, block_->size()});
          continue;
        }
        Operation param_op;
        param_op.name = "parameter %" + p->name;
        param_op.loc = p->loc;
        auto chk = make_stmt(StmtKind::Check, prog_.add_origin(param_op));
        chk->value = make_compare("eq", make_view_dim(id, static_cast<int>(a)), e);
        chk->fault = KIR_FAULT_BINDING;  // a view whose extent is not the declared one
        chk->stops = true;
        chk->detail = {make_view_dim(id, static_cast<int>(a)), e};
        emit(std::move(chk));
        vb.extent_checked[a] = true;
      }
      CValue v;
      v.kind = CValue::Kind::View;
      v.buf = id;
      set(p, v);
    } else if (p->is_constexpr || t.is(TypeKind::Enum)) {
      auto it = spec.constexprs.find(p->name);
      uint64_t bits = 0;
      if (it != spec.constexprs.end()) {
        bits = it->second;
      } else if (p->default_value) {
        const Attribute& a = *p->default_value;
        if (a.kind == Attribute::Kind::Bool) bits = a.b ? 1 : 0;
        else if (a.kind == Attribute::Kind::Int) bits = static_cast<uint64_t>(static_cast<int64_t>(a.i));
        else if (a.kind == Attribute::Kind::EnumMember) {
          const EnumDecl* ed = module_.find_enum(a.s);
          for (const auto& [n, val] : ed ? ed->members : std::vector<std::pair<std::string, int64_t>>{})
            if (n == a.member) bits = static_cast<uint64_t>(val);
        } else {
          throw BackendError(p->loc.str() + ": error[backend]: constexpr parameter %" + p->name + " has an unsupported default" + rules::explain_hint("backend"));
        }
      } else {
        throw BackendError(p->loc.str() + ": error[backend]: constexpr parameter %" + p->name + " has no value" + rules::explain_hint("backend"));
      }
      CValue v = CValue::of_scalar(make_const(value_dtype(t), bits));
      if (t.is(TypeKind::Enum)) v.kind = CValue::Kind::Enum;
      set(p, v);
    } else if (t.is_scalar()) {
      VarId v = prog_.add_var(p->name, t.dtype(), VarRole::Scalar);
      prog_.var(v).param = static_cast<int>(prog_.scalar_params.size());
      prog_.scalar_params.push_back(v);
      set(p, CValue::of_scalar(make_var(v, t.dtype())));
    } else {
      throw BackendError(p->loc.str() + ": error[backend]: not implemented: kernel parameter of type " + t.str() +
                         " on the CPU backend" + rules::explain_hint("backend"));
    }
  }
  build_region(kernel.body);
  // The entry checks of compound axes (`N + 1`) go where their parameter's other checks are;
  // their op ids are numbered after the kernel's ops, which keeps those the same whether a view
  // has such an axis or not.
  std::vector<StmtP> checks;
  for (const auto& c : compound_checks) {
    Operation param_op;
    param_op.name = "parameter %" + c.param->name;
    param_op.loc = c.param->loc;
    auto chk = make_stmt(StmtKind::Check, prog_.add_origin(param_op));
    const ExprP dim = make_view_dim(c.buf, static_cast<int>(c.axis)), declared = prog_.buf(c.buf).shape[c.axis];
    chk->value = make_compare("eq", dim, declared);
    chk->fault = KIR_FAULT_BINDING;
    chk->stops = true;
    chk->detail = {dim, declared};
    checks.push_back(std::move(chk));
  }
  auto& body = prog_.body.body;
  for (size_t i = compound_checks.size(); i-- > 0;)
    body.insert(body.begin() + static_cast<std::ptrdiff_t>(compound_checks[i].at), std::move(checks[i]));
  frames_.pop_back();
}

const Operation* Builder::build_region(const Region& r) {
  struct DepthScope {
    int& d;
    ~DepthScope() { --d; }
  } depth_scope{++depth_};
  if (depth_ > kMaxRegionDepth) depth_exceeded(r.parent ? *r.parent : *frames_.back().site);
  for (const auto& op : r.ops) {
    const std::string& n = op->name;
    if (n == "yield" || n == "return" || n == "condition" || n == "break" || n == "continue") return op.get();
    build_op(*op);
  }
  return nullptr;
}

// The interpreter's message (interp/engine.cpp), naming the helpers being inlined.
void Builder::depth_exceeded(const Operation& site) const {
  std::vector<const Function*> fns;
  for (const auto& f : frames_) fns.push_back(f.fn);
  const std::string chain = call_chain_text(fns);
  fail_kind(site, "limit",
            "nesting depth limit of " + std::to_string(kMaxRegionDepth) +
                " exceeded (helper calls and nested regions executing at once; the CPU backend inlines every "
                "helper, so the deepest nesting in the program counts); calls: " + chain);
}

void Builder::build_op(const Operation& op) {
  auto it = handlers_.find(op.name);
  if (it == handlers_.end()) not_implemented(op, "`" + op.name + "`");
  try {
    it->second(*this, op);
  } catch (const BackendError& e) {
    // Located already (by this op or an op of an inlined helper)? Otherwise locate it here.
    std::string w = e.what();
    if (w.find(": error[") != std::string::npos) throw;
    fail(op, w);
  }
}

std::vector<CValue> Builder::inline_call(const Operation& site, const Function& fn, const std::vector<CValue>& args) {
  frames_.push_back({});
  frames_.back().fn = &fn;
  frames_.back().site = &site;
  const auto& params = fn.body.args;
  if (params.size() != args.size()) fail(site, "helper @" + fn.name + " called with the wrong number of arguments");
  for (size_t i = 0; i < params.size(); ++i) {
    bind_symbols(params[i]->type, args[i]);
    set(params[i].get(), args[i]);
  }
  std::vector<CValue> results;
  try {
    const Operation* term = build_region(fn.body);
    if (!term || term->name != "return") fail(site, "helper @" + fn.name + " does not end in return");
    for (const auto* v : term->operands) results.push_back(get(v));
  } catch (...) {
    frames_.pop_back();
    throw;
  }
  frames_.pop_back();
  return results;
}

std::vector<ExprP> Builder::inline_scalar(const Operation& site, const Function& fn, const std::vector<CValue>& args) {
  ++scalar_mode_;
  std::vector<CValue> res;
  try {
    res = inline_call(site, fn, args);
  } catch (...) {
    --scalar_mode_;
    throw;
  }
  --scalar_mode_;
  std::vector<ExprP> out;
  for (const auto& r : res) {
    std::vector<const CValue*> ls;
    leaves(r, ls);
    for (const auto* l : ls) {
      if (!l->is_scalar() && l->kind != CValue::Kind::Enum)
        not_implemented(site, "combine @" + fn.name + " whose result is not element-wise");
      out.push_back(l->scalar);
    }
  }
  return out;
}

}  // namespace kir::cpu
