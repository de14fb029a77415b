// The evaluator (see expr_eval.h). Recursion depth is bounded by the parser's nesting limit.
#include "specs/src/expr_eval.h"

#include <cmath>
#include <limits>

#include "specs/src/primitives.h"

namespace kir::specs {
namespace {

struct Scope {
  const Env& env;
  std::vector<std::pair<std::string, Value>> locals;

  const Value& lookup(const std::string& name) const {
    for (auto it = locals.rbegin(); it != locals.rend(); ++it)
      if (it->first == name) return it->second;
    auto v = env.vars.find(name);
    if (v != env.vars.end()) return v->second;
    if (name == "inf") {
      static const Value inf = Value::real(std::numeric_limits<double>::infinity());
      return inf;
    }
    throw UnknownName(name);
  }
};

Value ev(const Expr& e, Scope& sc);

Value arith(const std::string& op, const Value& a, const Value& b) {
  if (!a.is_number() || !b.is_number())
    throw EvalError("operator '" + op + "' needs numbers, got " + a.repr() + " and " + b.repr());
  if (a.t == Value::T::Float || b.t == Value::T::Float) {
    double x = a.as_double(), y = b.as_double();
    if (op == "+") return Value::real(x + y);
    if (op == "-") return Value::real(x - y);
    if (op == "*") return Value::real(x * y);
    if (y == 0) throw EvalError("division by zero");
    double q = std::floor(x / y);
    if (op == "//") return Value::real(q);
    double r = std::fmod(x, y);
    if (r != 0 && ((r < 0) != (y < 0))) r += y;
    return Value::real(r);
  }
  mpz_class x = a.as_int(), y = b.as_int(), r;
  if (op == "+") return Value::integer(x + y);
  if (op == "-") return Value::integer(x - y);
  if (op == "*") {
    if (mpz_sizeinbase(x.get_mpz_t(), 2) + mpz_sizeinbase(y.get_mpz_t(), 2) > (1u << 20))
      throw EvalError("integer result is too large");
    return Value::integer(x * y);
  }
  if (y == 0) throw EvalError("integer division or modulo by zero");
  if (op == "//") mpz_fdiv_q(r.get_mpz_t(), x.get_mpz_t(), y.get_mpz_t());
  else mpz_fdiv_r(r.get_mpz_t(), x.get_mpz_t(), y.get_mpz_t());
  return Value::integer(r);
}

bool compare_op(const std::string& op, const Value& a, const Value& b) {
  if (op == "==") return a == b;
  if (op == "!=") return a != b;
  if (op == "in" || op == "not in") {
    if (!b.is_seq()) throw EvalError("'in' needs a sequence on the right, got " + b.repr());
    bool found = false;
    for (const auto& x : b.seq)
      if (x == a) { found = true; break; }
    return op == "in" ? found : !found;
  }
  if (a.is_none() || b.is_none()) throw EvalError("cannot order None");
  int c = compare(a, b);
  if (op == "<") return c < 0;
  if (op == "<=") return c <= 0;
  if (op == ">") return c > 0;
  return c >= 0;
}

long seq_index(const Value& idx, size_t n) {
  if (!idx.is_intlike()) throw EvalError("sequence index must be an integer, got " + idx.repr());
  mpz_class i = idx.as_int();
  mpz_class len = static_cast<unsigned long>(n);
  if (i < 0) i += len;
  if (i < 0 || i >= len) throw EvalError("index " + idx.repr() + " is out of range for length " + std::to_string(n));
  return i.get_si();
}

Value slice(const Value& seq, const Value* lo, const Value* hi, const Value* step) {
  long n = static_cast<long>(seq.seq.size());
  auto get = [&](const Value* v, const char* what) -> std::optional<long> {
    if (!v || v->is_none()) return std::nullopt;
    if (!v->is_intlike()) throw EvalError(std::string("slice ") + what + " must be an integer");
    mpz_class x = v->as_int();
    if (x > n) x = n + 1;
    if (x < -n - 1) x = -n - 1;
    return x.get_si();
  };
  auto st = get(step, "step");
  long s = st ? *st : 1;
  if (s == 0) throw EvalError("slice step cannot be zero");
  auto l = get(lo, "start"), h = get(hi, "stop");
  auto clamp = [&](std::optional<long> x, long dflt) {
    if (!x) return dflt;
    long v = *x;
    if (v < 0) v += n;
    if (s > 0) return std::clamp(v, 0L, n);
    return std::clamp(v, -1L, n - 1);
  };
  long a = clamp(l, s > 0 ? 0 : n - 1), b = clamp(h, s > 0 ? n : -1);
  std::vector<Value> out;
  if (s > 0) for (long k = a; k < b; k += s) out.push_back(seq.seq[static_cast<size_t>(k)]);
  else for (long k = a; k > b; k += s) out.push_back(seq.seq[static_cast<size_t>(k)]);
  return Value::sequence(std::move(out));
}

Value eval_call(const Expr& e, Scope& sc) {
  if (e.s == "present") {
    if (e.kids.size() != 1 || e.npos != 1 || e.kids[0]->k != Expr::K::Name)
      throw EvalError("present() takes one name");
    const std::string& n = e.kids[0]->s;
    auto p = sc.env.presence.find(n);
    if (p != sc.env.presence.end()) return Value::boolean(p->second);
    return Value::boolean(!sc.lookup(n).is_none());
  }
  if (e.s == "bytes") {
    if (!sc.env.allow_bytes) throw EvalError("bytes() is allowed only in roofline formulas");
    if (e.kids.size() != 1 || e.kids[0]->k != Expr::K::Name) throw EvalError("bytes() takes one tensor name");
    auto b = sc.env.bytes.find(e.kids[0]->s);
    if (b == sc.env.bytes.end()) throw EvalError("bytes(" + e.kids[0]->s + "): no such tensor in this call");
    return Value::integer(b->second);
  }
  std::vector<Value> pos;
  std::vector<std::pair<std::string, Value>> kw;
  for (size_t k = 0; k < e.kids.size(); ++k) {
    Value v = ev(*e.kids[k], sc);
    if (k < e.npos) pos.push_back(std::move(v));
    else kw.emplace_back(e.kwnames[k - e.npos], std::move(v));
  }
  return call_primitive(e.s, pos, kw);
}

Value ev(const Expr& e, Scope& sc) {
  switch (e.k) {
    case Expr::K::Int: return Value::integer(e.ival);
    case Expr::K::Float: return Value::real(e.fval);
    case Expr::K::Str: return Value::str(e.s);
    case Expr::K::Bool: return Value::boolean(e.bval);
    case Expr::K::None: return Value::none();
    case Expr::K::Name: return sc.lookup(e.s);
    case Expr::K::Tuple:
    case Expr::K::List: {
      std::vector<Value> items;
      for (const auto& k : e.kids) {
        if (k->k == Expr::K::Star) {
          Value s = ev(*k->kids[0], sc);
          if (!s.is_seq()) throw EvalError("cannot splice " + s.repr() + ": not a sequence");
          items.insert(items.end(), s.seq.begin(), s.seq.end());
        } else {
          items.push_back(ev(*k, sc));
        }
        if (items.size() > kMaxSeqLen) throw EvalError("sequence is too long");
      }
      return Value::sequence(std::move(items));
    }
    case Expr::K::Unary: {
      Value v = ev(*e.kids[0], sc);
      if (e.s == "not") return Value::boolean(!v.truthy());
      if (!v.is_number()) throw EvalError("unary '" + e.s + "' needs a number, got " + v.repr());
      if (e.s == "+") return v.t == Value::T::Bool ? Value::integer(v.as_int()) : v;
      if (v.t == Value::T::Float) return Value::real(-v.f);
      return Value::integer(-v.as_int());
    }
    case Expr::K::Bin: {
      Value a = ev(*e.kids[0], sc);
      Value b = ev(*e.kids[1], sc);
      return arith(e.s, a, b);
    }
    case Expr::K::BoolOp: {
      Value v;
      for (const auto& k : e.kids) {
        v = ev(*k, sc);
        if (e.s == "and" ? !v.truthy() : v.truthy()) return v;
      }
      return v;
    }
    case Expr::K::Compare: {
      Value lhs = ev(*e.kids[0], sc);
      for (size_t k = 0; k < e.ops.size(); ++k) {
        Value rhs = ev(*e.kids[k + 1], sc);
        if (!compare_op(e.ops[k], lhs, rhs)) return Value::boolean(false);
        lhs = std::move(rhs);
      }
      return Value::boolean(true);
    }
    case Expr::K::IfExp: return ev(*e.kids[1], sc).truthy() ? ev(*e.kids[0], sc) : ev(*e.kids[2], sc);
    case Expr::K::Subscript: {
      Value base = ev(*e.kids[0], sc);
      if (!base.is_seq()) throw EvalError(base.repr() + " is not a sequence");
      const Expr& ix = *e.kids[1];
      if (ix.k == Expr::K::Slice) {
        std::optional<Value> lo, hi, st;
        if (ix.kids[0]) lo = ev(*ix.kids[0], sc);
        if (ix.kids[1]) hi = ev(*ix.kids[1], sc);
        if (ix.kids[2]) st = ev(*ix.kids[2], sc);
        return slice(base, lo ? &*lo : nullptr, hi ? &*hi : nullptr, st ? &*st : nullptr);
      }
      Value i = ev(ix, sc);
      return base.seq[static_cast<size_t>(seq_index(i, base.seq.size()))];
    }
    case Expr::K::Slice: throw EvalError("a slice is allowed only inside a subscript");
    case Expr::K::Attr: {
      Value base = ev(*e.kids[0], sc);
      if (e.s == "value") {
        if (base.is_none()) throw EvalError("'" + unparse(*e.kids[0]) + ".value' is read where present(" + unparse(*e.kids[0]) + ") is false");
        return base;
      }
      if (base.t != Value::T::Adt) throw EvalError("'" + unparse(*e.kids[0]) + "' has no attribute '" + e.s + "'");
      if (e.s == "kind") return Value::str(base.adt->ctor);
      const Value* f = base.adt->field(e.s);
      if (!f && base.adt->partial) throw UnknownName(unparse(e));
      if (!f) throw EvalError("constructor '" + base.adt->ctor + "' lacks field '" + e.s + "'");
      return *f;
    }
    case Expr::K::Call: {
      // A comprehension argument evaluates to the sequence of its element values.
      if (e.kids.size() == 1 && e.kids[0]->k == Expr::K::Comp) {
        const Expr& c = *e.kids[0];
        Value iter = ev(*c.kids[1], sc);
        if (!iter.is_seq()) throw EvalError("comprehension over a non-sequence " + iter.repr());
        std::vector<Value> items;
        for (const auto& x : iter.seq) {
          sc.locals.emplace_back(c.s, x);
          items.push_back(ev(*c.kids[0], sc));
          sc.locals.pop_back();
        }
        return call_primitive(e.s, {Value::sequence(std::move(items))}, {});
      }
      return eval_call(e, sc);
    }
    case Expr::K::Comp: throw EvalError("a comprehension is allowed only as the argument of all/sum/max/min");
    case Expr::K::Star: throw EvalError("a '*' splice is allowed only in shape lists");
  }
  throw EvalError("unsupported expression");
}

}  // namespace

Value eval(const Expr& e, const Env& env) {
  Scope sc{env, {}};
  return ev(e, sc);
}

}  // namespace kir::specs
