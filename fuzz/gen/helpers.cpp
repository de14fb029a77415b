// See helpers.h.
#include "fuzz/gen/helpers.h"

#include "fuzz/gen/families.h"
#include "fuzz/gen/values.h"

namespace kir::fuzz {

Generalized generalize(const FnBuilder& caller, const std::vector<VType>& types) {
  Generalized g;
  std::map<Ext, Ext> to_sym;
  for (const auto& t : types) {
    VType u = t;
    for (auto& e : u.shape) {
      if (e.is_const()) continue;
      auto it = to_sym.find(e);
      if (it == to_sym.end()) {
        const std::string s = "P" + std::to_string(to_sym.size());
        it = to_sym.emplace(e, Ext::atom(s)).first;
        g.call_site[s] = e;
        g.atoms[s] = e.eval(caller.atoms);
        g.symbols.push_back(Ext::atom(s));
      }
      e = it->second;
    }
    g.types.push_back(u);
  }
  return g;
}

void add_helper(Ctx& c, const std::string& name, const std::vector<HelperParam>& params,
                const std::vector<std::string>& result_types, const std::vector<std::string>& body_lines,
                const std::vector<std::string>& returns) {
  std::string t = "fn " + name + "(";
  for (size_t i = 0; i < params.size(); ++i)
    t += (i ? ", " : "") + std::string(params[i].is_constexpr ? "constexpr " : "") + params[i].name + ": " + params[i].type;
  t += ") -> ";
  if (result_types.size() == 1) {
    t += result_types[0];
  } else {
    t += "(";
    for (size_t i = 0; i < result_types.size(); ++i) t += (i ? ", " : "") + result_types[i];
    t += ")";
  }
  t += " {\n";
  for (const auto& l : body_lines) t += l + "\n";
  t += "  return(";
  for (size_t i = 0; i < returns.size(); ++i) t += (i ? ", " : "") + returns[i];
  t += ")\n}\n";
  c.helpers.push_back(t);
}

std::vector<std::string> combine_kinds(DType d) {
  if (d == DType::Bool) return {"and", "or", "xor"};
  if (is_float(d)) return {"add", "mul", "min", "max", "add"};
  if (is_integer(d)) return {"add", "mul", "min", "max", "and", "or", "xor", "add"};
  return {};
}

std::string simple_combine(Ctx& c, const VType& acc, const std::string& kind) {
  const std::string key = "combine:" + acc.str() + ":" + kind;
  if (auto it = c.helper_cache.find(key); it != c.helper_cache.end()) return it->second;
  const std::string n = c.helper_name(kind + "_");
  add_helper(c, n, {{"%a", acc.str()}, {"%b", acc.str()}}, {acc.str()}, {"  %r = " + kind + "(%a, %b) : " + acc.str()}, {"%r"});
  c.helper_cache[key] = n;
  return n;
}

std::string user_combine(Ctx& c, Rng& r, const Generalized& g) {
  const VType& acc = g.types[0];
  FnBuilder h(false);
  h.atoms = g.atoms;
  h.extents = g.symbols;
  for (int64_t k : {1, 2, 3}) h.extents.push_back(Ext::constant(k));
  std::vector<HelperParam> params = {{"%a", acc.str()}, {"%b", acc.str()}};
  h.add("%a", acc, true);
  h.add("%b", acc, true);
  for (size_t i = 1; i < g.types.size(); ++i) {
    params.push_back({"%k" + std::to_string(i - 1), g.types[i].str()});
    h.add(params.back().name, g.types[i], true);
  }
  const auto kinds = combine_kinds(acc.dt);
  const std::string kind = kinds.empty() ? "add" : r.pick(kinds);
  h.def(kind + "(%a, %b)", acc);
  run_steps(c, h, r, static_cast<int>(r.range(1, 4)));
  // Prefer the newest value of the accumulator type (most likely to depend on a and b).
  std::string res;
  for (const auto& v : h.visible())
    if (v.type == acc && v.name != "%a" && v.name != "%b") res = v.name;
  if (res.empty() || r.chance(0.2)) res = get(c, h, r, acc);
  const std::string n = c.helper_name("combine");
  add_helper(c, n, params, {acc.str()}, h.lines, {res});
  return n;
}

std::string argmax_combine(Ctx& c, const VType& value_acc) {
  const std::string key = "argmax:" + value_acc.str();
  if (auto it = c.helper_cache.find(key); it != c.helper_cache.end()) return it->second;
  const VType idx = value_acc.with(DType::Index), pb = value_acc.with(DType::Bool);
  const std::string tt = "tuple<" + value_acc.str() + ", " + idx.str() + ">";
  const std::string v = value_acc.str(), i = idx.str(), b = pb.str();
  const std::vector<std::string> body = {
      "  %av = tuple.get(%a) {index = 0} : " + v, "  %ai = tuple.get(%a) {index = 1} : " + i,
      "  %bv = tuple.get(%b) {index = 0} : " + v, "  %bi = tuple.get(%b) {index = 1} : " + i,
      "  %gt = cmp(%bv, %av) {pred = gt} : " + b,  "  %eq = cmp(%bv, %av) {pred = eq} : " + b,
      "  %lt = cmp(%bi, %ai) {pred = lt} : " + b,  "  %tie = and(%eq, %lt) : " + b,
      "  %take = or(%gt, %tie) : " + b,            "  %v = select(%take, %bv, %av) : " + v,
      "  %i = select(%take, %bi, %ai) : " + i,     "  %r = tuple(%v, %i) : " + tt};
  const std::string n = c.helper_name("argmax");
  add_helper(c, n, {{"%a", tt}, {"%b", tt}}, {tt}, body, {"%r"});
  c.helper_cache[key] = n;
  return n;
}

}  // namespace kir::fuzz
