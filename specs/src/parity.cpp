// Parity checks of an op spec against its paired Intent kernel (see parity.h). IDs:
// P1 pairing (the kernel file parses, verifies and holds a kernel of the op; name suffixes),
// P2 parameters (every manifest entry has one, no extra ones, in the manifest's order),
// P3 access (In / Out / InOut per role and effects), P4 dtypes (allowed sets, one dtype per
// DType index, dtype_combos rows), P5 ranks and extents (constants; computed axes such as
// `B + 1` or `N // 2` as canonical polynomials of the kernel symbols bound to their indices;
// type-family shapes: some discriminant point whose cases fit every family-shaped parameter at
// once), P6 extent symbols (one kernel symbol per manifest dimension and back, one extent list
// per Shape index), P7 scalar params, P8 fixed params (`fixes {...}`: each a param of the op, or a
// field of an ADT param, with a value of its kind).
#include "specs/src/parity.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "kir/extent.h"
#include "kir/ir.h"
#include "kir/normalize/normalize.h"
#include "kir/text/parser.h"
#include "kir/verify/verifier.h"
#include "specs/src/analysis.h"
#include "specs/src/dtypes.h"
#include "specs/src/kind_check.h"

namespace kir::specs {
namespace {

using KValue = kir::Value;  // a kernel parameter (not a manifest specs::Value)

std::string manifest_dtype(const std::string& kir_name) { return manifest_dtype_name(kir_name); }

std::string set_str(const std::set<std::string>& s) {
  std::string out = "{";
  for (const auto& x : s) out += (out.size() > 1 ? ", " : "") + x;
  return out + "}";
}

bool starts_with(const std::string& s, const std::string& p) { return s.size() >= p.size() && s.compare(0, p.size(), p) == 0; }

// How a manifest param appears in the kernel.
enum class ParamForm { None, Int, Bool, Float, Number, Enum };

ParamForm param_form(const ParamDecl& p) {
  if (!p.kind) return ParamForm::None;
  std::string t = p.type_text;
  t.erase(std::remove(t.begin(), t.end(), ' '), t.end());
  if (t == "float") return ParamForm::Float;
  if (t == "int|float" || t == "float|int") return ParamForm::Number;
  switch (p.kind->t) {
    case Kind::T::Int: return ParamForm::Int;
    case Kind::T::Bool: return ParamForm::Bool;
    case Kind::T::Enum: return ParamForm::Enum;
    default: return ParamForm::None;
  }
}

const char* form_name(ParamForm f) {
  switch (f) {
    case ParamForm::Int: return "an integer runtime scalar or constexpr integer";
    case ParamForm::Bool: return "a bool runtime scalar or constexpr bool";
    case ParamForm::Float: return "a float runtime scalar";
    case ParamForm::Number: return "an integer or float runtime scalar, or a constexpr integer";
    case ParamForm::Enum: return "a constexpr enum with the same members, or a constexpr integer";
    case ParamForm::None: break;
  }
  return "?";
}

struct Entry {
  std::string name;
  std::string role;  // "input", "output", "construction-time tensor", "param"
  Loc loc;
  const TensorDecl* t = nullptr;
  const ParamDecl* p = nullptr;
  ParamForm form = ParamForm::None;
};

class ParityChecker {
 public:
  ParityChecker(const OpSpec& op, const Manifest& m, SpecDiags& d, const Module& mod, const std::string& file)
      : op_(op), m_(m), d_(d), mod_(mod), file_(file) {}

  void run() {
    build_entries();
    std::vector<const Function*> kernels;
    for (const auto& f : mod_.functions)
      if (f->is_kernel() && (f->name == op_.name || starts_with(f->name, op_.name + "__"))) kernels.push_back(f.get());
    if (kernels.empty()) {
      err(op_.loc, "paired kernel file " + file_ + " holds no kernel @" + op_.name + " or @" + op_.name + "__<dtype>", "P1");
      return;
    }
    for (const Function* f : kernels) check_kernel(*f);
  }

 private:
  const OpSpec& op_;
  const Manifest& m_;
  SpecDiags& d_;
  const Module& mod_;
  std::string file_;
  std::vector<Entry> entries_;
  // per kernel
  const Function* fn_ = nullptr;
  std::map<std::string, std::string> dtype_bind_;       // DType index → manifest dtype
  std::map<std::string, std::string> dtype_bind_from_;  // DType index → where it was bound
  using Bindings = std::map<std::string, std::pair<std::string, std::string>>;
  Bindings dim_sym_;  // dim → (symbol, where)
  Bindings sym_dim_;  // symbol → (dim, where)
  // Checked once every plain axis has bound its dimension:
  struct Computed { const Entry* e; const KValue* v; const Expr* item; size_t axis; };
  std::vector<Computed> computed_;                             // axes like `B + 1`
  std::vector<std::pair<const Entry*, const KValue*>> families_;  // family-shaped parameters
  std::map<std::string, std::pair<std::string, std::string>> shape_seq_;  // Shape index → (extents, where)

  void err(const Loc& l, const std::string& text, const char* id) { d_.add(l, Level::Signature, op_.name, text + " [" + id + "]"); }

  std::string kname() const { return "kernel @" + fn_->name; }
  static std::string where(const KValue& v) { return "'%" + v.name + "' (" + v.loc.str() + ")"; }

  void build_entries() {
    for (const auto& t : op_.inputs) entries_.push_back({t.name, "input", t.loc, &t, nullptr, ParamForm::None});
    for (const auto& t : op_.outputs) entries_.push_back({t.name, "output", t.loc, &t, nullptr, ParamForm::None});
    // the params section in declaration order: construction-time tensors and expressible scalars
    std::vector<Entry> ps;
    for (const auto& t : op_.ctor_tensors) ps.push_back({t.name, "construction-time tensor", t.loc, &t, nullptr, ParamForm::None});
    for (const auto& p : op_.params) {
      ParamForm f = param_form(p);
      if (f != ParamForm::None) ps.push_back({p.name, "param", p.loc, nullptr, &p, f});
    }
    std::stable_sort(ps.begin(), ps.end(), [](const Entry& a, const Entry& b) {
      return std::tie(a.loc.line, a.loc.col) < std::tie(b.loc.line, b.loc.col);
    });
    entries_.insert(entries_.end(), ps.begin(), ps.end());
  }

  std::string manifest_order() const {
    std::string s;
    for (const auto& e : entries_) s += (s.empty() ? "" : ", ") + e.name;
    return s;
  }

  std::vector<std::string> dtype_indices() const {
    std::vector<std::string> out;
    for (const auto& i : op_.forall)
      if (i.kind && i.kind->t == Kind::T::DType) out.push_back(i.name);
    return out;
  }

  const IndexDecl* dtype_index(const std::string& n) const {
    const IndexDecl* i = op_.index(n);
    return i && i->kind && i->kind->t == Kind::T::DType ? i : nullptr;
  }

  static std::set<std::string> allowed_of(const Kind& k) {
    std::set<std::string> s;
    if (k.t == Kind::T::DType) {
      if (k.members.empty())
        for (const auto& d : all_dtypes()) s.insert(std::string(d.name));
      else
        s = k.members;
    } else if (k.t == Kind::T::Maybe && k.elem) {
      return allowed_of(*k.elem);
    } else if (k.t == Kind::T::Union) {
      for (const auto& a : k.alts) {
        auto x = allowed_of(a);
        s.insert(x.begin(), x.end());
      }
    }
    return s;
  }

  bool bind_suffix() {
    std::string suffix = fn_->name.substr(op_.name.size());
    if (suffix.empty()) return true;
    std::vector<std::string> parts;
    for (size_t p = 0; p < suffix.size();) {
      if (suffix.compare(p, 2, "__") != 0) break;
      size_t q = suffix.find("__", p + 2);
      parts.push_back(suffix.substr(p + 2, q == std::string::npos ? std::string::npos : q - p - 2));
      p = q == std::string::npos ? suffix.size() : q;
    }
    auto idx = dtype_indices();
    if (parts.size() < idx.size()) {
      err(op_.loc, kname() + " (" + fn_->loc.str() + "): a dtype-case suffix names one KIR dtype per DType index of the forall (" +
                       std::to_string(idx.size()) + "), in order, then optional variant tags; it names " + std::to_string(parts.size()), "P1");
      return false;
    }
    bool ok = true;
    // Parts past the dtypes are variant tags (kernels of one dtype case for different ranks or
    // layouts, e.g. @AddFwdOp__f32__bcast): free names, not compared with the manifest.
    for (size_t i = idx.size(); i < parts.size(); ++i) {
      const std::string& t = parts[i];
      const bool good = !t.empty() && std::all_of(t.begin(), t.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
      });
      if (!good) {
        err(op_.loc, kname() + " (" + fn_->loc.str() + "): variant tag '" + t + "' must be lowercase letters, digits and '_'", "P1");
        ok = false;
      }
    }
    for (size_t i = 0; i < idx.size(); ++i) {
      std::string md = manifest_dtype(parts[i]);
      const IndexDecl* ix = op_.index(idx[i]);
      if (md.empty()) {
        err(op_.loc, kname() + " (" + fn_->loc.str() + "): suffix '" + parts[i] + "' is not a KIR dtype with a manifest spelling", "P1");
        ok = false;
        continue;
      }
      auto allowed = allowed_of(*ix->kind);
      if (!allowed.count(md)) {
        err(ix->loc, kname() + " (" + fn_->loc.str() + "): dtype case " + parts[i] + " (" + md + ") of '" + idx[i] +
                         "' is not among its allowed dtypes " + set_str(allowed), "P4");
        ok = false;
      }
      dtype_bind_[idx[i]] = md;
      dtype_bind_from_[idx[i]] = "the kernel name";
    }
    return ok;
  }

  void check_kernel(const Function& f) {
    fn_ = &f;
    dtype_bind_.clear();
    dtype_bind_from_.clear();
    dim_sym_.clear();
    sym_dim_.clear();
    shape_seq_.clear();
    computed_.clear();
    families_.clear();
    if (!bind_suffix()) return;
    auto params = f.params();
    std::map<std::string, size_t> pos;
    for (size_t i = 0; i < entries_.size(); ++i) pos[entries_[i].name] = i;
    std::set<std::string> seen;
    long last = -1;
    const KValue* last_v = nullptr;
    bool order_reported = false;
    for (size_t i = 0; i < params.size(); ++i) {
      const KValue& v = *params[i];
      auto it = pos.find(v.name);
      if (std::string of = presence_flag_target(v.name); it == pos.end() && !of.empty()) {
        // A presence flag: `constexpr %present_<t>: bool` for an optional input or nullable output t.
        const TensorDecl* t = op_.tensor(of);
        const bool optional = t && (t->optional != TensorDecl::Opt::No || t->nullable);
        if (!optional)
          err(op_.loc, kname() + " parameter " + where(v) + " is a presence flag of no optional input or nullable output", "P2");
        else if (!v.is_constexpr || !v.type.is_scalar() || v.type.dtype() != kir::DType::Bool)
          err(t->loc, kname() + " parameter " + where(v) + ": a presence flag is a constexpr bool", "P2");
        continue;
      }
      if (it == pos.end()) {
        if (const ParamDecl* p = op_.param(v.name)) {
          err(p->loc, "param '" + p->name + "' (" + p->type_text + ") is no kernel parameter (a kernel fixes dtype, sequence, optional, ADT and opaque params), but " +
                          kname() + " has parameter " + where(v), "P7");
          continue;
        }
        err(op_.loc, kname() + " parameter " + std::to_string(i + 1) + " " + where(v) +
                         " is no input, output or kernel parameter of the manifest (expected, in order: " + manifest_order() + ")", "P2");
        continue;
      }
      seen.insert(v.name);
      const Entry& e = entries_[it->second];
      if (static_cast<long>(it->second) < last && !order_reported) {
        err(e.loc, e.role + " '" + e.name + "': " + kname() + " parameter " + where(v) + " comes after " + where(*last_v) +
                       "; the manifest order is " + manifest_order(), "P2");
        order_reported = true;
      }
      if (static_cast<long>(it->second) > last) { last = static_cast<long>(it->second); last_v = &v; }
      if (e.t) check_tensor(e, v);
      else check_param(e, v);
    }
    check_fixes();
    check_families();
    check_computed();
    for (const auto& e : entries_) {
      if (seen.count(e.name)) continue;
      std::string what = e.role;
      if (e.t && e.t->optional != TensorDecl::Opt::No) what = "optional " + e.role;
      err(e.loc, what + " '" + e.name + "' has no parameter in " + kname() + " (" + f.loc.str() + ")" +
                     (what.rfind("optional", 0) == 0 ? "; optional inputs are kernel parameters too" : ""), "P2");
    }
    check_combos();
  }

  void check_tensor(const Entry& e, const KValue& v) {
    const TensorDecl& t = *e.t;
    if (!v.type.is(TypeKind::View)) {
      err(t.loc, e.role + " '" + t.name + "': " + kname() + " parameter " + where(v) + " is " + v.type.str() +
                     ", expected an external view (In/Out/InOut)", "P3");
      return;
    }
    Access a = v.type.access();
    std::vector<Access> ok;
    std::string why;
    if (t.role == Role::Output) { ok = {Access::Out}; why = "an output"; }
    else if (t.role == Role::CtorTensor) { ok = {Access::In}; why = "a construction-time tensor"; }
    else if (t.mutated == TensorDecl::Mut::Yes) {
      ok = t.write_only ? std::vector<Access>{Access::Out, Access::InOut} : std::vector<Access>{Access::InOut};
      why = t.write_only ? "a write-only mutated input" : "a mutated input";
    } else if (t.mutated == TensorDecl::Mut::When) { ok = {Access::In, Access::InOut}; why = "an input mutated on a condition"; }
    else { ok = {Access::In}; why = "an input that is not mutated"; }
    if (std::find(ok.begin(), ok.end(), a) == ok.end()) {
      std::string exp;
      for (Access x : ok) exp += (exp.empty() ? "" : " or ") + std::string(access_name(x));
      err(t.loc, e.role + " '" + t.name + "': " + kname() + " parameter " + where(v) + " is " + std::string(access_name(a)) +
                     ", expected " + exp + " (" + why + ")", "P3");
    }
    check_dtype(e, v);
    check_shape(e, v);
  }

  void check_dtype(const Entry& e, const KValue& v) {
    const TensorDecl& t = *e.t;
    if (!t.dtype.ok()) return;
    std::string kd(name(v.type.dtype()));
    std::string md = manifest_dtype(kd);
    const Loc& l = t.dtype.loc;
    std::string head = e.role + " '" + t.name + "': " + kname() + " parameter " + where(v) + " has dtype " + kd;
    if (md.empty()) {
      err(l, head + ", which has no manifest spelling", "P4");
      return;
    }
    const Expr& x = *t.dtype.expr;
    if (x.k == Expr::K::Name) {
      if (const IndexDecl* ix = dtype_index(x.s)) {
        auto allowed = allowed_of(*ix->kind);
        if (!allowed.count(md)) {
          err(l, head + " (" + md + "), not among the allowed dtypes " + set_str(allowed) + " of '" + x.s + "'", "P4");
          return;
        }
        auto b = dtype_bind_.find(x.s);
        if (b == dtype_bind_.end()) {
          dtype_bind_[x.s] = md;
          dtype_bind_from_[x.s] = where(v);
        } else if (b->second != md) {
          err(l, head + " (" + md + "), but dtype index '" + x.s + "' is " + b->second + " at " + dtype_bind_from_[x.s], "P4");
        }
        return;
      }
      if (!op_.param(x.s) && !op_.let(x.s) && !op_.tensor(x.s) && find_dtype(x.s)) {
        if (md != x.s) err(l, head + " (" + md + "), expected " + x.s, "P4");
        return;
      }
    }
    // any other dtype expression: the kernel's dtype must be one it can take
    std::set<std::string> names, allowed;
    free_names(x, names);
    for (const auto& n : names) {
      if (const IndexDecl* ix = dtype_index(n)) {
        auto b = dtype_bind_.find(n);
        if (b != dtype_bind_.end()) allowed.insert(b->second);
        else {
          auto s = allowed_of(*ix->kind);
          allowed.insert(s.begin(), s.end());
        }
      } else if (const ParamDecl* p = op_.param(n); p && p->kind) {
        auto s = allowed_of(*p->kind);
        allowed.insert(s.begin(), s.end());
      } else if (find_dtype(n)) {
        allowed.insert(n);
      }
    }
    if (!allowed.empty() && !allowed.count(md))
      err(l, head + " (" + md + "), which '" + t.dtype.text + "' cannot give: it gives one of " + set_str(allowed), "P4");
  }

  void check_combos() {
    if (op_.combos.empty()) return;
    std::set<std::string> keys;
    for (const auto& r : op_.combos)
      for (const auto& [k, val] : r.entries) keys.insert(k);
    std::map<std::string, std::string> bound;
    for (const auto& k : keys)
      if (dtype_bind_.count(k)) bound[k] = dtype_bind_[k];
    if (bound.empty()) return;
    for (const auto& r : op_.combos) {
      bool match = true;
      for (const auto& [k, val] : r.entries)
        if (bound.count(k) && bound[k] != val) match = false;
      if (match) return;
    }
    std::string s;
    for (const auto& [k, val] : bound) s += (s.empty() ? "" : ", ") + k + ": " + val;
    err(op_.combos_loc.line ? op_.combos_loc : op_.loc,
        kname() + " (" + fn_->loc.str() + ") instantiates {" + s + "}, which is no row of dtype_combos", "P4");
  }

  // Dimension name → kernel extent symbol, and back, in `ds`/`sd`; "" or what conflicts.
  static std::string bind_in(Bindings& ds, Bindings& sd, const std::string& dim, const Extent& x, const std::string& at) {
    if (!x.is_symbol()) return "is extent " + x.str() + ", expected an extent symbol for manifest dimension '" + dim + "'";
    std::string sym = x.symbol_name();
    auto a = ds.find(dim);
    if (a == ds.end()) ds[dim] = {sym, at};
    else if (a->second.first != sym)
      return "binds manifest dimension '" + dim + "' to kernel extent " + sym + " but it is " + a->second.first + " at " + a->second.second;
    auto b = sd.find(sym);
    if (b == sd.end()) sd[sym] = {dim, at};
    else if (b->second.first != dim)
      return "binds kernel extent symbol " + sym + " to manifest dimension '" + dim + "', but it stands for '" + b->second.first +
             "' at " + b->second.second;
    return "";
  }

  void bind_dim(const Entry& e, const KValue& v, const std::string& dim, const Extent& x, size_t axis) {
    const Loc& l = e.t->shape.loc;
    std::string at = where(v) + " axis " + std::to_string(axis);
    if (!x.is_symbol()) {
      err(l, e.role + " '" + e.name + "': " + kname() + " parameter " + at + " is extent " + x.str() +
                 ", expected an extent symbol for manifest dimension '" + dim + "'", "P6");
      return;
    }
    std::string sym = x.symbol_name();
    auto a = dim_sym_.find(dim);
    if (a != dim_sym_.end() && a->second.first != sym) {
      err(l, e.role + " '" + e.name + "': manifest dimension '" + dim + "' is kernel extent " + sym + " at " + at + " but " +
                 a->second.first + " at " + a->second.second, "P6");
      return;
    }
    auto b = sym_dim_.find(sym);
    if (b != sym_dim_.end() && b->second.first != dim) {
      err(l, e.role + " '" + e.name + "': kernel extent symbol " + sym + " stands for manifest dimension '" + dim + "' at " + at +
                 " and for '" + b->second.first + "' at " + b->second.second, "P6");
      return;
    }
    bind_in(dim_sym_, sym_dim_, dim, x, at);
  }

  bool integral_index(const std::string& n) const {
    const IndexDecl* ix = op_.index(n);
    return ix && ix->kind && ix->kind->integral();
  }

  // A manifest axis as a polynomial over kernel extent symbols: an integral index is the kernel
  // symbol bound to it (its own name while unbound); nullopt for what is no polynomial (calls,
  // params, lets, conditionals). May throw ExtentOverflow.
  std::optional<Extent> to_extent(const Expr& x, const Bindings& ds) const {
    auto kid = [&](size_t i) { return x.kids.size() > i && x.kids[i] ? to_extent(*x.kids[i], ds) : std::nullopt; };
    switch (x.k) {
      case Expr::K::Int:
        if (!x.ival.fits_slong_p()) return std::nullopt;
        return Extent::constant(x.ival.get_si());
      case Expr::K::Name: {
        if (!integral_index(x.s)) return std::nullopt;
        auto b = ds.find(x.s);
        return Extent::symbol(b != ds.end() ? b->second.first : x.s);
      }
      case Expr::K::Unary: {
        auto a = kid(0);
        if (!a || (x.s != "-" && x.s != "+")) return std::nullopt;
        return x.s == "-" ? Extent() - *a : *a;
      }
      case Expr::K::Bin: {
        auto a = kid(0), b = kid(1);
        if (!a || !b) return std::nullopt;
        if (x.s == "+") return *a + *b;
        if (x.s == "-") return *a - *b;
        if (x.s == "*") return *a * *b;
        if (x.s == "//") return Extent::floordiv(*a, *b);
        if (x.s == "%") return *a - Extent::floordiv(*a, *b) * *b;
        return std::nullopt;
      }
      default: return std::nullopt;
    }
  }

  // "" when kernel extent `x` is what the manifest axis `item` gives (binding a plain dimension
  // in `ds`/`sd` on first sight), else the mismatch; axes that are no polynomial fit anything.
  std::string axis_mismatch(const Expr& item, const Extent& x, Bindings& ds, Bindings& sd, const std::string& at) const {
    if (item.k == Expr::K::Name && integral_index(item.s) && !ds.count(item.s)) return bind_in(ds, sd, item.s, x, at);
    try {
      auto want = to_extent(item, ds);
      if (!want || *want == x) return "";
      return "is extent " + x.str() + ", the manifest's '" + unparse(item) + "' is " + want->str();
    } catch (const ExtentOverflow&) {
      return "";
    }
  }

  // Resolved axes (stars: one splice, its own axes unchecked) against a kernel parameter.
  std::string shape_mismatch(const std::vector<ExprPtr>& axes, const KValue& v, Bindings& ds, Bindings& sd) const {
    const auto& ext = v.type.shape();
    size_t stars = 0, star_at = 0;
    for (size_t i = 0; i < axes.size(); ++i) {
      if (!axes[i]) return "";
      if (axes[i]->k == Expr::K::Star) { ++stars; star_at = i; }
    }
    if (stars > 1) return "";
    auto axis = [&](size_t mi, size_t ki) {
      return axis_mismatch(*axes[mi], ext[ki], ds, sd, where(v) + " axis " + std::to_string(ki));
    };
    if (stars == 0) {
      if (ext.size() != axes.size()) return "has rank " + std::to_string(ext.size()) + ", the case has rank " + std::to_string(axes.size());
      for (size_t i = 0; i < axes.size(); ++i)
        if (auto m = axis(i, i); !m.empty()) return "axis " + std::to_string(i) + " " + m;
      return "";
    }
    size_t fixed = axes.size() - 1, tail = axes.size() - star_at - 1;
    if (ext.size() < fixed) return "has rank " + std::to_string(ext.size()) + ", the case has rank at least " + std::to_string(fixed);
    for (size_t i = 0; i < star_at; ++i)
      if (auto m = axis(i, i); !m.empty()) return "axis " + std::to_string(i) + " " + m;
    for (size_t i = 0; i < tail; ++i) {
      size_t ka = ext.size() - tail + i;
      if (auto m = axis(star_at + 1 + i, ka); !m.empty()) return "axis " + std::to_string(ka) + " " + m;
    }
    return "";
  }

  static std::string axes_text(const std::vector<ExprPtr>& axes) {
    std::string s = "[";
    for (size_t i = 0; i < axes.size(); ++i) s += (i ? ", " : "") + (axes[i] ? unparse(*axes[i]) : std::string("?"));
    return s + "]";
  }

  // Family-shaped parameters: some discriminant point must give, for every one of them at once,
  // a case that fits the kernel (tensors of one family take the same branch). The bindings of
  // the first fitting point are kept.
  void check_families() {
    if (families_.empty()) return;
    size_t total = 0;
    auto points = enumerate_points(op_, m_, 256, total);
    if (points.empty()) points.push_back(Point{});
    // per family-shaped parameter: the first point it fits alone, and why it fails at the first point
    std::vector<std::string> alone(families_.size()), first_why(families_.size());
    std::vector<std::set<std::string>> cases(families_.size());
    for (const auto& pt : points) {
      Bindings ds = dim_sym_, sd = sym_dim_;
      bool all = true;
      for (size_t i = 0; i < families_.size(); ++i) {
        const auto& [e, v] = families_[i];
        ResolvedShape r = resolve_shape(op_, m_, e->t->shape, pt.env);
        if (!r.ok) continue;  // undecided here: does not constrain the point
        cases[i].insert(axes_text(r.axes));
        Bindings ds1 = dim_sym_, sd1 = sym_dim_;
        std::string why = shape_mismatch(r.axes, *v, ds1, sd1);
        if (why.empty() && alone[i].empty()) alone[i] = pt.describe();
        if (!why.empty() && first_why[i].empty()) first_why[i] = why;
        if (all && !shape_mismatch(r.axes, *v, ds, sd).empty()) all = false;
      }
      if (all) {
        dim_sym_ = ds;
        sym_dim_ = sd;
        return;
      }
    }
    std::string fits;
    for (size_t i = 0; i < families_.size(); ++i) {
      const auto& [e, v] = families_[i];
      std::string head = e->role + " '" + e->name + "': " + kname() + " parameter " + where(*v);
      if (cases[i].empty()) continue;  // resolved at no point
      std::string shown;
      for (const auto& c : cases[i]) shown += (shown.empty() ? "" : ", ") + c;
      if (alone[i].empty()) {
        err(e->t->shape.loc, head + " fits no case of type family '" + e->t->shape.shape.family + "' (cases " + shown + "): " +
                                 first_why[i], "P5");
        return;
      }
      fits += (fits.empty() ? "" : "; ") + std::string("'") + e->name + "' fits at " + alone[i];
    }
    const Entry* e0 = families_[0].first;
    err(e0->t->shape.loc, kname() + ": no discriminant point gives cases that fit all its family-shaped parameters at once (tensors of one "
                          "family take the same branch): " + fits, "P5");
  }

  void check_computed() {
    for (const auto& c : computed_) {
      std::string at = where(*c.v) + " axis " + std::to_string(c.axis);
      std::string m = axis_mismatch(*c.item, c.v->type.shape()[c.axis], dim_sym_, sym_dim_, at);
      if (!m.empty())
        err(c.e->t->shape.loc, c.e->role + " '" + c.e->name + "': " + kname() + " parameter " + at + " " + m, "P5");
    }
  }

  void check_axis(const Entry& e, const KValue& v, const Expr& item, const Extent& x, size_t axis) {
    const IndexDecl* ix = item.k == Expr::K::Name ? op_.index(item.s) : nullptr;
    if (ix && ix->kind && ix->kind->t == Kind::T::Dim) {
      bind_dim(e, v, item.s, x, axis);
    } else if (item.k != Expr::K::Int) {
      computed_.push_back({&e, &v, &item, axis});
    } else {
      auto c = x.constant_value();
      if (!c || mpz_class(static_cast<long>(*c)) != item.ival)
        err(e.t->shape.loc, e.role + " '" + e.name + "': " + kname() + " parameter " + where(v) + " axis " + std::to_string(axis) +
                                " is extent " + x.str() + ", the manifest fixes it to " + item.ival.get_str(), "P5");
    }
  }

  void check_shape(const Entry& e, const KValue& v) {
    const TensorDecl& t = *e.t;
    if (!t.shape.parsed) return;
    if (t.shape.shape.is_family) {  // the case depends on the discriminants: checked at the end
      families_.push_back({&e, &v});
      return;
    }
    const auto& items = t.shape.shape.items;
    const auto& ext = v.type.shape();
    size_t stars = 0, star_at = 0;
    for (size_t i = 0; i < items.size(); ++i)
      if (items[i] && items[i]->k == Expr::K::Star) { ++stars; star_at = i; }
    for (const auto& it : items)
      if (!it) return;
    std::string head = e.role + " '" + t.name + "': " + kname() + " parameter " + where(v) + " has rank " + std::to_string(ext.size());
    if (stars == 0) {
      if (ext.size() != items.size()) {
        err(t.shape.loc, head + ", the manifest shape '" + t.shape.text + "' has rank " + std::to_string(items.size()), "P5");
        return;
      }
      for (size_t i = 0; i < items.size(); ++i) check_axis(e, v, *items[i], ext[i], i);
      return;
    }
    if (stars > 1) return;
    size_t fixed = items.size() - 1;
    if (ext.size() < fixed) {
      err(t.shape.loc, head + ", the manifest shape '" + t.shape.text + "' has rank at least " + std::to_string(fixed), "P5");
      return;
    }
    size_t tail = items.size() - star_at - 1;
    for (size_t i = 0; i < star_at; ++i) check_axis(e, v, *items[i], ext[i], i);
    for (size_t i = 0; i < tail; ++i) {
      size_t ka = ext.size() - tail + i;
      check_axis(e, v, *items[star_at + 1 + i], ext[ka], ka);
    }
    const Expr& star = *items[star_at];
    if (star.kids.empty() || !star.kids[0] || star.kids[0]->k != Expr::K::Name) return;
    std::string s = star.kids[0]->s;
    const IndexDecl* ix = op_.index(s);
    if (!ix || !ix->kind || !ix->kind->is_shape()) return;
    std::string seq = "[";
    for (size_t i = star_at; i < ext.size() - tail; ++i) seq += (i > star_at ? ", " : "") + ext[i].str();
    seq += "]";
    auto a = shape_seq_.find(s);
    if (a == shape_seq_.end()) shape_seq_[s] = {seq, where(v)};
    else if (a->second.first != seq)
      err(t.shape.loc, e.role + " '" + t.name + "': manifest shape index '" + s + "' is kernel extents " + seq + " at " + where(v) +
                           " but " + a->second.first + " at " + a->second.second, "P6");
  }

  void check_param(const Entry& e, const KValue& v) {
    const Type& ty = v.type;
    bool ok = false;
    if (v.is_constexpr) {
      bool cint = ty.is_scalar() && (is_integer(ty.dtype()));
      bool cbool = ty.is_scalar() && ty.dtype() == DType::Bool;
      switch (e.form) {
        case ParamForm::Int: case ParamForm::Number: ok = cint; break;
        case ParamForm::Bool: ok = cbool; break;
        case ParamForm::Enum:
          ok = cint;
          if (ty.is(TypeKind::Enum)) {
            const EnumDecl* ed = mod_.find_enum(ty.enum_name());
            std::set<std::string> mem;
            if (ed)
              for (const auto& [mn, mv] : ed->members) mem.insert(mn);
            ok = mem == e.p->kind->members;
            if (!ok) {
              err(e.loc, "param '" + e.name + "': " + kname() + " parameter " + where(v) + " is enum @" + ty.enum_name() + " with members " +
                             set_str(mem) + ", the manifest's literals are " + set_str(e.p->kind->members), "P7");
              return;
            }
          }
          break;
        case ParamForm::Float: case ParamForm::None: ok = false; break;
      }
    } else if (ty.is_scalar()) {
      DType dt = ty.dtype();
      switch (e.form) {
        case ParamForm::Int: ok = is_integer(dt); break;
        case ParamForm::Bool: ok = dt == DType::Bool; break;
        case ParamForm::Float: ok = is_float(dt); break;
        case ParamForm::Number: ok = is_integer(dt) || is_float(dt); break;
        case ParamForm::Enum: case ParamForm::None: ok = false; break;
      }
    }
    if (!ok)
      err(e.loc, "param '" + e.name + "' (" + e.p->type_text + "): " + kname() + " parameter " + where(v) + " is " +
                     (v.is_constexpr ? "constexpr " : "") + ty.str() + ", expected " + form_name(e.form), "P7");
  }

  // P8: every fixed param (kir/ir.h Function::fixes) is a param of the op — `p.field` a field of an
  // ADT param p — and its value fits the kind: an integer (or an extent symbol) an int, a list of
  // them a sequence of the right length, a number a float, a bool a bool, a string a literal or
  // dtype member or an ADT constructor, `none` an optional param. Located at the kernel.
  void check_fixes() {
    Loc at;
    if (fn_->loc.file) at.file = *fn_->loc.file;
    at.line = static_cast<int>(fn_->loc.line);
    at.col = static_cast<int>(fn_->loc.col);
    for (const auto& [name, value] : fn_->fixes) {
      const std::string head = name.substr(0, name.find('.'));
      const ParamDecl* p = op_.param(head);
      const std::string what = kname() + " fixes " + name + " = " + value.str();
      if (!p) {
        std::string known;
        for (const auto& q : op_.params) known += (known.empty() ? "" : ", ") + q.name;
        err(at, what + ", but '" + head + "' is no param of " + op_.name + " (its params: " + (known.empty() ? "none" : known) + ")", "P8");
        continue;
      }
      if (!p->kind) continue;  // a malformed type is reported by the validator
      std::optional<Kind> kind = *p->kind;
      std::string type = p->type_text;
      if (head != name) {
        kind = field_kind(*p->kind, name.substr(head.size() + 1), type);
        if (!kind) {
          err(at, what + ", but param '" + head + "' (" + p->type_text + ") has no field '" + name.substr(head.size() + 1) +
                      "' (a dotted name reads a field of an ADT param)", "P8");
          continue;
        }
      }
      if (!fits_kind(value, *kind))
        err(at, what + ", which is no value of '" + name + "' (" + type + ")", "P8");
    }
  }

  // The kind of field `path` (`packing`, or nested `a.b`) of an ADT kind (or optional ADT), with its
  // type text in `type`; nullopt when no constructor has it.
  std::optional<Kind> field_kind(const Kind& k, const std::string& path, std::string& type) const {
    if (k.t == Kind::T::Maybe && k.elem) return field_kind(*k.elem, path, type);
    if (k.t != Kind::T::Adt) return std::nullopt;
    auto a = m_.adts.find(k.adt);
    if (a == m_.adts.end()) return std::nullopt;
    const std::string field = path.substr(0, path.find('.'));
    for (const auto& c : a->second.ctors)
      for (const auto& [fname, fkind] : c.fields)
        if (fname == field && (k.ctor.empty() || k.ctor == c.name)) {
          if (field != path) return field_kind(fkind, path.substr(field.size() + 1), type);
          type = k.adt + "." + c.name + "." + fname + ": " + fkind.str();
          return fkind;
        }
    return std::nullopt;
  }

  bool fits_kind(const Attribute& a, const Kind& k) const {
    const bool none = a.kind == Attribute::Kind::Keyword && a.s == "none";
    switch (k.t) {
      case Kind::T::Maybe: return none || (k.elem && fits_kind(a, *k.elem));
      case Kind::T::None: return none;
      case Kind::T::Dim: case Kind::T::Int: return a.kind == Attribute::Kind::Int || (a.kind == Attribute::Kind::Keyword && !none);
      case Kind::T::Bool: return a.kind == Attribute::Kind::Bool;
      case Kind::T::Enum: return a.kind == Attribute::Kind::String && k.members.count(a.s);
      case Kind::T::DType:
        return a.kind == Attribute::Kind::String && (k.members.empty() ? find_dtype(a.s) != nullptr : k.members.count(a.s) != 0);
      case Kind::T::Str: return a.kind == Attribute::Kind::String;
      case Kind::T::Value:  // float, str and other opaque types: a number or a string
        return a.kind == Attribute::Kind::Int || a.kind == Attribute::Kind::Float || a.kind == Attribute::Kind::String;
      case Kind::T::Seq:
        if (a.kind != Attribute::Kind::List || (k.length >= 0 && a.list.size() != static_cast<size_t>(k.length)) || !k.elem) return false;
        return std::all_of(a.list.begin(), a.list.end(), [&](const Attribute& x) { return fits_kind(x, *k.elem); });
      case Kind::T::Union:
        return std::any_of(k.alts.begin(), k.alts.end(), [&](const Kind& x) { return fits_kind(a, x); });
      case Kind::T::Adt: {
        auto d = m_.adts.find(k.adt);
        return a.kind == Attribute::Kind::String && d != m_.adts.end() && d->second.ctor(a.s) && (k.ctor.empty() || k.ctor == a.s);
      }
      case Kind::T::Tensor: break;
    }
    return false;
  }

  static bool is_float(DType d) { return d == DType::F16 || d == DType::BF16 || d == DType::F32 || d == DType::F64; }
};

bool is_file(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec);
}

}  // namespace

std::string presence_flag_target(const std::string& param) {
  static const std::string prefix = "present_";
  return param.size() > prefix.size() && param.compare(0, prefix.size(), prefix) == 0 ? param.substr(prefix.size()) : "";
}

std::string paired_kernel_path(const OpSpec& op) {
  namespace fs = std::filesystem;
  if (op.name.empty() || op.file.empty()) return "";
  fs::path dir = fs::path(op.file).parent_path();
  if (dir.empty()) dir = ".";
  for (const fs::path& c : {dir / "kernels" / (op.name + ".kir"), dir / ".." / "kernels" / (op.name + ".kir")})
    if (is_file(c)) return c.lexically_normal().string();
  return "";
}

void check_parity_text(const OpSpec& op, const Manifest& manifest, const std::string& kernel_text, const std::string& kernel_file,
                       SpecDiags& d) {
  Diagnostics kd;
  std::unique_ptr<Module> mod;
  try {
    mod = parse_module(kernel_text, kernel_file, kd);
  } catch (const std::exception& ex) {
    d.add(op.loc, Level::Signature, op.name, "paired kernel " + kernel_file + " does not parse: " + ex.what() + " [P1]");
    return;
  }
  auto first = [&]() {
    for (const auto& x : kd.all())
      if (x.severity == Severity::Error) return x.loc.str() + ": " + x.message + (x.rule.empty() ? "" : " (" + x.rule + ")");
    return std::string("unknown error");
  };
  if (!mod || kd.has_errors()) {
    d.add(op.loc, Level::Signature, op.name, "paired kernel " + kernel_file + " does not parse: " + first() + " [P1]");
    return;
  }
  // Surface shorthands (matmul, reduce.sum, ...) are normalized first, as every loader does
  // (kir/load.h): parity reads the parameters, which normalization leaves as written.
  try {
    if (needs_normalization(*mod) && !normalize_module(*mod, kd)) {
      d.add(op.loc, Level::Signature, op.name, "paired kernel " + kernel_file + " does not normalize: " + first() + " [P1]");
      return;
    }
  } catch (const std::exception& ex) {
    d.add(op.loc, Level::Signature, op.name, "paired kernel " + kernel_file + " does not normalize: " + ex.what() + " [P1]");
    return;
  }
  bool ok = false;
  try {
    ok = verify_module(*mod, kd);
  } catch (const std::exception& ex) {
    d.add(op.loc, Level::Signature, op.name, "paired kernel " + kernel_file + " fails kir verify: " + ex.what() + " [P1]");
    return;
  }
  if (!ok) {
    d.add(op.loc, Level::Signature, op.name, "paired kernel " + kernel_file + " fails kir verify: " + first() + " [P1]");
    return;
  }
  ParityChecker(op, manifest, d, *mod, kernel_file).run();
}

void check_parity(const OpSpec& op, const Manifest& m, SpecDiags& d) {
  std::string path = paired_kernel_path(op);
  if (path.empty()) return;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  if (!in.is_open()) {
    d.add(op.loc, Level::Signature, op.name, "paired kernel " + path + " cannot be read [P1]");
    return;
  }
  check_parity_text(op, m, ss.str(), path, d);
}

}  // namespace kir::specs
