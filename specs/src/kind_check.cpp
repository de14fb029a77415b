// The kind checker (see kind_check.h).
#include "specs/src/kind_check.h"

#include <algorithm>
#include <functional>

#include "specs/src/dtypes.h"
#include "specs/src/generators.h"
#include "specs/src/predicates.h"
#include "specs/src/primitives.h"

namespace kir::specs {
namespace {

struct KindError {
  std::string msg;
  std::string id;
};

[[noreturn]] void kerr(std::string msg, const char* id = "C32") { throw KindError{std::move(msg), id}; }

struct Facts {
  std::set<std::string> present;
  std::map<std::string, std::string> ctor;
  std::map<std::string, std::set<std::string>> only;      // enum/dtype restricted to these
  std::map<std::string, std::set<std::string>> excluded;  // enum/dtype minus these
  Facts merged(const Facts& o) const {
    Facts f = *this;
    f.present.insert(o.present.begin(), o.present.end());
    for (const auto& [k, v] : o.ctor) f.ctor[k] = v;
    for (const auto& [k, v] : o.only) {
      auto it = f.only.find(k);
      if (it == f.only.end()) { f.only[k] = v; continue; }
      std::set<std::string> both;
      for (const auto& x : v)
        if (it->second.count(x)) both.insert(x);
      it->second = both;
    }
    for (const auto& [k, v] : o.excluded) f.excluded[k].insert(v.begin(), v.end());
    return f;
  }
  // Narrows an enum or dtype kind read through `text`; a union narrows its literal members
  // (see narrow_union).
  Kind narrow(const std::string& text, Kind k) const {
    if (k.t == Kind::T::Union) return narrow_union(text, std::move(k));
    if (k.t != Kind::T::Enum && k.t != Kind::T::DType) return k;
    auto o = only.find(text);
    if (o != only.end()) {
      if (k.members.empty()) k.members = o->second;
      else {
        std::set<std::string> both;
        for (const auto& x : k.members)
          if (o->second.count(x)) both.insert(x);
        k.members = both;
      }
    }
    auto e = excluded.find(text);
    if (e != excluded.end() && !k.members.empty())
      for (const auto& x : e->second) k.members.erase(x);
    return k;
  }
  // A union with literal members (`int | tuple[int] | 'valid' | 'same'`): where `x == 'lit'`
  // (or `x in (...)`) holds, x is that literal, so the union narrows to the enum of those
  // literals; where `x != 'lit'` holds the literal leaves the union, and a union left with one
  // member is that member.
  Kind narrow_union(const std::string& text, Kind k) const {
    auto lit = std::find_if(k.alts.begin(), k.alts.end(), [](const Kind& a) { return a.t == Kind::T::Enum; });
    if (lit == k.alts.end()) return k;
    auto o = only.find(text);
    if (o != only.end()) {
      std::set<std::string> both;
      for (const auto& x : lit->members)
        if (o->second.count(x)) both.insert(x);
      return Kind::enumeration(both);
    }
    auto e = excluded.find(text);
    if (e == excluded.end()) return k;
    for (const auto& x : e->second) lit->members.erase(x);
    if (lit->members.empty()) k.alts.erase(lit);
    if (k.alts.size() == 1) return k.alts[0];
    return k;
  }
};

// The enum member of a union kind (its string literals), or null.
const Kind* union_literals(const Kind& k) {
  if (k.t != Kind::T::Union) return nullptr;
  for (const auto& a : k.alts)
    if (a.t == Kind::T::Enum) return &a;
  return nullptr;
}

Kind join(const Kind& a, const Kind& b, bool& ok) {
  ok = true;
  if (a == b) return a;
  if (a.integral() && b.integral()) return Kind::integer();
  if (a.t == Kind::T::None) return Kind::maybe(b);
  if (b.t == Kind::T::None) return Kind::maybe(a);
  if (a.t == Kind::T::Value && (b.integral() || b.t == Kind::T::Value)) return Kind::value();
  if (b.t == Kind::T::Value && a.integral()) return Kind::value();
  if ((a.t == Kind::T::Enum || a.t == Kind::T::Str) && (b.t == Kind::T::Enum || b.t == Kind::T::Str)) return Kind::simple(Kind::T::Str);
  if (a.t == Kind::T::DType && b.t == Kind::T::DType) {
    Kind k = a;
    if (a.members.empty() || b.members.empty()) k.members.clear();
    else k.members.insert(b.members.begin(), b.members.end());
    return k;
  }
  if (a.t == Kind::T::Bool && b.t == Kind::T::Bool) return a;
  if (a.is_seq() && b.is_seq()) {
    bool ok2;
    Kind e = join(*a.elem, *b.elem, ok2);
    if (ok2) return Kind::seq(e, a.length == b.length ? a.length : -1);
  }
  ok = false;
  return a;
}

bool is_str_lit(const Expr& e) { return e.k == Expr::K::Str; }

class Checker {
 public:
  explicit Checker(const KindScope& s) : sc_(s) {}

  Kind infer(const Expr& e, const Facts& f) {
    switch (e.k) {
      case Expr::K::Int: return e.ival >= 0 ? Kind::dim() : Kind::integer();
      case Expr::K::Float: return Kind::value();
      case Expr::K::Str: return Kind::simple(Kind::T::Str);
      case Expr::K::Bool: return Kind::boolean();
      case Expr::K::None: return Kind::simple(Kind::T::None);
      case Expr::K::Name: return f.narrow(e.s, name(e.s));
      case Expr::K::List: kerr("a list literal is outside the expression language (use a tuple)", "C13");
      case Expr::K::Tuple: {
        if (e.kids.empty()) return Kind::seq(Kind::dim(), 0);
        Kind el = infer(*e.kids[0], f);
        for (size_t k = 1; k < e.kids.size(); ++k) {
          bool ok;
          Kind o = infer(*e.kids[k], f);
          el = join(el, o, ok);
          if (!ok) el = Kind::value();
        }
        return Kind::seq(el, static_cast<long>(e.kids.size()));
      }
      case Expr::K::Unary: {
        if (e.s == "not") {
          Kind k = infer(*e.kids[0], f);
          if (k.t != Kind::T::Bool) kerr("operand of 'not' is " + k.str() + ", expected Bool");
          return k;
        }
        Kind k = infer(*e.kids[0], f);
        if (k.t == Kind::T::Value) return value_ok(k, "unary '" + e.s + "'");
        if (!k.integral()) kerr("operand of unary '" + e.s + "' is " + k.str() + ", expected an integer");
        return e.s == "-" ? Kind::integer() : k;
      }
      case Expr::K::Bin: {
        Kind a = infer(*e.kids[0], f), b = infer(*e.kids[1], f);
        for (const Kind* k : {&a, &b}) {
          if (k->t == Kind::T::Value) continue;
          if (!k->integral()) kerr("operand of '" + e.s + "' is " + k->str() + ", expected an integer");
        }
        if (a.t == Kind::T::Value || b.t == Kind::T::Value) return value_ok(Kind::value(), "'" + e.s + "'");
        if ((e.s == "+" || e.s == "*") && a.t == Kind::T::Dim && b.t == Kind::T::Dim) return Kind::dim();
        if ((e.s == "//" || e.s == "%") && a.t == Kind::T::Dim && e.kids[1]->k == Expr::K::Int) {
          if (e.kids[1]->ival <= 0) kerr("'" + e.s + "' by the non-positive literal " + e.kids[1]->ival.get_str(), "C39");
          return Kind::dim();
        }
        return Kind::integer();
      }
      case Expr::K::BoolOp: {
        Facts cur = f;
        for (const auto& k : e.kids) {
          Kind kk = infer(*k, cur);
          if (kk.t != Kind::T::Bool) kerr("operand of '" + e.s + "' is " + kk.str() + ", expected Bool");
          cur = cur.merged(e.s == "and" ? when_true(*k) : when_false(*k));
        }
        return Kind::boolean();
      }
      case Expr::K::Compare: {
        for (size_t k = 0; k < e.ops.size(); ++k) compare(e.ops[k], *e.kids[k], *e.kids[k + 1], f);
        return Kind::boolean();
      }
      case Expr::K::IfExp: {
        Kind t = infer(*e.kids[1], f);
        if (t.t != Kind::T::Bool) kerr("condition is " + t.str() + ", expected Bool");
        Kind a = infer(*e.kids[0], f.merged(when_true(*e.kids[1])));
        Kind b = infer(*e.kids[2], f.merged(when_false(*e.kids[1])));
        bool ok;
        Kind j = join(a, b, ok);
        if (!ok) kerr("conditional arms of kinds " + a.str() + " and " + b.str() + " have no common kind");
        return j;
      }
      case Expr::K::Subscript: {
        Kind base = infer(*e.kids[0], f);
        if (!base.is_seq()) kerr("'" + unparse(*e.kids[0]) + "' is " + base.str() + ", not a sequence");
        const Expr& ix = *e.kids[1];
        if (ix.k == Expr::K::Slice) {
          for (const auto& p : ix.kids)
            if (p) {
              Kind pk = infer(*p, f);
              if (!pk.integral() && pk.t != Kind::T::None) kerr("slice bound is " + pk.str() + ", expected an integer");
            }
          return Kind::seq(*base.elem);
        }
        Kind ik = infer(ix, f);
        if (!ik.integral()) kerr("sequence index is " + ik.str() + ", expected an integer");
        if (ix.k == Expr::K::Int && base.length >= 0) {
          mpz_class i = ix.ival;
          if (i >= base.length || i < -base.length) kerr("index " + i.get_str() + " is outside the fixed length " + std::to_string(base.length));
        }
        if (ix.k == Expr::K::Unary && ix.s == "-" && ix.kids[0]->k == Expr::K::Int && base.length >= 0 && ix.kids[0]->ival > base.length)
          kerr("index -" + ix.kids[0]->ival.get_str() + " is outside the fixed length " + std::to_string(base.length));
        return *base.elem;
      }
      case Expr::K::Slice: kerr("a slice is allowed only inside a subscript", "C13");
      case Expr::K::Attr: return f.narrow(unparse(e), attr(e, f));
      case Expr::K::Call: return call(e, f);
      case Expr::K::Comp: kerr("a comprehension is allowed only as the argument of all, sum, max or min", "C15");
      case Expr::K::Star: kerr("a '*' splice is allowed only in shape lists", "C13");
    }
    kerr("unsupported expression", "C13");
  }

  Facts when_true(const Expr& e) {
    Facts out;
    if (e.k == Expr::K::Call && e.s == "present" && e.kids.size() == 1 && e.kids[0]->k == Expr::K::Name) out.present.insert(e.kids[0]->s);
    if (e.k == Expr::K::Unary && e.s == "not") return when_false(*e.kids[0]);
    if (e.k == Expr::K::BoolOp && e.s == "and")
      for (const auto& k : e.kids) out = out.merged(when_true(*k));
    if (e.k == Expr::K::Compare && e.ops.size() == 1 && e.ops[0] == "==") ctor_fact(e, out);
    if (e.k == Expr::K::Compare && e.ops.size() == 1) member_fact(e, true, out);
    return out;
  }
  Facts when_false(const Expr& e) {
    Facts out;
    if (e.k == Expr::K::Unary && e.s == "not") return when_true(*e.kids[0]);
    if (e.k == Expr::K::BoolOp && e.s == "or")
      for (const auto& k : e.kids) out = out.merged(when_false(*k));
    if (e.k == Expr::K::Compare && e.ops.size() == 1 && e.ops[0] == "!=") ctor_fact(e, out);
    if (e.k == Expr::K::Compare && e.ops.size() == 1) member_fact(e, false, out);
    return out;
  }

 private:
  const KindScope& sc_;
  std::vector<std::pair<std::string, Kind>> locals_;

  // `x == 'a'`, `x in ('a', 'b')` restrict x where they hold; `!=` / `not in` subtract.
  static void member_fact(const Expr& e, bool holds, Facts& out) {
    const std::string& op = e.ops[0];
    const Expr& l = *e.kids[0];
    const Expr& r = *e.kids[1];
    std::set<std::string> lits;
    std::string subject;
    if ((op == "==" || op == "!=") && (r.k == Expr::K::Str || l.k == Expr::K::Str) && !(r.k == Expr::K::Str && l.k == Expr::K::Str)) {
      lits.insert(r.k == Expr::K::Str ? r.s : l.s);
      subject = unparse(r.k == Expr::K::Str ? l : r);
    } else if ((op == "in" || op == "not in") && r.k == Expr::K::Tuple) {
      for (const auto& x : r.kids) {
        if (x->k != Expr::K::Str) return;
        lits.insert(x->s);
      }
      subject = unparse(l);
    } else {
      return;
    }
    bool positive = (op == "==" || op == "in") == holds;
    if (positive) out.only[subject] = lits;
    else out.excluded[subject].insert(lits.begin(), lits.end());
  }

  static void ctor_fact(const Expr& e, Facts& out) {
    const Expr& l = *e.kids[0];
    const Expr& r = *e.kids[1];
    if (l.k == Expr::K::Attr && l.s == "kind" && r.k == Expr::K::Str) out.ctor[unparse(*l.kids[0])] = r.s;
  }

  Kind value_ok(Kind k, const std::string& what) {
    if (sc_.field != FieldKind::Rule && sc_.field != FieldKind::Roofline && sc_.field != FieldKind::Let)
      kerr(what + " on a Value-kind operand: it takes no part in types (allowed only in shape_rules and roofline)", "C26");
    return k;
  }

  Kind name(const std::string& n) {
    for (auto it = locals_.rbegin(); it != locals_.rend(); ++it)
      if (it->first == n) return it->second;
    if (sc_.tensors.count(n)) kerr("tensor '" + n + "' is read as a value; use its shape or present(...)", "C25");
    if (sc_.families.count(n)) kerr("type family '" + n + "' is used as a value");
    if (sc_.seq_indices.count(n) && sc_.field != FieldKind::Values && sc_.field != FieldKind::Requires)
      kerr("value list '" + n + "' appears outside `values` (a Seq[Int] index is only a generator argument)", "C28");
    if (sc_.failed_lets.count(n)) kerr("let '" + n + "' failed its own check", kFailedLetId);
    auto it = sc_.names.find(n);
    if (it != sc_.names.end()) {
      if (sc_.value_params.count(n) && sc_.field != FieldKind::Rule && sc_.field != FieldKind::Roofline)
        kerr("parameter '" + n + "' is a Value: it takes no part in types (allowed only in shape_rules and roofline)", "C26");
      return it->second;
    }
    if (n == "inf") return Kind::value();
    if (n == "out") kerr("'out' can only be read as present(out)", "C27");
    if (sc_.declared_elsewhere.count(n)) kerr("name '" + n + "' is not declared in this scope (family cases see only their formals)", "C27");
    kerr("name '" + n + "' is not declared", "C27");
  }

  Kind attr(const Expr& e, const Facts& f) {
    std::string base_text = unparse(*e.kids[0]);
    Kind base = infer(*e.kids[0], f);
    if (e.s == "value") {
      if (base.t != Kind::T::Maybe) kerr("'.value' on '" + base_text + "' of kind " + base.str() + ", which is not a Maybe");
      if (!f.present.count(base_text)) kerr("'" + base_text + ".value' is read where present(" + base_text + ") is false", "C38");
      return *base.elem;
    }
    if (base.t != Kind::T::Adt) kerr("attribute '" + e.s + "' of '" + base_text + "' of kind " + base.str() + ": not a declared field");
    const AdtDecl* adt = sc_.manifest ? (sc_.manifest->adts.count(base.adt) ? &sc_.manifest->adts.at(base.adt) : nullptr) : nullptr;
    if (!adt) kerr("ADT '" + base.adt + "' is not declared in types.yaml");
    // The constructors `base` may hold here: its kind's own, a family case's, and what the
    // guards on `base.kind` left (`==`/`in` keep, `!=`/`not in` and the false operands of an
    // `or` remove).
    std::set<std::string> ctors;
    for (const auto& c : adt->ctors) ctors.insert(c.name);
    auto fc = f.ctor.find(base_text);
    auto sfc = sc_.ctor_facts.find(base_text);
    if (!base.ctor.empty()) ctors = {base.ctor};
    else if (fc != f.ctor.end()) ctors = {fc->second};
    else if (sfc != sc_.ctor_facts.end()) ctors = {sfc->second};
    ctors = f.narrow(base_text + ".kind", Kind::enumeration(ctors)).members;
    if (e.s == "kind") return Kind::enumeration(ctors);
    std::optional<Kind> found;
    for (const auto& c : adt->ctors)
      for (const auto& [fn, fk] : c.fields)
        if (fn == e.s && (!found || ctors.count(c.name))) found = fk;
    if (!found) kerr("ADT '" + adt->name + "' has no field '" + e.s + "'");
    for (const auto& c : adt->ctors) {
      if (!ctors.count(c.name)) continue;
      bool has = false;
      for (const auto& fld : c.fields) has = has || fld.first == e.s;
      // C31 in a type family's case (checked with the constructor its pattern matched), C38
      // elsewhere (lets, rules, other fields: under a `.kind` guard)
      if (!has)
        kerr("constructor '" + c.name + "' lacks field '" + e.s + "' (read '" + base_text + "." + e.s + "' only where '" + base_text +
                 "' matched a constructor that has it)",
             sc_.field == FieldKind::FamilyCase ? "C31" : "C38");
    }
    return *found;
  }

  void compare(const std::string& op, const Expr& le, const Expr& re, const Facts& f) {
    Kind a = infer(le, f), b = infer(re, f);
    if (a.t == Kind::T::None || b.t == Kind::T::None) kerr("'" + unparse(le) + " " + op + " " + unparse(re) + "' compares with None (use present(...))");
    if (op == "in" || op == "not in") {
      if (!b.is_seq()) kerr("'" + op + "' needs a sequence on the right, got " + b.str());
      if ((a.t == Kind::T::Enum || a.t == Kind::T::DType || union_literals(a)) && re.k == Expr::K::Tuple)
        for (const auto& x : re.kids)
          if (is_str_lit(*x)) member_check(a, x->s, unparse(le));
      return;
    }
    if (op == "==" || op == "!=") {
      // a union is comparable with its literal members
      if ((a.t == Kind::T::Enum || a.t == Kind::T::DType || union_literals(a)) && is_str_lit(re)) { member_check(a, re.s, unparse(le)); return; }
      if ((b.t == Kind::T::Enum || b.t == Kind::T::DType || union_literals(b)) && is_str_lit(le)) { member_check(b, le.s, unparse(re)); return; }
      bool ok;
      join(a, b, ok);
      if (!ok && !(a.t == Kind::T::Value || b.t == Kind::T::Value)) kerr("'" + unparse(le) + " " + op + " " + unparse(re) + "' compares incomparable kinds " + a.str() + " and " + b.str());
      return;
    }
    bool orderable = (a.integral() || a.t == Kind::T::Value) && (b.integral() || b.t == Kind::T::Value);
    orderable = orderable || (a.is_seq() && b.is_seq());
    if (!orderable) kerr("ordering '" + op + "' between " + a.str() + " and " + b.str() + " (only Ints or sequences are ordered)");
    if (a.t == Kind::T::Value || b.t == Kind::T::Value) value_ok(Kind::value(), "'" + op + "'");
  }

  void member_check(const Kind& k, const std::string& lit, const std::string& what) {
    if (k.t == Kind::T::DType) {
      if (!find_dtype(lit) || (!k.members.empty() && !k.members.count(lit)))
        kerr("'" + what + "' compares with '" + lit + "', a value " + k.str() + " never takes");
      return;
    }
    const Kind* lits = k.t == Kind::T::Union ? union_literals(k) : &k;
    if (!lits->members.count(lit)) kerr("'" + what + "' compares with '" + lit + "', a value " + k.str() + " never takes");
  }

  Kind call(const Expr& e, const Facts& f) {
    const std::string& fn = e.s;
    if (fn == "present") {
      if (e.kids.size() != 1 || e.npos != 1 || e.kids[0]->k != Expr::K::Name) kerr("present() takes one name");
      const std::string& n = e.kids[0]->s;
      if (n == "out") {
        if (!sc_.has_out) kerr("present(out) needs an output with buffer: out");
        return Kind::boolean();
      }
      if (sc_.tensors.count(n) || sc_.maybe_names.count(n)) return Kind::boolean();
      auto it = sc_.names.find(n);
      if (it != sc_.names.end() && it->second.t == Kind::T::Maybe) return Kind::boolean();
      kerr("present(" + n + ") names no tensor, Maybe parameter or out");
    }
    if (fn == "bytes") {
      if (sc_.field != FieldKind::Roofline) kerr("bytes() is allowed only in roofline formulas", "C14");
      if (e.kids.size() != 1 || e.kids[0]->k != Expr::K::Name || !sc_.tensors.count(e.kids[0]->s))
        kerr("bytes() argument must be a single tensor name", "S14");
      return Kind::dim();
    }
    const PrimitiveDef* def = find_primitive(fn);
    if (!def) {
      if (find_generator(fn)) kerr("generator '" + fn + "' may appear only in a tensor's values", "C14");
      if (find_predicate(fn)) kerr("predicate '" + fn + "' may appear only in a tensor's requires", "C14");
      kerr("'" + fn + "' is not a built-in primitive", "C14");
    }
    bool comp_arg = e.kids.size() == 1 && e.kids[0]->k == Expr::K::Comp;
    if (comp_arg && fn != "all" && fn != "sum" && fn != "max" && fn != "min")
      kerr("a comprehension is allowed only as the argument of all, sum, max or min", "C15");
    std::vector<Kind> args;
    std::vector<const Expr*> arg_exprs;
    if (comp_arg) {
      const Expr& c = *e.kids[0];
      Kind it = infer(*c.kids[1], f);
      if (!it.is_seq()) kerr("comprehension iterates over " + it.str() + ", not a sequence");
      locals_.emplace_back(c.s, *it.elem);
      Kind el = infer(*c.kids[0], f);
      locals_.pop_back();
      args.push_back(Kind::seq(el));
      arg_exprs.push_back(&c);
    } else {
      // bind by slot to check arity (messages match the evaluator's)
      std::vector<Value> pos(e.npos);
      std::vector<std::pair<std::string, Value>> kws;
      for (size_t k = e.npos; k < e.kids.size(); ++k) kws.emplace_back(e.kwnames[k - e.npos], Value::none());
      try {
        bind_args(*def, pos, kws);
      } catch (const EvalError& err) {
        kerr(err.what());
      }
      std::vector<std::pair<size_t, const Expr*>> slots;
      for (size_t k = 0; k < e.kids.size(); ++k) {
        size_t slot = k;
        if (k >= e.npos)
          for (size_t s = 0; s < def->params.size(); ++s)
            if (def->params[s] == e.kwnames[k - e.npos]) slot = s;
        if (def->variadic) slot = 0;
        slots.emplace_back(slot, e.kids[k].get());
      }
      args.resize(def->variadic ? e.kids.size() : def->params.size(), Kind::simple(Kind::T::None));
      arg_exprs.resize(args.size(), nullptr);
      for (size_t k = 0; k < slots.size(); ++k) {
        size_t idx = def->variadic ? k : slots[k].first;
        args[idx] = infer(*slots[k].second, f);
        arg_exprs[idx] = slots[k].second;
      }
    }
    return primitive_kind(fn, args, arg_exprs);
  }

  static bool shape_like(const Kind& k) { return k.is_seq() && k.elem && (k.elem->integral() || k.elem->t == Kind::T::Value); }
  void need(bool ok, const std::string& fn, size_t i, const Kind& k, const std::string& expected) {
    if (!ok) kerr(fn + "() argument " + std::to_string(i + 1) + " is " + k.str() + ", expected " + expected);
  }
  static bool dtype_like(const Kind& k) { return k.t == Kind::T::DType || k.t == Kind::T::Str; }
  static bool intish(const Kind& k) { return k.integral() || k.t == Kind::T::Value; }

  Kind primitive_kind(const std::string& fn, const std::vector<Kind>& a, const std::vector<const Expr*>& ex) {
    std::function<bool(const Kind&)> axes_ok = [&](const Kind& k) {
      if (k.t == Kind::T::Maybe) return axes_ok(*k.elem);
      if (k.t == Kind::T::Union) return std::all_of(k.alts.begin(), k.alts.end(), axes_ok);
      return k.t == Kind::T::None || k.integral() || (k.is_seq() && k.elem && k.elem->integral());
    };
    if (fn == "broadcast") {
      for (size_t i = 0; i < a.size(); ++i) need(shape_like(a[i]), fn, i, a[i], "Shape");
      return Kind::shape();
    }
    if (fn == "reduced") {
      need(shape_like(a[0]), fn, 0, a[0], "Shape");
      need(axes_ok(a[1]), fn, 1, a[1], "axes (None, Int or Seq[Int])");
      need(a[2].t == Kind::T::Bool, fn, 2, a[2], "Bool");
      if (ex[3] && ex[3]->k == Expr::K::Str) {
        if (ex[3]->s != "full" && ex[3]->s != "noop" && ex[3]->s != "reject") kerr("reduced() mode '" + ex[3]->s + "' is not one of 'full', 'noop', 'reject'");
      } else if (a[3].t == Kind::T::Enum) {
        for (const auto& m : a[3].members)
          if (m != "full" && m != "noop" && m != "reject") kerr("reduced() mode '" + m + "' is not one of 'full', 'noop', 'reject'");
      } else {
        need(false, fn, 3, a[3], "'full' | 'noop' | 'reject'");
      }
      return Kind::shape();
    }
    if (fn == "valid_axes" || fn == "unique_axes") {
      need(axes_ok(a[0]), fn, 0, a[0], "axes (None, Int or Seq[Int])");
      need(a[1].integral(), fn, 1, a[1], "Int");
      return Kind::boolean();
    }
    if (fn == "per_axis") {
      // a union qualifies only without literal members (narrow them away with a guard first)
      std::function<bool(const Kind&)> per_axis_ok = [&](const Kind& k) {
        if (k.t == Kind::T::Union) return std::all_of(k.alts.begin(), k.alts.end(), per_axis_ok);
        if (k.t == Kind::T::Maybe) return per_axis_ok(*k.elem);
        return k.integral() || k.t == Kind::T::None || k.is_seq();
      };
      need(per_axis_ok(a[0]), fn, 0, a[0], "Int | Seq[Maybe[Int]] | None");
      need(a[1].integral(), fn, 1, a[1], "Int");
      need(a[2].integral(), fn, 2, a[2], "Int");
      need(a[3].t == Kind::T::None || a[3].integral() || a[3].t == Kind::T::Maybe, fn, 3, a[3], "Maybe[Int]");
      return Kind::integer();
    }
    if (fn == "ceil_div") {
      need(intish(a[0]), fn, 0, a[0], "Int");
      need(intish(a[1]), fn, 1, a[1], "Int");
      if (ex[1] && ex[1]->k == Expr::K::Int && ex[1]->ival <= 0) kerr("ceil_div() by the non-positive literal " + ex[1]->ival.get_str(), "C39");
      return a[0].t == Kind::T::Dim && a[1].t == Kind::T::Dim ? Kind::dim() : Kind::integer();
    }
    if (fn == "len") {
      need(a[0].is_seq(), fn, 0, a[0], "a sequence");
      return Kind::dim();
    }
    if (fn == "prod" || fn == "sum") {
      need(shape_like(a[0]) || (a[0].is_seq() && a[0].elem->t == Kind::T::Bool), fn, 0, a[0], "Seq[Int]");
      return a[0].elem->t == Kind::T::Dim ? Kind::dim() : Kind::integer();
    }
    if (fn == "max" || fn == "min") {
      need(shape_like(a[0]), fn, 0, a[0], "Seq[Int]");
      need(a[1].t == Kind::T::None || a[1].integral() || a[1].t == Kind::T::Value, fn, 1, a[1], "Maybe[Int]");
      return *a[0].elem;
    }
    if (fn == "all") {
      need(a[0].is_seq() && a[0].elem && a[0].elem->t == Kind::T::Bool, fn, 0, a[0], "Seq[Bool]");
      return Kind::boolean();
    }
    if (fn == "conv.out" || fn == "pool.out") {
      for (size_t i = 0; i < 5; ++i) need(a[i].integral(), fn, i, a[i], "Int");
      if (fn == "pool.out") {
        need(a[5].t == Kind::T::Bool, fn, 5, a[5], "Bool");
        return Kind::dim();
      }
      return Kind::integer();
    }
    if (fn == "moe.capacity") {
      need(a[0].t == Kind::T::Adt, fn, 0, a[0], "an ADT (MGroupedLayout)");
      need(a[1].integral(), fn, 1, a[1], "Int");
      need(a[2].integral(), fn, 2, a[2], "Int");
      return Kind::dim();
    }
    if (fn == "mhc.expansion") {
      need(a[0].integral(), fn, 0, a[0], "Int");
      return Kind::dim();
    }
    if (fn == "promote_int_to_float") {
      need(dtype_like(a[0]), fn, 0, a[0], "DType");
      return Kind::dtype({});
    }
    if (fn == "coalesce_dtype") {
      need(a[0].t == Kind::T::Maybe && a[0].elem->t == Kind::T::DType, fn, 0, a[0], "Maybe[DType]");
      need(dtype_like(a[1]), fn, 1, a[1], "DType");
      Kind k = *a[0].elem;
      bool ok;
      return join(k, a[1].t == Kind::T::DType ? a[1] : Kind::dtype({}), ok);
    }
    if (fn == "balanced_sizes" || fn == "repeat") {
      need(a[0].integral(), fn, 0, a[0], "Int");
      need(a[1].integral(), fn, 1, a[1], "Int");
      return Kind::seq(Kind::integer());
    }
    if (fn == "category") return Kind::enumeration({"bool", "int", "float", "complex"});
    if (fn == "representable") {
      need(dtype_like(a[1]), fn, 1, a[1], "DType");
      return Kind::boolean();
    }
    kerr("'" + fn + "' is not implemented in the kind checker", "C14");
  }
};

}  // namespace

KindScope op_scope(const OpSpec& op, const Manifest& m, FieldKind field, const std::map<std::string, Kind>& let_kinds) {
  KindScope s;
  s.manifest = &m;
  s.field = field;
  for (const auto& i : op.forall) {
    if (!i.kind) continue;
    if (i.kind->is_seq() && i.kind->elem->t == Kind::T::Int) s.seq_indices.insert(i.name);
    s.names[i.name] = *i.kind;
  }
  for (const auto& p : op.params) {
    if (!p.kind) continue;
    s.names[p.name] = *p.kind;
    if (p.kind->t == Kind::T::Value || (p.kind->t == Kind::T::Maybe && p.kind->elem->t == Kind::T::Value)) s.value_params.insert(p.name);
    if (p.kind->t == Kind::T::Maybe) s.maybe_names.insert(p.name);
  }
  for (const auto* t : op.all_tensors()) s.tensors.insert(t->name);
  for (const auto& f : op.families) s.families.insert(f.name);
  for (const auto& [n, k] : let_kinds) s.names[n] = k;
  for (const auto& t : op.outputs) s.has_out = s.has_out || t.buffer_out;
  return s;
}

std::optional<Kind> infer_kind(const Expr& e, const KindScope& scope, std::string& err, std::string& id) {
  Checker c(scope);
  try {
    Facts f;
    for (const auto& [k, v] : scope.ctor_facts) f.ctor[k] = v;
    return c.infer(e, f);
  } catch (const KindError& k) {
    err = k.msg;
    id = k.id;
    return std::nullopt;
  }
}

std::optional<Kind> check_kind(const Expr& e, const KindScope& scope, SpecDiags& d, const Loc& loc, const std::string& op,
                               const std::string& what) {
  std::string err, id;
  auto k = infer_kind(e, scope, err, id);
  if (!k && id != kFailedLetId) d.add(loc, Level::Signature, op, what + ": " + err + " [" + id + "]");
  return k;
}

void free_names(const Expr& e, std::set<std::string>& out) {
  if (e.k == Expr::K::Name) { out.insert(e.s); return; }
  if (e.k == Expr::K::Call && e.kids.size() == 1 && e.kids[0]->k == Expr::K::Comp) {
    const Expr& c = *e.kids[0];
    std::set<std::string> inner;
    free_names(*c.kids[0], inner);
    inner.erase(c.s);
    out.insert(inner.begin(), inner.end());
    free_names(*c.kids[1], out);
    return;
  }
  for (const auto& k : e.kids)
    if (k) free_names(*k, out);
}

}  // namespace kir::specs
