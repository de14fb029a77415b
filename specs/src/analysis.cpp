// Points, folding, family branch selection and unification (see analysis.h).
#include "specs/src/analysis.h"

#include "specs/src/fold.h"
#include "specs/src/kind_check.h"
#include "specs/src/yaml_util.h"

namespace kir::specs {

std::string Point::describe() const {
  std::string out;
  for (const auto& [k, v] : env.vars) out += std::string(out.empty() ? "" : ", ") + k + "=" + v.repr();
  for (const auto& [k, p] : env.presence) out += std::string(out.empty() ? "" : ", ") + "present(" + k + ")=" + std::string(p ? "True" : "False");
  return out.empty() ? "(no discriminants)" : out;
}

namespace {

bool is_discriminant_kind(const Kind& k) {
  if (k.t == Kind::T::Bool || k.t == Kind::T::Enum || k.t == Kind::T::Adt) return true;
  return k.t == Kind::T::Maybe;
}

// Values one discriminant param takes (a Maybe param: None, then a "present" marker).
std::vector<std::optional<Value>> param_values(const ParamDecl& p, const Manifest& m) {
  std::vector<std::optional<Value>> out;
  const Kind& k = *p.kind;
  auto base = [&](const Kind& kk, std::vector<std::optional<Value>>& dst) {
    if (kk.t == Kind::T::Bool) { dst.push_back(Value::boolean(false)); dst.push_back(Value::boolean(true)); return true; }
    if (kk.t == Kind::T::Enum) { for (const auto& s : kk.members) dst.push_back(Value::str(s)); return true; }
    if (kk.t == Kind::T::Adt) {
      auto it = m.adts.find(kk.adt);
      if (it == m.adts.end()) return false;
      for (const auto& c : it->second.ctors) {
        // constructor × finite fields; infinite fields stay unknown (absent from the value)
        std::vector<std::vector<std::pair<std::string, Value>>> combos{{}};
        for (const auto& [fn, fk] : c.fields) {
          std::vector<Value> vals;
          if (fk.t == Kind::T::Bool) vals = {Value::boolean(false), Value::boolean(true)};
          else if (fk.t == Kind::T::Enum) for (const auto& s : fk.members) vals.push_back(Value::str(s));
          else continue;
          std::vector<std::vector<std::pair<std::string, Value>>> next;
          for (const auto& cmb : combos)
            for (const auto& v : vals) { auto c2 = cmb; c2.emplace_back(fn, v); next.push_back(c2); }
          combos = next;
        }
        for (const auto& cmb : combos) {
          auto a = std::make_shared<AdtValue>();
          a->adt = kk.adt;
          a->ctor = c.name;
          a->fields = cmb;
          a->partial = cmb.size() != c.fields.size();
          Value v;
          v.t = Value::T::Adt;
          v.adt = a;
          dst.push_back(v);
        }
      }
      return true;
    }
    return false;
  };
  if (k.t == Kind::T::Maybe) {
    out.push_back(Value::none());
    std::vector<std::optional<Value>> inner;
    if (base(*k.elem, inner)) out.insert(out.end(), inner.begin(), inner.end());
    else out.push_back(std::nullopt);  // present, payload not a discriminant
    return out;
  }
  base(k, out);
  return out;
}

}  // namespace

std::set<std::string> discriminant_names(const OpSpec& op) {
  std::set<std::string> out;
  for (const auto& p : op.params)
    if (p.kind && is_discriminant_kind(*p.kind)) out.insert(p.name);
  for (const auto* t : op.all_tensors())
    if (t->optional == TensorDecl::Opt::Own) out.insert(t->name);
  out.insert("out");
  return out;
}

std::vector<Point> enumerate_points(const OpSpec& op, const Manifest& m, size_t cap, size_t& total) {
  struct Axis {
    std::string name;
    bool presence;  // tensor presence axis
    std::vector<std::optional<Value>> values;
  };
  std::vector<Axis> axes;
  for (const auto& p : op.params)
    if (p.kind && is_discriminant_kind(*p.kind)) axes.push_back({p.name, false, param_values(p, m)});
  for (const auto* t : op.all_tensors())
    if (t->optional == TensorDecl::Opt::Own) axes.push_back({t->name, true, {Value::boolean(false), Value::boolean(true)}});
  bool has_out = false;
  for (const auto& t : op.outputs) has_out = has_out || t.buffer_out;
  if (has_out) axes.push_back({"out", true, {Value::boolean(false), Value::boolean(true)}});
  total = 1;
  for (const auto& a : axes) {
    total *= std::max<size_t>(a.values.size(), 1);
    if (total > (size_t{1} << 30)) break;
  }
  std::vector<Point> points;
  std::vector<size_t> idx(axes.size(), 0);
  for (size_t n = 0; n < std::min(total, cap); ++n) {
    Point pt;
    for (size_t k = 0; k < axes.size(); ++k) {
      if (axes[k].values.empty()) continue;
      const auto& v = axes[k].values[idx[k]];
      if (axes[k].presence) {
        pt.env.presence[axes[k].name] = v->b;
      } else if (!v) {
        pt.env.presence[axes[k].name] = true;  // Maybe present with a non-discriminant payload
      } else {
        pt.env.vars[axes[k].name] = *v;
        if (op.param(axes[k].name) && op.param(axes[k].name)->kind->t == Kind::T::Maybe)
          pt.env.presence[axes[k].name] = !v->is_none();
      }
    }
    points.push_back(pt);
    for (size_t k = 0; k < axes.size(); ++k) {
      if (++idx[k] < std::max<size_t>(axes[k].values.size(), 1)) break;
      idx[k] = 0;
    }
  }
  return points;
}

std::optional<Value> try_eval(const Expr& e, const Env& env, std::string* err) {
  try {
    return eval(e, env);
  } catch (const UnknownName& u) {
    if (err) *err = u.what();
    return std::nullopt;
  } catch (const EvalError& x) {
    if (err) *err = x.what();
    return std::nullopt;
  }
}

void live_names(const Expr& e, const Env& env, std::set<std::string>& out) {
  if (e.k == Expr::K::IfExp) {
    live_names(*e.kids[1], env, out);
    auto t = try_eval(*e.kids[1], env);
    if (t) { live_names(t->truthy() ? *e.kids[0] : *e.kids[2], env, out); return; }
    live_names(*e.kids[0], env, out);
    live_names(*e.kids[2], env, out);
    return;
  }
  if (e.k == Expr::K::BoolOp) {
    for (const auto& k : e.kids) {
      live_names(*k, env, out);
      auto v = try_eval(*k, env);
      if (v && (e.s == "and" ? !v->truthy() : v->truthy())) return;
    }
    return;
  }
  if (e.k == Expr::K::Call && (e.s == "present" || e.s == "bytes")) return;  // presence is not a read
  if (e.k == Expr::K::Name) { out.insert(e.s); return; }
  if (e.k == Expr::K::Call && e.kids.size() == 1 && e.kids[0]->k == Expr::K::Comp) {
    std::set<std::string> inner;
    live_names(*e.kids[0]->kids[0], env, inner);
    inner.erase(e.kids[0]->s);
    out.insert(inner.begin(), inner.end());
    live_names(*e.kids[0]->kids[1], env, out);
    return;
  }
  for (const auto& k : e.kids)
    if (k) live_names(*k, env, out);
}

std::map<std::string, bool> tensor_presence(const OpSpec& op, const Env& env) {
  std::map<std::string, bool> out;
  for (const auto* t : op.all_tensors()) {
    if (t->role == Role::Output) {
      if (!t->nullable) { out[t->name] = true; continue; }
      if (t->nullable->ok())
        if (auto v = try_eval(*t->nullable->expr, env)) out[t->name] = v->truthy();
      continue;
    }
    switch (t->optional) {
      case TensorDecl::Opt::No: out[t->name] = true; break;
      case TensorDecl::Opt::Own: {
        auto it = env.presence.find(t->name);
        if (it != env.presence.end()) out[t->name] = it->second;
        break;
      }
      case TensorDecl::Opt::Expr:
        if (t->optional_expr.ok())
          if (auto v = try_eval(*t->optional_expr.expr, env)) out[t->name] = v->truthy();
        break;
    }
  }
  return out;
}

std::set<std::string> relevant_names(const OpSpec& op, const Env& env, const std::map<std::string, bool>& presence,
                                     const std::map<std::string, ResolvedShape>& shapes, bool metadata) {
  std::set<std::string> out;
  for (const auto* t : op.all_tensors()) {
    auto p = presence.find(t->name);
    if (p == presence.end() || !p->second) continue;
    auto s = shapes.find(t->name);
    if (s != shapes.end() && s->second.ok)
      for (const auto& ax : s->second.axes) live_names(*ax, env, out);
    if (t->dtype.ok()) live_names(*t->dtype.expr, env, out);
    if (!metadata) continue;
    if (t->values && t->values->ok()) live_names(*t->values->expr, env, out);
    for (const auto& r : t->reqs)
      if (r.ok()) live_names(*r.expr, env, out);
  }
  for (const auto& r : op.shape_rules)
    if (r.ok()) live_names(*r.expr, env, out);
  if (op.roofline.flops && op.roofline.flops->ok()) live_names(*op.roofline.flops->expr, env, out);
  if (op.roofline.bytes && op.roofline.bytes->ok()) live_names(*op.roofline.bytes->expr, env, out);
  for (int pass = 0; pass < 64; ++pass) {
    size_t before = out.size();
    for (const auto& l : op.lets)
      if (out.count(l.name) && l.expr.ok()) live_names(*l.expr.expr, env, out);
    if (out.size() == before) break;
  }
  return out;
}

bool pattern_matches(const YAML::Node& pat, const Value& v) {
  if (pat.IsScalar() && pat.Scalar() == "_" && pat.Tag() != "!") return true;
  if (pat.IsMap()) {
    if (v.t != Value::T::Adt || pat.size() != 1) return false;
    auto it = pat.begin();
    if (it->first.Scalar() != v.adt->ctor) return false;
    const YAML::Node fields = it->second;  // a copy: the iterator proxy is a temporary
    if (fields.IsScalar() && fields.Scalar() == "_") return true;
    if (!fields.IsMap()) return false;
    for (const auto& f : fields) {
      const Value* fv = v.adt->field(f.first.Scalar());
      if (!fv) return false;  // field not finite: unknown at this point
      if (!pattern_matches(f.second, *fv)) return false;
    }
    return true;
  }
  if (!pat.IsScalar()) return false;
  Value p = scalar_value(pat);
  if (v.t == Value::T::Bool) return p.t == Value::T::Bool && p.b == v.b;
  if (v.t == Value::T::Str) return p.t == Value::T::Str && p.s == v.s;
  return p == v;
}

ExprPtr substitute(const ExprPtr& e, const std::map<std::string, ExprPtr>& subst) {
  if (!e) return e;
  if (e->k == Expr::K::Name) {
    auto it = subst.find(e->s);
    return it != subst.end() ? it->second : e;
  }
  if (e->k == Expr::K::Call && (e->s == "present") ) {
    // present(formal) where the formal is bound to present(t): keep the argument's meaning
    if (e->kids.size() == 1 && e->kids[0]->k == Expr::K::Name) {
      auto it = subst.find(e->kids[0]->s);
      if (it != subst.end() && it->second->k == Expr::K::Name) {
        auto c = std::make_shared<Expr>(*e);
        c->kids = {it->second};
        return c;
      }
    }
    return e;
  }
  auto c = std::make_shared<Expr>(*e);
  bool changed = false;
  for (auto& k : c->kids) {
    auto n = substitute(k, subst);
    if (n != k) { k = n; changed = true; }
  }
  return changed ? c : e;
}

ResolvedShape resolve_shape(const OpSpec& op, const Manifest&, const ShapeField& s, const Env& env) {
  ResolvedShape r;
  if (!s.parsed) { r.error = "shape did not parse"; return r; }
  if (!s.shape.is_family) {
    for (const auto& ax : s.shape.items) r.axes.push_back(fold_decided(ax, env));
    r.ok = true;
    return r;
  }
  r.family = s.shape.family;
  const FamilyDecl* f = op.family_decl(s.shape.family);
  if (!f) { r.error = "type family '" + s.shape.family + "' is not declared"; return r; }
  if (f->params.size() != s.shape.items.size()) {
    r.error = "type family '" + f->name + "' takes " + std::to_string(f->params.size()) + " arguments, got " + std::to_string(s.shape.items.size());
    return r;
  }
  std::map<std::string, ExprPtr> subst;
  Env fenv;
  for (size_t k = 0; k < f->params.size(); ++k) {
    subst[f->params[k].first] = s.shape.items[k];
    if (auto v = try_eval(*s.shape.items[k], env)) fenv.vars[f->params[k].first] = *v;
  }
  std::vector<Value> subjects;
  for (const auto& mexpr : f->match) {
    if (!mexpr.ok()) { r.error = "match did not parse"; return r; }
    std::string err;
    auto v = try_eval(*mexpr.expr, fenv, &err);
    if (!v) { r.error = "match subject '" + mexpr.text + "' is undecided: " + err; return r; }
    subjects.push_back(*v);
  }
  const FamilyCase* chosen = nullptr;
  for (const auto& c : f->cases) {
    bool all = true;
    if (f->match_is_list) {
      if (!c.when.IsSequence() || c.when.size() != subjects.size()) continue;
      for (size_t k = 0; k < subjects.size() && all; ++k) all = pattern_matches(c.when[k], subjects[k]);
    } else {
      all = pattern_matches(c.when, subjects[0]);
    }
    if (all) {
      ++r.matches;
      if (!chosen) chosen = &c;
    }
  }
  if (!chosen) { r.error = "no case of '" + f->name + "' matches"; return r; }
  if (!chosen->is.parsed || chosen->is.shape.is_family) { r.error = "case shape is not a list"; return r; }
  for (const auto& ax : chosen->is.shape.items) r.axes.push_back(fold_decided(substitute(ax, subst), env));
  r.ok = true;
  return r;
}

namespace {

// Finds the single unknown name of an affine axis expression. Returns false when not affine
// in one unknown or when more than one name is unknown.
bool single_unknown(const Expr& e, const Env& env, std::string& name, int& count) {
  std::set<std::string> names;
  free_names(e, names);
  count = 0;
  for (const auto& n : names)
    if (!env.vars.count(n)) { name = n; ++count; }
  return count == 1;
}

}  // namespace

std::string unify_axis(const Expr& axis, const mpz_class& size, Env& env, bool& bound) {
  bound = false;
  std::string unknown;
  int count = 0;
  single_unknown(axis, env, unknown, count);
  if (count == 0) {
    std::string err;
    auto v = try_eval(axis, env, &err);
    if (!v) return "axis '" + unparse(axis) + "' cannot be evaluated: " + err;
    if (!v->is_intlike()) return "axis '" + unparse(axis) + "' is " + v->repr() + ", not an integer";
    if (v->as_int() != size) return "axis '" + unparse(axis) + "' is " + v->as_int().get_str() + ", expected " + size.get_str();
    return "";
  }
  if (count > 1) return "";  // not solvable here; may be later
  // Affine forms: M, a*M, M*a, x + y, x - y with the unknown on one side.
  const Expr* e = &axis;
  mpz_class target = size;
  for (int guard = 0; guard < 64; ++guard) {
    if (e->k == Expr::K::Name && e->s == unknown) {
      env.vars[unknown] = Value::integer(target);
      bound = true;
      if (target < 0) return "is not " + unparse(axis) + " for a Dim (" + unknown + " would be " + target.get_str() + ")";
      return "";
    }
    if (e->k == Expr::K::Bin) {
      std::set<std::string> ln;
      free_names(*e->kids[0], ln);
      bool left_has = ln.count(unknown) > 0;
      const Expr& other = left_has ? *e->kids[1] : *e->kids[0];
      auto ov = try_eval(other, env);
      if (!ov || !ov->is_int()) return "";
      if (e->s == "+") { target -= ov->i; e = left_has ? e->kids[0].get() : e->kids[1].get(); continue; }
      if (e->s == "-") {
        if (left_has) target += ov->i;
        else target = ov->i - target;
        e = left_has ? e->kids[0].get() : e->kids[1].get();
        continue;
      }
      if (e->s == "*") {
        if (ov->i <= 0) return "";
        mpz_class q, r;
        mpz_fdiv_qr(q.get_mpz_t(), r.get_mpz_t(), target.get_mpz_t(), ov->i.get_mpz_t());
        if (r != 0) return "is not " + unparse(axis) + " for a Dim (" + size.get_str() + " is not divisible by " + ov->i.get_str() + ")";
        target = q;
        e = left_has ? e->kids[0].get() : e->kids[1].get();
        continue;
      }
    }
    return "";  // not affine: check-only later
  }
  return "";
}

std::string unify_shape(const std::vector<ExprPtr>& axes, const std::vector<mpz_class>& shape, Env& env,
                        const std::set<std::string>& shape_indices) {
  size_t stars = 0, star_at = 0;
  for (size_t k = 0; k < axes.size(); ++k)
    if (axes[k]->k == Expr::K::Star) { ++stars; star_at = k; }
  std::vector<std::pair<ExprPtr, mpz_class>> pairs;
  if (stars == 0) {
    if (axes.size() != shape.size())
      return "has rank " + std::to_string(shape.size()) + ", declared rank " + std::to_string(axes.size());
    for (size_t k = 0; k < axes.size(); ++k) pairs.emplace_back(axes[k], shape[k]);
  } else {
    // Resolve splices whose length is known; at most one of unknown length.
    std::vector<std::vector<mpz_class>> known(axes.size());
    std::vector<bool> is_known(axes.size(), true);
    size_t fixed = 0, unknown_star = axes.size();
    for (size_t k = 0; k < axes.size(); ++k) {
      if (axes[k]->k != Expr::K::Star) { ++fixed; continue; }
      auto v = try_eval(*axes[k]->kids[0], env);
      if (v && v->is_seq()) {
        try { known[k] = to_ints(*v, "splice"); } catch (const EvalError& ex) { return ex.what(); }
        fixed += known[k].size();
      } else {
        if (unknown_star != axes.size()) return "";  // two unknown splices: not solvable here
        unknown_star = k;
        is_known[k] = false;
      }
    }
    (void)star_at;
    if (unknown_star == axes.size() ? fixed != shape.size() : fixed > shape.size())
      return "yields rank " + std::to_string(shape.size()) + ", declared rank " + std::to_string(fixed) + (unknown_star == axes.size() ? "" : "+");
    size_t pos = 0;
    for (size_t k = 0; k < axes.size(); ++k) {
      if (axes[k]->k != Expr::K::Star) { pairs.emplace_back(axes[k], shape[pos++]); continue; }
      if (is_known[k]) {
        for (const auto& d : known[k]) {
          if (shape[pos] != d) return "spliced axis " + std::to_string(pos) + " is " + shape[pos].get_str() + ", expected " + d.get_str();
          ++pos;
        }
        continue;
      }
      size_t len = shape.size() - fixed;
      const Expr& inner = *axes[k]->kids[0];
      if (inner.k != Expr::K::Name || !shape_indices.count(inner.s)) return "";
      std::vector<Value> seg;
      for (size_t j = 0; j < len; ++j) seg.push_back(Value::integer(shape[pos + j]));
      env.vars[inner.s] = Value::sequence(std::move(seg));
      pos += len;
    }
  }
  // Bind in passes so later axes can use earlier solutions (order independent).
  for (int pass = 0; pass < 4; ++pass)
    for (const auto& [ax, sz] : pairs) {
      bool bound = false;
      std::string err = unify_axis(*ax, sz, env, bound);
      if (!err.empty()) return err;
    }
  return "";
}

}  // namespace kir::specs
