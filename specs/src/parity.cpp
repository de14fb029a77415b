// Parity checks of an op spec against its paired Intent kernel (see parity.h). IDs:
// P1 pairing (the kernel file parses, verifies and holds a kernel of the op; name suffixes),
// P2 parameters (every manifest entry has one, no extra ones, in the manifest's order),
// P3 access (In / Out / InOut per role and effects), P4 dtypes (allowed sets, one dtype per
// DType index, dtype_combos rows), P5 ranks and constant extents, P6 extent symbols (one kernel
// symbol per manifest dimension and back, one extent list per Shape index), P7 scalar params.
#include "specs/src/parity.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "kir/ir.h"
#include "kir/text/parser.h"
#include "kir/verify/verifier.h"
#include "specs/src/dtypes.h"
#include "specs/src/kind_check.h"

namespace kir::specs {
namespace {

// Manifest dtype names ↔ KIR dtypes (only those both sides have).
const std::vector<std::pair<std::string, std::string>>& dtype_pairs() {
  static const std::vector<std::pair<std::string, std::string>> t = {
      {"bool", "bool"},     {"int8", "i8"},     {"int16", "i16"},   {"int32", "i32"},
      {"int64", "i64"},     {"uint8", "u8"},    {"uint16", "u16"},  {"uint32", "u32"},
      {"uint64", "u64"},    {"float16", "f16"}, {"bfloat16", "bf16"}, {"float32", "f32"},
      {"float64", "f64"},   {"float8_e4m3fn", "e4m3"}, {"float8_e5m2", "e5m2"},
  };
  return t;
}

std::string manifest_dtype(const std::string& kir_name) {
  for (const auto& [m, k] : dtype_pairs())
    if (k == kir_name) return m;
  return "";
}

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
  ParityChecker(const OpSpec& op, SpecDiags& d, const Module& mod, const std::string& file)
      : op_(op), d_(d), mod_(mod), file_(file) {}

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
  SpecDiags& d_;
  const Module& mod_;
  std::string file_;
  std::vector<Entry> entries_;
  // per kernel
  const Function* fn_ = nullptr;
  std::map<std::string, std::string> dtype_bind_;       // DType index → manifest dtype
  std::map<std::string, std::string> dtype_bind_from_;  // DType index → where it was bound
  std::map<std::string, std::pair<std::string, std::string>> dim_sym_;    // dim → (symbol, where)
  std::map<std::string, std::pair<std::string, std::string>> sym_dim_;    // symbol → (dim, where)
  std::map<std::string, std::pair<std::string, std::string>> shape_seq_;  // Shape index → (extents, where)

  void err(const Loc& l, const std::string& text, const char* id) { d_.add(l, Level::Signature, op_.name, text + " [" + id + "]"); }

  std::string kname() const { return "kernel @" + fn_->name; }
  static std::string where(const Value& v) { return "'%" + v.name + "' (" + v.loc.str() + ")"; }

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
    if (parts.size() != idx.size() || idx.empty()) {
      err(op_.loc, kname() + " (" + fn_->loc.str() + "): a dtype-case suffix names one KIR dtype per DType index of the forall (" +
                       std::to_string(idx.size()) + "), in order; it names " + std::to_string(parts.size()), "P1");
      return false;
    }
    bool ok = true;
    for (size_t i = 0; i < parts.size(); ++i) {
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
    if (!bind_suffix()) return;
    auto params = f.params();
    std::map<std::string, size_t> pos;
    for (size_t i = 0; i < entries_.size(); ++i) pos[entries_[i].name] = i;
    std::set<std::string> seen;
    long last = -1;
    const Value* last_v = nullptr;
    bool order_reported = false;
    for (size_t i = 0; i < params.size(); ++i) {
      const Value& v = *params[i];
      auto it = pos.find(v.name);
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
    for (const auto& e : entries_) {
      if (seen.count(e.name)) continue;
      std::string what = e.role;
      if (e.t && e.t->optional != TensorDecl::Opt::No) what = "optional " + e.role;
      err(e.loc, what + " '" + e.name + "' has no parameter in " + kname() + " (" + f.loc.str() + ")" +
                     (what.rfind("optional", 0) == 0 ? "; optional inputs are kernel parameters too" : ""), "P2");
    }
    check_combos();
  }

  void check_tensor(const Entry& e, const Value& v) {
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

  void check_dtype(const Entry& e, const Value& v) {
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

  // Dimension name → kernel extent symbol, and back.
  void bind_dim(const Entry& e, const Value& v, const std::string& dim, const Extent& x, size_t axis) {
    const Loc& l = e.t->shape.loc;
    std::string at = where(v) + " axis " + std::to_string(axis);
    if (!x.is_symbol()) {
      err(l, e.role + " '" + e.name + "': " + kname() + " parameter " + at + " is extent " + x.str() +
                 ", expected an extent symbol for manifest dimension '" + dim + "'", "P6");
      return;
    }
    std::string sym = x.symbol_name();
    auto a = dim_sym_.find(dim);
    if (a == dim_sym_.end()) dim_sym_[dim] = {sym, at};
    else if (a->second.first != sym) {
      err(l, e.role + " '" + e.name + "': manifest dimension '" + dim + "' is kernel extent " + sym + " at " + at + " but " +
                 a->second.first + " at " + a->second.second, "P6");
      return;
    }
    auto b = sym_dim_.find(sym);
    if (b == sym_dim_.end()) sym_dim_[sym] = {dim, at};
    else if (b->second.first != dim)
      err(l, e.role + " '" + e.name + "': kernel extent symbol " + sym + " stands for manifest dimension '" + dim + "' at " + at +
                 " and for '" + b->second.first + "' at " + b->second.second, "P6");
  }

  void check_axis(const Entry& e, const Value& v, const Expr& item, const Extent& x, size_t axis) {
    if (item.k == Expr::K::Name) {
      const IndexDecl* ix = op_.index(item.s);
      if (ix && ix->kind && ix->kind->t == Kind::T::Dim) bind_dim(e, v, item.s, x, axis);
    } else if (item.k == Expr::K::Int) {
      auto c = x.constant_value();
      if (!c || mpz_class(static_cast<long>(*c)) != item.ival)
        err(e.t->shape.loc, e.role + " '" + e.name + "': " + kname() + " parameter " + where(v) + " axis " + std::to_string(axis) +
                                " is extent " + x.str() + ", the manifest fixes it to " + item.ival.get_str(), "P5");
    }
  }

  void check_shape(const Entry& e, const Value& v) {
    const TensorDecl& t = *e.t;
    if (!t.shape.parsed || t.shape.shape.is_family) return;  // family shapes: rank depends on the branch
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

  void check_param(const Entry& e, const Value& v) {
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

  static bool is_float(DType d) { return d == DType::F16 || d == DType::BF16 || d == DType::F32 || d == DType::F64; }
};

bool is_file(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec);
}

}  // namespace

std::string paired_kernel_path(const OpSpec& op) {
  namespace fs = std::filesystem;
  if (op.name.empty() || op.file.empty()) return "";
  fs::path dir = fs::path(op.file).parent_path();
  if (dir.empty()) dir = ".";
  for (const fs::path& c : {dir / "kernels" / (op.name + ".kir"), dir / ".." / "kernels" / (op.name + ".kir")})
    if (is_file(c)) return c.lexically_normal().string();
  return "";
}

void check_parity_text(const OpSpec& op, const Manifest& /*manifest*/, const std::string& kernel_text, const std::string& kernel_file,
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
  ParityChecker(op, d, *mod, kernel_file).run();
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
