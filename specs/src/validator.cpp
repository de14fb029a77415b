// The validator (see validator.h): signature-level checks, effects, per-point checks and the
// workload rows. Each message ends with the reference's check ID.
#include "specs/src/validator.h"

#include <algorithm>
#include <functional>

#include "specs/src/analysis.h"
#include "specs/src/convert.h"
#include "specs/src/dtypes.h"
#include "specs/src/generators.h"
#include "specs/src/instantiate.h"
#include "specs/src/kind_check.h"
#include "specs/src/loader.h"
#include "specs/src/parity.h"
#include "specs/src/predicates.h"
#include "specs/src/yaml_util.h"

namespace kir::specs {
namespace {

class OpChecker {
 public:
  OpChecker(const OpSpec& op, const Manifest& m, SpecDiags& d, const ValidateOptions& o) : op_(op), m_(m), d_(d), opts_(o) {}

  void run() {
    if (!op_.signature_ok) {
      err(op_.loc, "entry plan cannot be built: the signature did not load", "W1");
      return;
    }
    check_defaults();
    check_lets();
    check_tensors();
    check_rules();
    check_families();
    check_combos();
    check_effects();
    check_roofline();
    check_composition();
    if (opts_.parity) check_parity(op_, m_, d_);
    check_points();
    check_workloads();
  }

 private:
  const OpSpec& op_;
  const Manifest& m_;
  SpecDiags& d_;
  const ValidateOptions& opts_;
  std::map<std::string, Kind> let_kinds_;
  std::set<std::string> reported_;  // one report per (check, subject) across points

  std::set<std::string> failed_lets_;  // lets whose check failed (their readers stay quiet)

  void err(const Loc& l, const std::string& text, const char* id) {
    if (std::string(id) == kFailedLetId) return;  // the failed let reported the root cause
    d_.add(l, Level::Signature, op_.name, text + " [" + id + "]");
  }
  void once(const std::string& key, const Loc& l, const std::string& text, const char* id) {
    if (reported_.insert(key).second) err(l, text, id);
  }

  KindScope scope(FieldKind f) {
    KindScope s = op_scope(op_, m_, f, let_kinds_);
    s.failed_lets = failed_lets_;
    if (f == FieldKind::Dtype)
      for (const auto& dt : all_dtypes())
        if (!s.names.count(std::string(dt.name))) s.names[std::string(dt.name)] = Kind::dtype({std::string(dt.name)});
    return s;
  }

  std::optional<Kind> kind_of(const ExprField& e, FieldKind f, const std::string& what) {
    if (!e.ok()) return std::nullopt;
    return check_kind(*e.expr, scope(f), d_, e.loc, op_.name, what);
  }

  // C9: a default must be a value of its parameter's type.
  void check_defaults() {
    for (const auto& p : op_.params) {
      if (!p.kind || !p.has_default) continue;
      std::string e;
      if (!convert_value(p.default_node, *p.kind, m_, e)) err(loc_of(p.default_node, op_.file), "default of parameter '" + p.name + "': " + e, "C9");
    }
  }

  // C24, C33: lets in dependency order.
  void check_lets() {
    std::map<std::string, std::set<std::string>> deps;
    for (const auto& l : op_.lets) {
      std::set<std::string> names;
      if (l.expr.ok()) free_names(*l.expr.expr, names);
      for (const auto& n : names)
        if (op_.let(n)) deps[l.name].insert(n);
    }
    std::map<std::string, int> state;  // 0 new, 1 visiting, 2 done
    std::vector<std::string> order;
    std::set<std::string> in_cycle;
    std::function<void(const std::string&, std::vector<std::string>&)> visit = [&](const std::string& n, std::vector<std::string>& path) {
      if (state[n] == 2) return;
      if (state[n] == 1) {
        auto it = std::find(path.begin(), path.end(), n);
        std::string cyc;
        for (; it != path.end(); ++it) { cyc += *it + " -> "; in_cycle.insert(*it); }
        once("cycle:" + n, op_.let(n)->expr.loc, "let cycle: " + cyc + n, "C33");
        return;
      }
      state[n] = 1;
      path.push_back(n);
      for (const auto& dep : deps[n]) visit(dep, path);
      path.pop_back();
      state[n] = 2;
      order.push_back(n);
    };
    for (const auto& l : op_.lets) {
      std::vector<std::string> path;
      visit(l.name, path);
    }
    for (const auto& n : order) {
      const LetDecl* l = op_.let(n);
      std::optional<Kind> k;
      if (!in_cycle.count(n)) k = kind_of(l->expr, FieldKind::Let, "let '" + n + "'");
      if (k && k->t == Kind::T::Adt) { err(l->expr.loc, "let '" + n + "' holds an ADT value", "C24"); k.reset(); }
      if (k) let_kinds_[n] = *k;
      else failed_lets_.insert(n);  // in dependency order: lets reading it fail quietly too
    }
  }

  void check_dtype(const TensorDecl& t) {
    if (!t.dtype.ok()) return;
    const Expr& e = *t.dtype.expr;
    std::string what = "dtype of '" + t.name + "'";
    if (e.k == Expr::K::Name) {
      const ParamDecl* p = op_.param(e.s);
      if (p && p->kind && p->kind->t == Kind::T::Maybe && p->kind->elem->t == Kind::T::DType) {
        err(t.dtype.loc, what + ": '" + e.s + "' is " + p->kind->str() + "; use coalesce_dtype(" + e.s + ", ...)", "C18");
        return;
      }
      bool declared = op_.index(e.s) || p || op_.let(e.s) || op_.tensor(e.s);
      if (!declared && !find_dtype(e.s)) {
        err(t.dtype.loc, what + ": '" + e.s + "' is not a DType index, a dtype parameter or a registered dtype", "C16");
        return;
      }
    }
    auto k = kind_of(t.dtype, FieldKind::Dtype, what);
    if (k && k->t != Kind::T::DType) err(t.dtype.loc, what + ": '" + t.dtype.text + "' is " + k->str() + ", not a dtype expression", "C17");
  }

  bool accepts(const Kind& formal, const Kind& arg) {
    switch (formal.t) {
      case Kind::T::Bool: return arg.t == Kind::T::Bool;
      case Kind::T::Dim:
      case Kind::T::Int: return arg.integral();
      case Kind::T::Seq: return arg.is_seq() && arg.elem && arg.elem->integral();
      case Kind::T::Adt: return arg.t == Kind::T::Adt && arg.adt == formal.adt;
      case Kind::T::Enum: return arg.t == Kind::T::Enum || arg.t == Kind::T::Str;
      case Kind::T::Maybe: return arg.t == Kind::T::Maybe || accepts(*formal.elem, arg);
      default: return true;
    }
  }

  void check_axes(const std::vector<ExprPtr>& axes, const KindScope& sc, const Loc& loc, const std::string& what) {
    for (const auto& ax : axes) {
      std::string e, id;
      if (ax->k == Expr::K::Star) {
        auto k = infer_kind(*ax->kids[0], sc, e, id);
        if (!k) { err(loc, what + ": " + e, id.c_str()); return; }
        if (!(k->is_seq() && k->elem && k->elem->integral())) {
          err(loc, what + ": splice '" + unparse(*ax) + "' is " + k->str() + ", expected Shape (a Seq[Int])", "C30");
          return;
        }
        continue;
      }
      auto k = infer_kind(*ax, sc, e, id);
      if (!k) { err(loc, what + ": " + e, id.c_str()); return; }
      if (!k->integral()) { err(loc, what + ": axis '" + unparse(*ax) + "' is " + k->str() + ", expected an integer", "C30"); return; }
    }
  }

  void check_shape(const TensorDecl& t) {
    if (!t.shape.shape.items.empty() || t.shape.parsed) {}
    if (!t.shape.parsed) return;
    std::string what = "shape of '" + t.name + "'";
    KindScope sc = scope(FieldKind::Shape);
    const ShapeExpr& s = t.shape.shape;
    if (!s.is_family) { check_axes(s.items, sc, t.shape.loc, what); return; }
    const FamilyDecl* f = op_.family_decl(s.family);
    if (!f) { err(t.shape.loc, what + ": '" + s.family + "' is not a type family of this spec", "C30"); return; }
    if (f->params.size() != s.items.size()) {
      err(t.shape.loc, what + ": type family '" + f->name + "' takes " + std::to_string(f->params.size()) + " arguments, got " + std::to_string(s.items.size()), "C30");
      return;
    }
    for (size_t k = 0; k < s.items.size(); ++k) {
      std::string e, id;
      auto ak = infer_kind(*s.items[k], sc, e, id);
      if (!ak) { err(t.shape.loc, what + ": " + e, id.c_str()); return; }
      if (!accepts(f->params[k].second, *ak)) {
        err(t.shape.loc, what + ": argument " + std::to_string(k + 1) + " of '" + f->name + "' is " + ak->str() + ", expected " + f->params[k].second.str(), "C30");
        return;
      }
    }
  }

  void check_condition(const ExprField& e, const std::string& what) {
    auto k = kind_of(e, FieldKind::Presence, what);
    if (!k) return;
    if (k->t != Kind::T::Bool) { err(e.loc, what + ": '" + e.text + "' is " + k->str() + ", expected Bool", "C29"); return; }
    std::set<std::string> names;
    free_names(*e.expr, names);
    auto disc = discriminant_names(op_);
    for (const auto& n : names)
      if (!disc.count(n) && !op_.tensor(n)) {
        err(e.loc, what + ": '" + e.text + "' reads more than discriminants ('" + n + "')", "C36");
        return;
      }
  }

  long fixed_rank(const TensorDecl& t) {
    if (!t.shape.parsed) return -2;
    if (t.shape.shape.is_family) {
      const FamilyDecl* f = op_.family_decl(t.shape.shape.family);
      if (!f) return -2;
      long r = -3;
      for (const auto& c : f->cases) {
        if (!c.is.parsed || c.is.shape.is_family) return -1;
        for (const auto& ax : c.is.shape.items)
          if (ax->k == Expr::K::Star) return -1;
        long cr = static_cast<long>(c.is.shape.items.size());
        if (r != -3 && r != cr) return -1;
        r = cr;
      }
      return r;
    }
    for (const auto& ax : t.shape.shape.items)
      if (ax->k == Expr::K::Star) return -1;
    return static_cast<long>(t.shape.shape.items.size());
  }

  Kind arg_kind_for(char c) {
    switch (c) {
      case 'S': return Kind::seq(Kind::integer());
      case 'I': return Kind::integer();
      case 'E': return Kind::simple(Kind::T::Str);
      default: return Kind::value();
    }
  }

  bool arg_ok(char c, const Kind& k) {
    switch (c) {
      case 'S': return k.is_seq() && k.elem && (k.elem->integral() || k.elem->is_seq());
      case 'I': return k.integral();
      case 'E': return k.t == Kind::T::Str || k.t == Kind::T::Enum;
      case 'A': return k.t == Kind::T::Adt;
    }
    return true;
  }

  void check_values_requires(const TensorDecl& t) {
    if (!t.reqs.empty() && !t.values) err(t.loc, "tensor '" + t.name + "' declares requires but no values", "W2");
    if (t.values && t.values->ok()) {
      const Expr& c = *t.values->expr;
      const GeneratorDef* g = c.k == Expr::K::Call ? find_generator(c.s) : nullptr;
      if (!g || c.npos != c.kids.size()) {
        err(t.values->loc, "values of '" + t.name + "': '" + t.values->text + "' is not a keyword-free call of a built-in generator", "W3");
      } else if (c.kids.size() != g->args.size()) {
        err(t.values->loc, "values of '" + t.name + "': " + g->name + "() takes " + std::to_string(g->args.size()) + " arguments, got " + std::to_string(c.kids.size()), "W5");
      } else {
        KindScope sc = scope(FieldKind::Values);
        for (size_t k = 0; k < c.kids.size(); ++k) {
          std::string e, id;
          auto ak = infer_kind(*c.kids[k], sc, e, id);
          if (!ak) { err(t.values->loc, "values of '" + t.name + "': " + e, id == "C27" ? "W4" : id.c_str()); break; }
          if (!arg_ok(g->args[k], *ak)) {
            err(t.values->loc, "values of '" + t.name + "': " + g->name + "() argument " + std::to_string(k + 1) + " is " + ak->str() + ", expected " + (g->args[k] == 'A' ? std::string("an ADT") : arg_kind_for(g->args[k]).str()), "W5");
            break;
          }
        }
      }
    }
    for (const auto& r : t.reqs) {
      if (!r.ok()) continue;
      const Expr& c = *r.expr;
      const PredicateDef* p = c.k == Expr::K::Call ? find_predicate(c.s) : nullptr;
      if (!p || c.npos != c.kids.size()) {
        err(r.loc, "requires of '" + t.name + "': '" + r.text + "' is not a keyword-free call of a built-in predicate", "W3");
        continue;
      }
      if (c.kids.size() != p->args.size()) {
        err(r.loc, "requires of '" + t.name + "': " + p->name + "() takes " + std::to_string(p->args.size()) + " arguments, got " + std::to_string(c.kids.size()), "W5");
        continue;
      }
      KindScope sc = scope(FieldKind::Requires);
      for (const auto* o : op_.all_tensors())
        if (o->values) {
          long rk = fixed_rank(*o);
          Kind kk = Kind::integer();
          for (long j = 0; j < std::max(rk, 1L); ++j) kk = Kind::seq(kk);
          sc.tensors.erase(o->name);
          sc.names[o->name] = kk;
        }
      bool bad = false;
      for (size_t k = 0; k < c.kids.size() && !bad; ++k) {
        std::string e, id;
        auto ak = infer_kind(*c.kids[k], sc, e, id);
        if (!ak) { err(r.loc, "requires of '" + t.name + "': " + e, id == "C27" ? "W4" : id.c_str()); bad = true; break; }
        if (!arg_ok(p->args[k], *ak)) {
          err(r.loc, "requires of '" + t.name + "': " + p->name + "() argument " + std::to_string(k + 1) + " is " + ak->str() + ", expected " + (p->args[k] == 'A' ? std::string("an ADT") : arg_kind_for(p->args[k]).str()), "W5");
          bad = true;
        }
      }
      if (bad) continue;
      long rank = fixed_rank(t);
      if (p->rank >= 0) {
        if (rank == -1) err(r.loc, "requires '" + r.text + "' of '" + t.name + "' needs a fixed-rank tensor", "W7");
        else if (rank >= 0 && rank != p->rank)
          err(r.loc, "requires '" + r.text + "' of '" + t.name + "' reads rank " + std::to_string(p->rank) + ", the tensor has rank " + std::to_string(rank), "W7");
      }
    }
  }

  void check_tensors() {
    for (const auto* t : op_.all_tensors()) {
      check_dtype(*t);
      check_shape(*t);
      if (t->optional == TensorDecl::Opt::Expr) check_condition(t->optional_expr, "optional of '" + t->name + "'");
      if (t->nullable) check_condition(*t->nullable, "nullable of '" + t->name + "'");
      if (t->mutated == TensorDecl::Mut::When) check_condition(t->mutated_expr, "mutated of '" + t->name + "'");
      check_values_requires(*t);
    }
    // M12: an op without call-time tensor inputs takes its call device from a `device` param.
    if (op_.inputs.empty() && !op_.param("device"))
      err(op_.loc, "op has no call-time tensor inputs and no 'device' parameter to choose the call device", "M12");
    // M2: optional inputs come after required ones.
    bool seen_optional = false;
    for (const auto& t : op_.inputs) {
      if (t.optional != TensorDecl::Opt::No) seen_optional = true;
      else if (seen_optional) err(t.loc, "required input '" + t.name + "' follows an optional input; optional inputs come last", "M2");
    }
  }

  void check_rules() {
    for (const auto& r : op_.shape_rules) {
      auto k = kind_of(r, FieldKind::Rule, "shape_rules entry");
      if (k && k->t != Kind::T::Bool) err(r.loc, "shape_rules entry '" + r.text + "' is " + k->str() + ", expected Bool", "C29");
    }
  }

  void check_pattern(const YAML::Node& pat, const Kind& k, const Loc& loc, const std::string& fam) {
    if (pat.IsScalar() && pat.Scalar() == "_" && pat.Tag() != "!") return;
    std::string what = "type family '" + fam + "' case";
    if (k.t == Kind::T::Bool) {
      if (!pat.IsScalar() || scalar_type(pat) != ScalarType::Bool) err(loc, what + ": pattern " + (pat.IsScalar() ? pat.Scalar() : "?") + " is not a Bool (expected true, false or _)", "C23");
      return;
    }
    if (k.t == Kind::T::Enum) {
      if (!pat.IsScalar() || !k.members.count(pat.Scalar())) err(loc, what + ": enum literal '" + (pat.IsScalar() ? pat.Scalar() : "?") + "' is not a member of " + k.str(), "C23");
      return;
    }
    if (k.t == Kind::T::Adt || (k.t == Kind::T::Maybe && k.elem->t == Kind::T::Adt)) {
      const Kind& ak = k.t == Kind::T::Adt ? k : *k.elem;
      auto it = m_.adts.find(ak.adt);
      if (it == m_.adts.end()) return;
      if (!pat.IsMap() || pat.size() != 1) { err(loc, what + ": ADT pattern must be {constructor: _} or {constructor: {field: literal}}", "C23"); return; }
      std::string cname = pat.begin()->first.Scalar();
      const AdtCtor* c = it->second.ctor(cname);
      if (!c) { err(loc, what + ": '" + cname + "' is not a constructor of " + ak.adt, "C23"); return; }
      const YAML::Node fields = pat.begin()->second;  // a copy: the iterator proxy is a temporary
      if (fields.IsScalar() && fields.Scalar() == "_") return;
      if (!fields.IsMap()) { err(loc, what + ": constructor fields must be _ or a mapping", "C23"); return; }
      for (const auto& f : fields) {
        std::string fn = f.first.Scalar();
        const Kind* fk = nullptr;
        for (const auto& [n, kk] : c->fields)
          if (n == fn) fk = &kk;
        if (!fk) { err(loc, what + ": constructor '" + cname + "' has no field '" + fn + "'", "C23"); continue; }
        if (!fk->finite()) { err(loc, what + ": field '" + fn + "' is " + fk->str() + ", not a finite field", "C23"); continue; }
        check_pattern(f.second, *fk, loc, fam);
      }
      return;
    }
    if (k.t == Kind::T::Maybe) return;
  }

  void check_families() {
    std::map<std::string, std::set<std::string>> refs;
    for (const auto& f : op_.families) {
      if (!f.ok) continue;
      KindScope fs;
      fs.manifest = &m_;
      fs.field = FieldKind::FamilyMatch;
      for (const auto& [n, k] : f.params) fs.names[n] = k;
      for (const auto& i : op_.forall) fs.declared_elsewhere.insert(i.name);
      for (const auto& p : op_.params) fs.declared_elsewhere.insert(p.name);
      for (const auto& l : op_.lets) fs.declared_elsewhere.insert(l.name);
      for (const auto* t : op_.all_tensors()) fs.declared_elsewhere.insert(t->name);
      std::vector<std::optional<Kind>> subject_kinds;
      for (const auto& me : f.match) {
        if (!me.ok()) { subject_kinds.push_back(std::nullopt); continue; }
        std::string e, id;
        auto k = infer_kind(*me.expr, fs, e, id);
        if (!k) { err(me.loc, "type family '" + f.name + "' match: " + e, id == "C27" ? "C21" : id.c_str()); subject_kinds.push_back(std::nullopt); continue; }
        if (!(k->t == Kind::T::Bool || k->t == Kind::T::Enum || k->t == Kind::T::Adt || (k->t == Kind::T::Maybe && k->elem->t == Kind::T::Adt))) {
          err(me.loc, "type family '" + f.name + "' match '" + me.text + "' is " + k->str() + ", not Bool, an enum or an ADT", "C21");
          subject_kinds.push_back(std::nullopt);
          continue;
        }
        subject_kinds.push_back(k);
      }
      for (const auto& c : f.cases) {
        KindScope cs = fs;
        cs.field = FieldKind::FamilyCase;
        for (size_t k = 0; k < f.match.size(); ++k) {
          const YAML::Node pat = f.match_is_list ? (c.when.IsSequence() && k < c.when.size() ? c.when[k] : YAML::Node()) : c.when;
          if (!pat || !subject_kinds[k]) continue;
          check_pattern(pat, *subject_kinds[k], c.loc, f.name);
          // constructor facts for reads inside the case
          if (pat.IsMap() && pat.size() == 1 && f.match[k].ok() && f.match[k].expr->k == Expr::K::Name)
            cs.ctor_facts[f.match[k].expr->s] = pat.begin()->first.Scalar();
        }
        if (!c.is.parsed) continue;
        if (c.is.shape.is_family) { refs[f.name].insert(c.is.shape.family); continue; }
        check_axes(c.is.shape.items, cs, c.is.loc, "type family '" + f.name + "' case");
      }
    }
    // C34 cycles, C35 unused families
    std::set<std::string> applied;
    for (const auto* t : op_.all_tensors())
      if (t->shape.parsed && t->shape.shape.is_family) applied.insert(t->shape.shape.family);
    for (const auto& [f, rs] : refs) applied.insert(rs.begin(), rs.end());
    for (const auto& f : op_.families) {
      if (!applied.count(f.name)) err(f.loc, "type family '" + f.name + "' is applied by no shape", "C35");
      std::set<std::string> seen;
      std::vector<std::string> stack(refs[f.name].begin(), refs[f.name].end());
      while (!stack.empty()) {
        std::string n = stack.back();
        stack.pop_back();
        if (n == f.name) { err(f.loc, "type family '" + f.name + "' references itself through a cycle", "C34"); break; }
        if (!seen.insert(n).second) continue;
        for (const auto& x : refs[n]) stack.push_back(x);
      }
    }
  }

  void check_combos() {
    if (op_.combos.empty()) return;
    std::set<std::string> keys0;
    for (const auto& [k, v] : op_.combos[0].entries) keys0.insert(k);
    std::set<std::vector<std::pair<std::string, std::string>>> seen;
    for (const auto& row : op_.combos) {
      std::set<std::string> keys;
      for (const auto& [k, v] : row.entries) {
        keys.insert(k);
        std::optional<Kind> kind;
        if (const IndexDecl* i = op_.index(k); i && i->kind && i->kind->t == Kind::T::DType) kind = i->kind;
        if (const ParamDecl* p = op_.param(k); p && p->kind && p->kind->t == Kind::T::DType) kind = p->kind;
        if (!kind) { err(row.loc, "dtype_combos key '" + k + "' is not a DType index or a dtype parameter", "C7"); continue; }
        if (!find_dtype(v) || (!kind->members.empty() && !kind->members.count(v)))
          err(row.loc, "dtype_combos value '" + v + "' for '" + k + "' is not in the set " + kind->str(), "C7");
      }
      if (keys != keys0) err(row.loc, "dtype_combos rows have different keys", "C7");
      auto sorted = row.entries;
      std::sort(sorted.begin(), sorted.end());
      if (!seen.insert(sorted).second) err(row.loc, "dtype_combos row is repeated", "C7");
    }
  }

  void check_effects() {
    int buffers = 0;
    for (const auto& t : op_.inputs)
      if (t.write_only && t.mutated != TensorDecl::Mut::Yes) err(t.loc, "input '" + t.name + "' is write_only without mutated: true", "E1");
    for (const auto& t : op_.outputs) {
      if (t.buffer_out && ++buffers == 2) err(t.loc, "more than one output declares buffer: out", "E4");
      if (t.alias.empty()) continue;
      const TensorDecl* in = op_.tensor(t.alias);
      if (!in || in->role != Role::Input || in->mutated == TensorDecl::Mut::No)
        err(t.alias_loc, "output '" + t.name + "' aliases '" + t.alias + "', which is not an input that may be written", "E2");
      if (t.buffer_out) err(t.loc, "aliased output '" + t.name + "' also declares buffer: out", "E3");
    }
  }

  void check_roofline() {
    if (!op_.roofline.present || !op_.roofline.func.empty()) return;
    for (const auto* f : {&op_.roofline.flops, &op_.roofline.bytes}) {
      if (!*f || !(*f)->ok()) continue;
      auto k = kind_of(**f, FieldKind::Roofline, "roofline");
      if (k && !(k->integral() || k->t == Kind::T::Value)) err((*f)->loc, "roofline formula '" + (*f)->text + "' is " + k->str() + ", expected a number", "S14");
    }
  }

  void check_composition() {
    for (const auto& s : op_.stages)
      if (!s.op.empty() && !m_.op(s.op)) err(s.loc, "composition stage '" + s.name + "': op '" + s.op + "' is not a manifest entry", "S8");
  }

  // Symbolic solvability at a point (C41): which indices the inputs, params and generators fix.
  std::optional<std::string> solvable_unknown(const Expr& e, const std::set<std::string>& solved) {
    std::set<std::string> names;
    free_names(e, names);
    std::vector<std::string> unknown;
    for (const auto& n : names)
      if (!solved.count(n)) unknown.push_back(n);
    if (unknown.size() != 1) return std::nullopt;
    const Expr* cur = &e;
    for (int guard = 0; guard < 64; ++guard) {
      if (cur->k == Expr::K::Name) return cur->s == unknown[0] ? std::optional<std::string>(cur->s) : std::nullopt;
      if (cur->k != Expr::K::Bin) return std::nullopt;
      std::set<std::string> ln;
      free_names(*cur->kids[0], ln);
      bool left = ln.count(unknown[0]) > 0;
      const Expr& other = left ? *cur->kids[1] : *cur->kids[0];
      if (cur->s == "*" && !(other.k == Expr::K::Int && other.ival > 0)) return std::nullopt;
      if (cur->s != "+" && cur->s != "-" && cur->s != "*") return std::nullopt;
      cur = left ? cur->kids[0].get() : cur->kids[1].get();
    }
    return std::nullopt;
  }

  void solve_from_axes(const std::vector<ExprPtr>& axes, std::set<std::string>& solved, bool& changed) {
    size_t unknown_stars = 0;
    for (const auto& ax : axes)
      if (ax->k == Expr::K::Star) {
        std::set<std::string> n;
        free_names(*ax, n);
        for (const auto& x : n)
          if (!solved.count(x)) { ++unknown_stars; break; }
      }
    for (const auto& ax : axes) {
      if (ax->k == Expr::K::Star) {
        const Expr& in = *ax->kids[0];
        if (unknown_stars == 1 && in.k == Expr::K::Name && !solved.count(in.s) && op_.index(in.s)) {
          solved.insert(in.s);
          changed = true;
        }
        continue;
      }
      if (auto u = solvable_unknown(*ax, solved)) {
        solved.insert(*u);
        changed = true;
      }
    }
  }

  void check_points() {
    size_t total = 0;
    auto points = enumerate_points(op_, m_, opts_.point_cap, total);
    if (total > opts_.point_warn)
      d_.add(op_.loc, Level::Warning, op_.name, std::to_string(total) + " discriminant combinations (more than " + std::to_string(opts_.point_warn) + ")" + (total > opts_.point_cap ? "; only the first " + std::to_string(opts_.point_cap) + " are checked" : ""));
    auto disc = discriminant_names(op_);
    std::vector<const ExprField*> domain;
    for (const auto& r : op_.shape_rules) {
      if (!r.ok()) continue;
      std::set<std::string> names;
      free_names(*r.expr, names);
      bool only = true;
      for (const auto& n : names) only = only && (disc.count(n) || op_.tensor(n));
      if (only) domain.push_back(&r);
    }
    for (const auto& pt : points) {
      bool accepted = true;
      for (const auto* r : domain) {
        auto v = try_eval(*r->expr, pt.env);
        if (v && !v->truthy()) accepted = false;
      }
      for (const auto& [n, v] : pt.env.vars)
        if (v.t == Value::T::Adt && !v.adt->fields.empty()) {
          // invariants over finite fields only (others unknown → undecided)
          auto it = m_.adts.find(v.adt->adt);
          const AdtCtor* c = it != m_.adts.end() ? it->second.ctor(v.adt->ctor) : nullptr;
          if (c && c->invariant && c->invariant->ok()) {
            Env e;
            for (const auto& [fk, fv] : v.adt->fields) e.vars[fk] = fv;
            auto r = try_eval(*c->invariant->expr, e);
            if (r && !r->truthy()) accepted = false;
          }
        }
      if (!accepted) continue;
      auto presence = tensor_presence(op_, pt.env);
      std::map<std::string, ResolvedShape> shapes;
      for (const auto* t : op_.all_tensors()) {
        auto p = presence.find(t->name);
        if (p == presence.end() || !p->second || !t->shape.parsed) continue;
        auto rs = resolve_shape(op_, m_, t->shape, pt.env);
        if (t->shape.shape.is_family && rs.error.rfind("match subject", 0) != 0 && (rs.matches != 1)) {
          const FamilyDecl* f = op_.family_decl(t->shape.shape.family);
          if (f && f->ok && rs.error.find("arguments") == std::string::npos)
            once("C37:" + t->name, t->shape.loc, "shape of '" + t->name + "': " + std::to_string(rs.matches) + " cases of '" + t->shape.shape.family + "' match at " + pt.describe() + ", need exactly one", "C37");
        }
        if (rs.ok) shapes[t->name] = rs;
        // C40: a folded constant subexpression raises
        if (rs.ok)
          for (const auto& ax : rs.axes) {
            const Expr& x = ax->k == Expr::K::Star ? *ax->kids[0] : *ax;
            try {
              eval(x, pt.env);
            } catch (const UnknownName&) {
            } catch (const EvalError& e) {
              once("C40:" + t->name, t->shape.loc, "shape of '" + t->name + "' raises at " + pt.describe() + ": " + e.what(), "C40");
            }
          }
        // W6: cross-tensor requires need the other tensor present
        for (const auto& r : t->reqs) {
          if (!r.ok()) continue;
          std::set<std::string> names;
          free_names(*r.expr, names);
          for (const auto& n : names)
            if (op_.tensor(n) && presence.count(n) && !presence[n])
              once("W6:" + t->name + n, r.loc, "requires '" + r.text + "' of '" + t->name + "' reads '" + n + "', which is absent where '" + t->name + "' is present (" + pt.describe() + ")", "W6");
        }
      }
      // C41: the indices a call reads must be solvable (those only generators and requires
      // read are given by the row); C42 uses the full relevance of the row format.
      auto relevant = relevant_names(op_, pt.env, presence, shapes);
      auto call_reads = relevant_names(op_, pt.env, presence, shapes, false);
      std::set<std::string> solved;
      for (const auto& p : op_.params) solved.insert(p.name);
      for (const auto& i : op_.forall)
        if (i.kind && i.kind->is_seq() && i.kind->elem->t == Kind::T::Int) solved.insert(i.name);
      for (int pass = 0; pass < 64; ++pass) {
        bool changed = false;
        for (const auto& l : op_.lets) {
          if (solved.count(l.name) || !l.expr.ok()) continue;
          std::set<std::string> names;
          live_names(*l.expr.expr, pt.env, names);
          bool all = true;
          for (const auto& n : names) all = all && (solved.count(n) || n == "inf");
          if (all) { solved.insert(l.name); changed = true; }
        }
        for (const auto* t : op_.all_tensors()) {
          if (t->role == Role::Output || !shapes.count(t->name)) continue;
          solve_from_axes(shapes[t->name].axes, solved, changed);
          if (t->dtype.ok() && t->dtype.expr->k == Expr::K::Name && op_.index(t->dtype.expr->s) && !solved.count(t->dtype.expr->s)) {
            solved.insert(t->dtype.expr->s);
            changed = true;
          }
        }
        if (!changed) break;
      }
      for (const auto& i : op_.forall) {
        if (!call_reads.count(i.name) || solved.count(i.name)) continue;
        once("C41:" + i.name, i.loc, "index '" + i.name + "' cannot be solved from the inputs (at " + pt.describe() + ")", "C41");
      }
      for (const auto& row : op_.combos)
        for (const auto& [k, v] : row.entries)
          if (!relevant.count(k)) once("C42:" + k, op_.combos_loc, "dtype_combos column '" + k + "' is not relevant at " + pt.describe(), "C42");
    }
  }

  void check_workloads() {
    auto calls = instantiate_op(op_, m_, d_);
    if (op_.status != "implemented" || calls.empty()) return;
    // W23: every optional tensor is passed by one row and omitted by another.
    for (const auto* t : op_.all_tensors()) {
      if (t->role == Role::Output || t->optional == TensorDecl::Opt::No) continue;
      bool passed = false, omitted = false;
      for (const auto& c : calls) {
        const TensorCall* tc = c.tensor(t->name);
        if (!tc) continue;
        (tc->present ? passed : omitted) = true;
      }
      if (!passed) err(t->loc, "optional tensor '" + t->name + "' is never passed by a row", "W23");
      if (!omitted) err(t->loc, "optional tensor '" + t->name + "' is never omitted by a row", "W23");
    }
  }
};

}  // namespace

void validate(const Manifest& m, SpecDiags& d, const ValidateOptions& opts) {
  // S15: ADT invariants read only fields and are Bool.
  for (const auto& [name, adt] : m.adts)
    for (const auto& c : adt.ctors) {
      if (!c.invariant || !c.invariant->ok()) continue;
      KindScope s;
      s.manifest = &m;
      s.field = FieldKind::Invariant;
      for (const auto& [fn, fk] : c.fields) s.names[fn] = fk;
      std::string e, id;
      auto k = infer_kind(*c.invariant->expr, s, e, id);
      if (!k) d.add(c.invariant->loc, Level::Schema, name, "constructor '" + c.name + "' invariant: " + e + " [S15]");
      else if (k->t != Kind::T::Bool) d.add(c.invariant->loc, Level::Schema, name, "constructor '" + c.name + "' invariant is " + k->str() + ", not Bool [S15]");
    }
  for (const auto& op : m.ops) {
    if (!opts.only_op.empty() && op.name != opts.only_op) continue;
    OpChecker(op, m, d, opts).run();
  }
}

namespace {

// What `--op` shows: that op's diagnostics and every loader diagnostic.
SpecDiags shown_for(const SpecDiags& d, const std::string& only_op) {
  SpecDiags shown;
  for (const auto& x : d.all())
    if (only_op.empty() || x.op == only_op || x.level == Level::Loader) shown.add(x.loc, x.level, x.op, x.text);
  return shown;
}

}  // namespace

SpecDiags validate_op(const Manifest& m, const SpecDiags& loaded, const std::string& op, ValidateOptions opts) {
  SpecDiags d = loaded;
  opts.only_op = op;
  if (!m.op(op)) d.add({}, Level::Loader, op, "no op named '" + op + "' in the manifests [L6]");
  validate(m, d, opts);
  return shown_for(d, op);
}

ValidateSummary validate_summary(const std::vector<std::string>& paths, const ValidateOptions& opts) {
  Manifest m;
  SpecDiags d;
  load_paths(paths, m, d);
  if (!opts.only_op.empty() && !m.op(opts.only_op)) d.add({}, Level::Loader, opts.only_op, "no op named '" + opts.only_op + "' in the manifests [L6]");
  validate(m, d, opts);
  ValidateSummary s;
  s.shown = shown_for(d, opts.only_op);
  for (const auto& o : m.ops) s.ops += (opts.only_op.empty() || o.name == opts.only_op) ? 1 : 0;
  s.files = m.files.size();
  return s;
}

int validate_paths(const std::vector<std::string>& paths, const ValidateOptions& opts, std::string& report) {
  const ValidateSummary s = validate_summary(paths, opts);
  report = s.shown.render();
  report += std::to_string(s.ops) + " op(s) in " + std::to_string(s.files) + " file(s): " + std::to_string(s.shown.error_count()) + " error(s)\n";
  return s.shown.has_errors() ? 1 : 0;
}

}  // namespace kir::specs
