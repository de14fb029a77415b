// Workload instantiation (see instantiate.h). The steps follow reference §7.2; the comments
// name the step each block implements.
#include "specs/src/instantiate.h"

#include <regex>
#include <set>

#include "specs/src/analysis.h"
#include "specs/src/convert.h"
#include "specs/src/dtypes.h"
#include "specs/src/generators.h"
#include "specs/src/kind_check.h"
#include "specs/src/predicates.h"
#include "specs/src/yaml_util.h"

namespace kir::specs {

mpz_class TensorCall::bytes() const {
  mpz_class n = 1;
  for (const auto& d : shape) n *= d;
  const SpecDType* dt = find_dtype(dtype);
  mpz_class bits = n * (dt ? dt->bits : 8);
  mpz_class q;
  mpz_cdiv_q_ui(q.get_mpz_t(), bits.get_mpz_t(), 8);
  return q;
}

const TensorCall* Call::tensor(const std::string& n) const {
  for (const auto& t : tensors)
    if (t.name == n) return &t;
  return nullptr;
}

namespace {

struct RowFail {};

// A tensor's dtype expression of one row. Registered dtype names are constants there
// (`coalesce_dtype(out_dtype, float32)`) unless a param or index of the same name shadows them.
std::optional<Value> eval_dtype(const Expr& e, const Env& env, std::string* err = nullptr) {
  Env with = env;
  for (const auto& d : all_dtypes()) with.vars.emplace(std::string(d.name), Value::str(std::string(d.name)));
  return try_eval(e, with, err);
}

struct RowCtx {
  const OpSpec& op;
  SpecDiags& d;
  Loc loc;
  std::string label;
  std::string case_desc;
  void err(const std::string& text, const char* id) const {
    d.add(loc, Level::Signature, op.name, "row '" + label + "'" + (case_desc.empty() ? "" : " " + case_desc) + ": " + text + " [" + id + "]");
  }
  [[noreturn]] void fail(const std::string& text, const char* id) const {
    err(text, id);
    throw RowFail{};
  }
};

bool is_dtype_index(const IndexDecl& i) { return i.kind && i.kind->t == Kind::T::DType; }
bool is_dtype_param(const ParamDecl& p) { return p.kind && p.kind->t == Kind::T::DType; }

std::set<std::string> shape_index_names(const OpSpec& op) {
  std::set<std::string> s;
  for (const auto& i : op.forall)
    if (i.kind && i.kind->is_shape()) s.insert(i.name);
  return s;
}

std::string case_description(const std::vector<std::pair<std::string, std::string>>& dc) {
  if (dc.empty()) return "";
  std::string out = "{";
  for (size_t k = 0; k < dc.size(); ++k) out += (k ? ", " : "") + dc[k].first + ": " + dc[k].second;
  return out + "}";
}

class RowInstantiator {
 public:
  RowInstantiator(const OpSpec& op, const Manifest& m, SpecDiags& d, const InstantiateOptions& o)
      : op_(op), m_(m), d_(d), opts_(o) {}

  void row(const YAML::Node& r, std::vector<Call>& calls) {
    RowCtx c{op_, d_, loc_of(r, op_.file), "?", ""};
    if (!r.IsMap()) { c.err("row is not a mapping", "W9"); return; }
    // label, some, dtype_cases (W9)
    const YAML::Node lab = r["label"];
    static const std::regex label_re("[A-Za-z0-9._-]+");
    if (!lab || !lab.IsScalar() || lab.Scalar().empty() || !std::regex_match(lab.Scalar(), label_re)) {
      c.label = lab && lab.IsScalar() ? lab.Scalar() : "?";
      c.err("label must be a non-empty [A-Za-z0-9._-] string", "W9");
      return;
    }
    c.label = lab.Scalar();
    if (!opts_.only_label.empty() && c.label != opts_.only_label) return;
    if (c.label.size() > opts_.max_label_len) { c.err("label is longer than " + std::to_string(opts_.max_label_len) + " characters", "W9"); return; }
    try {
      run(r, c, calls);
    } catch (const RowFail&) {
    } catch (const YAML::Exception& e) {
      c.err(std::string("malformed row: ") + e.what(), "W9");
    }
  }

 private:
  const OpSpec& op_;
  const Manifest& m_;
  SpecDiags& d_;
  const InstantiateOptions& opts_;

  void run(const YAML::Node& r, RowCtx& c, std::vector<Call>& calls) {
    // Step 1: conversion of row values and defaults.
    std::set<std::string> some;
    if (r["some"]) {
      if (!r["some"].IsSequence()) c.fail("'some' must be a list of tensor names", "W9");
      for (const auto& s : r["some"]) {
        std::string n = s.IsScalar() ? s.Scalar() : "";
        const TensorDecl* t = op_.tensor(n);
        if (!t || t->role == Role::Output || t->optional != TensorDecl::Opt::Own)
          c.fail("'some' names '" + n + "', which is not an optional: true tensor", "W9");
        if (!some.insert(n).second) c.fail("'some' names '" + n + "' twice", "W9");
      }
    }
    std::vector<std::vector<std::pair<std::string, std::string>>> cases;
    if (r["dtype_cases"]) {
      const YAML::Node& dc = r["dtype_cases"];
      if (!dc.IsSequence() || dc.size() == 0) c.fail("dtype_cases must be a non-empty list of non-empty mappings", "W9");
      for (const auto& item : dc) {
        if (!item.IsMap() || item.size() == 0) c.fail("dtype_cases must be a non-empty list of non-empty mappings", "W9");
        std::vector<std::pair<std::string, std::string>> one;
        for (const auto& kv : item) one.emplace_back(kv.first.Scalar(), kv.second.IsScalar() ? kv.second.Scalar() : "?");
        cases.push_back(one);
      }
    } else {
      cases.push_back({});
    }
    Env base;
    std::vector<std::pair<std::string, Value>> params;
    std::set<std::string> row_indices;
    for (const auto& kv : r) {
      std::string k = kv.first.IsScalar() ? kv.first.Scalar() : "?";
      if (k == "label" || k == "some" || k == "dtype_cases") continue;
      if (op_.param(k)) continue;
      const IndexDecl* ix = op_.index(k);
      if (!ix) c.fail("row key '" + k + "' is neither an index nor a param", "W10");
      if (is_dtype_index(*ix)) c.fail("row key '" + k + "' is a DType index; give it in dtype_cases", "W10");
      if (!ix->kind) c.fail("index '" + k + "' has no valid kind", "W11");
      std::string err;
      std::optional<Value> v;
      if (ix->kind->is_seq() && ix->kind->elem->t == Kind::T::Int) v = convert_seq_int(kv.second, err);
      else v = convert_value(kv.second, *ix->kind, m_, err);
      if (!v) c.fail("index '" + k + "': " + err, "W11");
      base.vars[k] = *v;
      row_indices.insert(k);
    }
    for (const auto& p : op_.params) {
      if (!p.kind) c.fail("parameter '" + p.name + "' has a malformed type", "W1");
      YAML::Node given = r[p.name];
      if (!given && !p.has_default) c.fail("parameter '" + p.name + "' has no default and is not given", "W12");
      YAML::Node n = given ? given : p.default_node;
      std::string err;
      auto v = convert_value(n, *p.kind, m_, err);
      if (!v) c.fail("parameter '" + p.name + "': " + err, "W11");
      params.emplace_back(p.name, *v);
      base.vars[p.name] = *v;
      if (p.kind->t == Kind::T::Maybe) base.presence[p.name] = !v->is_none();
    }
    // Step 2: the discriminant point.
    for (const auto* t : op_.all_tensors())
      if (t->optional == TensorDecl::Opt::Own) base.presence[t->name] = some.count(t->name) > 0;
    base.presence["out"] = false;
    auto disc = discriminant_names(op_);
    for (const auto& rule : op_.shape_rules) {
      if (!rule.ok()) continue;
      std::set<std::string> names;
      free_names(*rule.expr, names);
      bool only_disc = true;
      for (const auto& n : names) only_disc = only_disc && (disc.count(n) || (op_.tensor(n) != nullptr));
      if (!only_disc) continue;
      std::string err;
      auto v = try_eval(*rule.expr, base, &err);
      if (v && !v->truthy()) c.fail("refinement fails: " + rule.text, "W13");
    }
    for (const auto& dc : cases) {
      RowCtx cc = c;
      cc.case_desc = case_description(dc);
      try {
        one_case(r, cc, base, params, row_indices, dc, calls);
      } catch (const RowFail&) {
      }
    }
  }

  void one_case(const YAML::Node& r, RowCtx& c, const Env& base, const std::vector<std::pair<std::string, Value>>& params,
                const std::set<std::string>& row_indices, const std::vector<std::pair<std::string, std::string>>& dc,
                std::vector<Call>& calls) {
    Env env = base;
    // dtype case keys and values (W15)
    for (const auto& [k, v] : dc) {
      const IndexDecl* ix = op_.index(k);
      if (!ix || !is_dtype_index(*ix)) c.fail("dtype_cases key '" + k + "' is not a DType index", "W15");
      const SpecDType* dt = find_dtype(v);
      if (!dt || (!ix->kind->members.empty() && !ix->kind->members.count(v)))
        c.fail("dtype '" + v + "' for '" + k + "' is outside " + ix->kind->str(), "W15");
      env.vars[k] = Value::str(v);
    }
    // Step 3: branch selection.
    auto presence = tensor_presence(op_, env);
    std::map<std::string, ResolvedShape> shapes;
    for (const auto* t : op_.all_tensors()) {
      if (!presence.count(t->name)) c.fail("presence of '" + t->name + "' is undecided at this point", "W13");
      if (!presence[t->name]) continue;
      auto rs = resolve_shape(op_, m_, t->shape, env);
      if (!rs.ok) c.fail("shape of '" + t->name + "': " + rs.error, "W18");
      if (rs.matches > 1) c.fail("shape of '" + t->name + "': " + std::to_string(rs.matches) + " cases of '" + rs.family + "' match, need exactly one", "W18");
      shapes[t->name] = rs;
    }
    // Step 4: the row gives exactly the needed indices; dtype keys and combos.
    auto relevant = relevant_names(op_, env, presence, shapes);
    std::set<std::string> dc_keys;
    for (const auto& [k, v] : dc) dc_keys.insert(k);
    for (const auto& ix : op_.forall) {
      if (!is_dtype_index(ix)) continue;
      if (relevant.count(ix.name) && !dc_keys.count(ix.name)) c.fail("dtype_cases misses the relevant DType index '" + ix.name + "'", "W15");
      if (!relevant.count(ix.name) && dc_keys.count(ix.name)) c.fail("dtype_cases assigns '" + ix.name + "', which is not relevant here", "W15");
    }
    if (!op_.combos.empty()) {
      bool found = false;
      for (const auto& row : op_.combos) {
        bool all = true;
        for (const auto& [k, v] : row.entries) {
          auto it = env.vars.find(k);
          all = all && it != env.vars.end() && it->second.t == Value::T::Str && it->second.s == v;
        }
        found = found || all;
      }
      if (!found) {
        std::string a;
        for (const auto& [k, v] : op_.combos[0].entries) {
          auto it = env.vars.find(k);
          a += (a.empty() ? "" : ", ") + k + ": " + (it != env.vars.end() ? (it->second.t == Value::T::Str ? it->second.s : it->second.repr()) : "?");
        }
        c.fail("dtype assignment {" + a + "} is not a row of dtype_combos", "W15");
      }
    }
    for (const auto& n : row_indices)
      if (!relevant.count(n)) c.fail("row gives index '" + n + "', which is not relevant on this branch", "W14");
    // Step 5: fixpoint of lets and generators with unification.
    std::map<std::string, Value> generated;
    auto shape_ix = shape_index_names(op_);
    for (int pass = 0; pass < 256; ++pass) {
      bool changed = false;
      for (const auto& l : op_.lets) {
        if (env.vars.count(l.name) || !l.expr.ok()) continue;
        try {
          env.vars[l.name] = eval(*l.expr.expr, env);
          changed = true;
        } catch (const UnknownName&) {
        } catch (const EvalError& e) {
          c.fail("let '" + l.name + "': " + e.what(), "W18");
        }
      }
      for (const auto* t : op_.all_tensors()) {
        if (!presence[t->name] || !t->values || !t->values->ok() || generated.count(t->name)) continue;
        const Expr& call = *t->values->expr;
        if (call.k != Expr::K::Call || !find_generator(call.s)) c.fail("values of '" + t->name + "' is not a call of a built-in generator", "W3");
        std::vector<Value> args;
        bool known = true;
        for (const auto& a : call.kids) {
          try {
            args.push_back(eval(*a, env));
          } catch (const UnknownName&) {
            known = false;
            break;
          } catch (const EvalError& e) {
            c.fail("argument of the generator of '" + t->name + "': " + e.what(), "W17");
          }
        }
        if (!known) continue;
        Value v;
        try {
          v = run_generator(call.s, args, op_.name + ":" + t->name);
        } catch (const EvalError& e) {
          c.fail("generator '" + call.s + "' of '" + t->name + "': " + e.what(), "W17");
        }
        std::string dt;
        if (t->dtype.ok()) {
          auto dv = eval_dtype(*t->dtype.expr, env);
          if (dv && dv->t == Value::T::Str) dt = dv->s;
        }
        if (dt != "int32" && dt != "int64") c.fail("generated tensor '" + t->name + "' has dtype " + (dt.empty() ? "?" : dt) + "; generated tensors are int32 or int64", "W17");
        std::vector<long> gshape;
        std::vector<mpz_class> flat;
        try {
          flat = flatten(v, gshape);
        } catch (const EvalError& e) {
          c.fail(std::string("generator result of '") + t->name + "': " + e.what(), "W17");
        }
        mpz_class lo = dt == "int32" ? mpz_class("-2147483648") : mpz_class("-9223372036854775808");
        mpz_class hi = dt == "int32" ? mpz_class("2147483647") : mpz_class("9223372036854775807");
        for (const auto& x : flat)
          if (x < lo || x > hi) c.fail("generated value " + x.get_str() + " of '" + t->name + "' is outside " + dt, "W17");
        const GeneratorDef* g = find_generator(call.s);
        long rank = g->rank >= 0 ? g->rank : static_cast<long>(gshape.size());
        if (static_cast<long>(gshape.size()) < rank) {  // empty results: pad the shape
          while (static_cast<long>(gshape.size()) < rank) gshape.push_back(0);
        }
        const auto& axes = shapes[t->name].axes;
        bool has_star = false;
        for (const auto& ax : axes) has_star = has_star || ax->k == Expr::K::Star;
        if (!has_star && static_cast<long>(axes.size()) != rank)
          c.fail("generator '" + call.s + "' of '" + t->name + "' yields rank " + std::to_string(rank) + ", declared rank " + std::to_string(axes.size()), "W17");
        std::vector<mpz_class> concrete;
        for (long x : gshape) concrete.push_back(x);
        std::set<std::string> arg_names;  // indices the generator reads must come from the row
        free_names(call, arg_names);
        for (const auto& ax : axes) {
          if (ax->k == Expr::K::Star) continue;
          // An axis whose only row-given name is not a generator argument: the generator solves it.
          std::set<std::string> names;
          free_names(*ax, names);
          std::vector<std::string> given;
          bool others_known = true;
          for (const auto& n : names) {
            if (row_indices.count(n) && !arg_names.count(n)) given.push_back(n);
            else if (!env.vars.count(n)) others_known = false;
          }
          if (given.size() == 1 && others_known)
            c.fail("row gives index '" + given[0] + "', which the generator of '" + t->name + "' solves", "W14");
        }
        std::string uerr = unify_shape(axes, concrete, env, shape_ix);
        if (!uerr.empty()) c.fail("generated '" + t->name + "' " + uerr, "W18");
        generated[t->name] = v;
        changed = true;
      }
      if (!changed) break;
    }
    // A relevant index still unknown is the row's omission (also when a generator waits for it).
    for (const auto& n : relevant) {
      const IndexDecl* ix = op_.index(n);
      if (ix && !is_dtype_index(*ix) && !env.vars.count(n)) c.fail("row misses the relevant index '" + n + "'", "W14");
    }
    for (const auto* t : op_.all_tensors())
      if (presence[t->name] && t->values && !generated.count(t->name))
        c.fail("arguments of the generator of '" + t->name + "' never become known", "W16");
    // Step 6: refinements, concrete shapes and dtypes.
    for (const auto& rule : op_.shape_rules) {
      if (!rule.ok()) continue;
      std::string err;
      auto v = try_eval(*rule.expr, env, &err);
      if (!v) c.fail("refinement '" + rule.text + "' cannot be evaluated: " + err, "W18");
      if (!v->truthy()) c.fail("refinement fails: " + rule.text, "W18");
    }
    Call call;
    call.op = op_.name;
    call.label = c.label;
    call.loc = c.loc;
    call.params = params;
    for (const auto* t : op_.all_tensors()) {
      TensorCall tc;
      tc.name = t->name;
      tc.role = t->role;
      tc.present = presence[t->name];
      tc.cpu = t->device_cpu;
      if (tc.present) {
        for (const auto& ax : shapes[t->name].axes) {
          std::string err;
          if (ax->k == Expr::K::Star) {
            auto v = try_eval(*ax->kids[0], env, &err);
            if (!v || !v->is_seq()) c.fail("splice '" + unparse(*ax) + "' of '" + t->name + "' is not a known sequence" + (err.empty() ? "" : ": " + err), "W18");
            for (const auto& x : v->seq) {
              if (!x.is_int() || x.i < 0) c.fail("spliced axis " + x.repr() + " of '" + t->name + "' is not a non-negative integer", "W18");
              tc.shape.push_back(x.i);
            }
            continue;
          }
          auto v = try_eval(*ax, env, &err);
          if (!v) c.fail("axis '" + unparse(*ax) + "' of '" + t->name + "' cannot be evaluated: " + err, "W18");
          if (!v->is_int() || v->i < 0) c.fail("axis '" + unparse(*ax) + "' of '" + t->name + "' is " + v->repr() + ", not a non-negative integer", "W18");
          tc.shape.push_back(v->i);
        }
        if (t->dtype.ok()) {
          std::string err;
          auto v = eval_dtype(*t->dtype.expr, env, &err);
          if (v && v->t == Value::T::Str) tc.dtype = v->s;
          else c.fail("dtype of '" + t->name + "' cannot be evaluated" + (err.empty() ? "" : ": " + err), "W18");
          if (!find_dtype(tc.dtype)) c.fail("dtype of '" + t->name + "' is '" + tc.dtype + "', not a registered dtype", "W18");
        }
        if (generated.count(t->name)) {
          tc.values = generated[t->name];
          std::vector<long> gshape;
          flatten(*tc.values, gshape);
          bool same = gshape.size() == tc.shape.size();
          for (size_t k = 0; same && k < gshape.size(); ++k) same = tc.shape[k] == gshape[k];
          if (!same && !(tc.shape.size() == gshape.size() + 0)) c.fail("generated contents of '" + t->name + "' do not have the declared shape", "W18");
        }
      }
      call.tensors.push_back(tc);
    }
    // Step 7: requires on generated contents.
    Env renv = env;
    for (const auto& [n, v] : generated) renv.vars[n] = v;
    for (const auto* t : op_.all_tensors()) {
      if (!presence[t->name] || t->reqs.empty()) continue;
      if (!t->values) c.fail("tensor '" + t->name + "' declares requires but no values", "W2");
      for (const auto& req : t->reqs) {
        if (!req.ok()) continue;
        const Expr& p = *req.expr;
        if (p.k != Expr::K::Call || !find_predicate(p.s) || p.npos != p.kids.size())
          c.fail("requires '" + req.text + "' of '" + t->name + "' is not a keyword-free call of a built-in predicate", "W3");
        std::set<std::string> names;
        free_names(p, names);
        for (const auto& n : names) {
          const TensorDecl* other = op_.tensor(n);
          if (other && !presence[n]) c.fail("requires '" + req.text + "' of '" + t->name + "' reads '" + n + "', which is absent where '" + t->name + "' is present", "W6");
        }
        std::vector<Value> args;
        try {
          for (const auto& a : p.kids) args.push_back(eval(*a, renv));
          if (!check_predicate(p.s, generated[t->name], args)) c.fail("requires '" + req.text + "' of '" + t->name + "' fails on the generated values", "W19");
        } catch (const EvalError& e) {
          c.fail("requires '" + req.text + "' of '" + t->name + "' raises: " + e.what(), "W19");
        }
      }
    }
    // Step 8: re-inference from the instantiated input shapes must agree with the row.
    Env inf = base;
    for (const auto& [k, v] : dc) inf.vars[k] = Value::str(v);
    for (const auto& n : row_indices) {
      const IndexDecl* ix = op_.index(n);
      if (ix && ix->kind && ix->kind->is_seq() && ix->kind->elem->t == Kind::T::Int) inf.vars[n] = env.vars[n];
    }
    for (int pass = 0; pass < 4; ++pass) {
      for (const auto* t : op_.all_tensors()) {
        if (t->role == Role::Output || !presence[t->name]) continue;
        const TensorCall* tc = call.tensor(t->name);
        std::string uerr = unify_shape(shapes[t->name].axes, tc->shape, inf, shape_ix);
        if (!uerr.empty()) c.fail("re-inference from '" + t->name + "': " + uerr, "W20");
      }
      for (const auto& l : op_.lets)
        if (!inf.vars.count(l.name) && l.expr.ok())
          if (auto v = try_eval(*l.expr.expr, inf)) inf.vars[l.name] = *v;
    }
    for (const auto& n : row_indices) {
      auto it = inf.vars.find(n);
      if (it != inf.vars.end() && it->second != env.vars[n])
        c.fail("re-inference gives " + n + "=" + it->second.repr() + ", the row has " + env.vars[n].repr(), "W20");
    }
    // Step 9: the call.
    std::string id = c.label;
    for (const auto& ix : op_.forall)
      for (const auto& [k, v] : dc)
        if (k == ix.name) id += "-" + v;
    for (const auto& [pn, pv] : params) {
      const ParamDecl* p = op_.param(pn);
      if (p && is_dtype_param(*p) && pv.t == Value::T::Str) id += "-" + pv.s;
      if (p && p->kind && p->kind->t == Kind::T::Maybe && p->kind->elem->t == Kind::T::DType && pv.t == Value::T::Str) id += "-" + pv.s;
    }
    call.case_id = id;
    for (const auto& [k, v] : env.vars) {
      const IndexDecl* ix = op_.index(k);
      if (ix && ix->kind && ix->kind->is_seq() && ix->kind->elem->t == Kind::T::Int) continue;
      if (ix || op_.param(k) || op_.let(k)) call.ix[k] = v;
    }
    try {
      if (op_.roofline.func.empty()) eval_roofline(op_, call);  // a func roofline leaves flops/bytes unset
    } catch (const EvalError& e) {
      c.fail(std::string("roofline: ") + e.what(), "S14");
    }
    (void)r;
    calls.push_back(std::move(call));
  }
};

}  // namespace

namespace {

Env call_env(const Call& call) {
  Env env;
  env.vars = call.ix;
  for (const auto& t : call.tensors) env.presence[t.name] = t.present;
  env.presence["out"] = false;
  for (const auto& [k, v] : call.params)
    if (v.is_none()) env.presence[k] = false;
  return env;
}

}  // namespace

bool input_written(const TensorDecl& t, const Call& call) {
  if (t.mutated == TensorDecl::Mut::Yes) return true;
  return t.mutated == TensorDecl::Mut::When && t.mutated_expr.ok() && eval(*t.mutated_expr.expr, call_env(call)).truthy();
}

void eval_roofline(const OpSpec& op, Call& call) {
  if (!op.roofline.present) return;
  if (!op.roofline.func.empty())  // a Python function reading the call view: nothing kir can run
    throw EvalError("not implemented: func roofline " + op.roofline.func +
                    " is Python; kir evaluates inline flops/bytes formulas (write `flops:` and `bytes:` instead)");
  Env env = call_env(call);
  env.allow_bytes = true;
  for (const auto& t : call.tensors)
    if (t.present) env.bytes[t.name] = t.bytes();
  if (op.roofline.flops && op.roofline.flops->ok()) call.flops = eval(*op.roofline.flops->expr, env);
  if (op.roofline.bytes && op.roofline.bytes->ok()) {
    call.bytes = eval(*op.roofline.bytes->expr, env);
    return;
  }
  // Default byte counting from effects: each tensor read/written once in full.
  mpz_class total = 0;
  for (const auto* t : op.all_tensors()) {
    const TensorCall* tc = call.tensor(t->name);
    if (!tc || !tc->present) continue;
    mpz_class b = tc->bytes();
    if (t->role == Role::Output) {
      if (!t->alias.empty()) {
        const TensorDecl* in = op.tensor(t->alias);
        if (in && input_written(*in, call)) continue;  // the output is the written input
      }
      total += b;
      continue;
    }
    const bool written = input_written(*t, call);
    if (t->write_only) total += b;
    else if (written) total += 2 * b;
    else total += b;
  }
  call.bytes = Value::integer(total);
}

std::vector<Call> instantiate_row(const OpSpec& op, const YAML::Node& row, const Manifest& m, SpecDiags& d,
                                  const InstantiateOptions& opts) {
  std::vector<Call> calls;
  RowInstantiator ri(op, m, d, opts);
  ri.row(row, calls);
  return calls;
}

std::vector<Call> instantiate_op(const OpSpec& op, const Manifest& m, SpecDiags& d, const InstantiateOptions& opts) {
  std::vector<Call> calls;
  if (!op.workloads || !op.workloads.IsSequence() || op.workloads.size() == 0) {
    d.add(op.workloads ? op.workloads_loc : op.loc, Level::Signature, op.name, "workloads must be a non-empty list [W8]");
    return calls;
  }
  RowInstantiator ri(op, m, d, opts);
  for (const auto& r : op.workloads) ri.row(r, calls);
  std::map<std::string, Loc> ids;
  for (const auto& c : calls) {
    auto it = ids.find(c.case_id);
    if (it != ids.end()) d.add(c.loc, Level::Signature, op.name, "duplicate case id '" + c.case_id + "' [W22]");
    else ids[c.case_id] = c.loc;
  }
  return calls;
}

}  // namespace kir::specs
