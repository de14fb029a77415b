// Manifest loading with the loader and schema checks (see loader.h). The reference's check IDs
// (L*, S*, C*) end every message so a message can be traced to docs/manifests.md.
#include "specs/src/loader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "kir/suggest.h"
#include "specs/src/dtypes.h"
#include "specs/src/yaml_util.h"

namespace fs = std::filesystem;

namespace kir::specs {
namespace {

struct Ctx {
  std::string file;
  std::string op;
  SpecDiags& d;
  Level level = Level::Schema;
  void err(const YAML::Node& n, const std::string& text, const char* id) const {
    d.add(loc_of(n, file), level, op, text + " [" + id + "]");
  }
  void err_at(const Loc& l, const std::string& text, const char* id) const { d.add(l, level, op, text + " [" + id + "]"); }
};

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

std::string str_of(const YAML::Node& n) { return n.IsDefined() && n.IsScalar() ? n.Scalar() : std::string(); }

bool is_string(const YAML::Node& n) { return n.IsDefined() && n.IsScalar() && scalar_type(n) == ScalarType::Str; }

// Strings in manifests: quoted or plain text. Numbers and bools written where text is expected
// are still text to an expression ("0" is a valid expression), so accept any scalar.
bool is_text(const YAML::Node& n) { return n.IsDefined() && n.IsScalar(); }

std::optional<bool> as_bool(const YAML::Node& n) {
  if (!n.IsDefined() || !n.IsScalar() || scalar_type(n) != ScalarType::Bool) return std::nullopt;
  return scalar_value(n).b;
}

std::string sorted_list(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + ("'" + s + "'");
  return out;
}

ShapeField read_shape(const YAML::Node& n, const Ctx& c, const std::string& what) {
  ShapeField s;
  s.loc = loc_of(n, c.file);
  s.text = str_of(n);
  ParseError pe;
  if (parse_shape(s.text, s.shape, pe)) {
    s.parsed = true;
  } else {
    bool outside = pe.message.find("outside the expression language") != std::string::npos;
    c.err(n, what + ": " + pe.message + " (at offset " + std::to_string(pe.pos) + " of \"" + s.text + "\")", outside ? "C13" : "C12");
  }
  return s;
}

const std::set<std::string> kTopKeys = {"family", "status", "signature", "workloads", "roofline", "ref_api", "composition"};
const std::set<std::string> kSigKeys = {"forall", "params", "inputs", "outputs", "types", "let", "shape_rules", "dtype_combos"};

std::set<std::string> allowed_tensor_keys(Role r) {
  std::set<std::string> k = {"dtype", "shape", "contiguous"};
  if (r != Role::Output) k.insert({"optional", "device", "values", "requires"});
  if (r == Role::Input) k.insert({"mutated", "write_only"});
  if (r == Role::Output) k.insert({"nullable", "buffer", "alias"});
  return k;
}

// "unknown key 'k'" with a "did you mean" hint among the keys allowed there.
std::string unknown_key(const std::string& k, const std::set<std::string>& allowed, const char* word = "key") {
  return std::string("unknown ") + word + " '" + k + "'" + did_you_mean(k, std::vector<std::string>(allowed.begin(), allowed.end()));
}

const char* role_name(Role r) { return r == Role::Input ? "input" : r == Role::Output ? "output" : "construction-time tensor"; }

TensorDecl read_tensor(const std::string& name, const YAML::Node& key, const YAML::Node& n, Role role, const Ctx& c) {
  TensorDecl t;
  t.name = name;
  t.role = role;
  t.loc = loc_of(key, c.file);
  auto allowed = allowed_tensor_keys(role);
  for (const auto& kv : n) {
    std::string k = str_of(kv.first);
    if (!allowed.count(k))
      c.err(kv.first, std::string(role_name(role)) + " '" + name + "' has " + unknown_key(k, allowed), "S6");
  }
  std::string what = std::string(role_name(role)) + " '" + name + "'";
  if (!n["dtype"] || !is_text(n["dtype"]) || !n["shape"] || !is_text(n["shape"])) {
    c.err(key, what + " needs a string dtype and shape", "C6");
  }
  if (n["dtype"] && is_text(n["dtype"])) t.dtype = read_expr(n["dtype"], c.file, c.op, c.d, what + " dtype");
  if (n["shape"] && is_text(n["shape"])) t.shape = read_shape(n["shape"], c, what + " shape");
  auto boolean = [&](const char* k, bool& out) {
    if (!n[k]) return;
    auto b = as_bool(n[k]);
    if (!b) c.err(n[k], what + " field '" + k + "' must be a bool, got " + node_type_name(n[k]), "S7");
    else out = *b;
  };
  if (allowed.count("contiguous")) boolean("contiguous", t.contiguous);
  if (allowed.count("optional") && n["optional"]) {
    auto b = as_bool(n["optional"]);
    if (b) t.optional = *b ? TensorDecl::Opt::Own : TensorDecl::Opt::No;
    else if (is_string(n["optional"])) {
      t.optional = TensorDecl::Opt::Expr;
      t.optional_expr = read_expr(n["optional"], c.file, c.op, c.d, what + " optional");
    } else {
      c.err(n["optional"], what + " field 'optional' must be true/false or a string, got " + node_type_name(n["optional"]), "S7");
    }
  }
  if (allowed.count("device") && n["device"]) {
    if (str_of(n["device"]) != "cpu") c.err(n["device"], what + " field 'device' must be 'cpu'", "S7");
    else t.device_cpu = true;
  }
  if (allowed.count("values") && n["values"]) {
    if (!is_text(n["values"])) c.err(n["values"], what + " field 'values' must be a string", "S7");
    else t.values = read_expr(n["values"], c.file, c.op, c.d, what + " values");
  }
  if (allowed.count("requires") && n["requires"]) {
    if (!n["requires"].IsSequence()) {
      c.err(n["requires"], what + " field 'requires' must be a list of strings", "S7");
    } else {
      for (const auto& r : n["requires"]) {
        if (!is_text(r)) c.err(r, what + " requires entry must be a string", "S7");
        else t.reqs.push_back(read_expr(r, c.file, c.op, c.d, what + " requires"));
      }
    }
  }
  if (allowed.count("mutated") && n["mutated"]) {
    auto b = as_bool(n["mutated"]);
    if (b) t.mutated = *b ? TensorDecl::Mut::Yes : TensorDecl::Mut::No;
    else if (is_string(n["mutated"])) {
      t.mutated = TensorDecl::Mut::When;
      t.mutated_expr = read_expr(n["mutated"], c.file, c.op, c.d, what + " mutated");
    } else {
      c.err(n["mutated"], what + " field 'mutated' must be a bool or a string", "S7");
    }
  }
  if (allowed.count("write_only")) boolean("write_only", t.write_only);
  if (allowed.count("nullable") && n["nullable"]) {
    if (!is_string(n["nullable"])) c.err(n["nullable"], what + " field 'nullable' must be a string expression", "S7");
    else t.nullable = read_expr(n["nullable"], c.file, c.op, c.d, what + " nullable");
  }
  if (allowed.count("buffer") && n["buffer"]) {
    if (str_of(n["buffer"]) != "out") c.err(n["buffer"], what + " field 'buffer' must be 'out'", "S7");
    else t.buffer_out = true;
  }
  if (allowed.count("alias") && n["alias"]) {
    if (!is_string(n["alias"])) c.err(n["alias"], what + " field 'alias' must be an input name", "S7");
    else { t.alias = str_of(n["alias"]); t.alias_loc = loc_of(n["alias"], c.file); }
  }
  return t;
}

void read_families(const YAML::Node& types, OpSpec& op, const Ctx& c) {
  for (const auto& kv : types) {
    FamilyDecl f;
    f.name = str_of(kv.first);
    f.loc = loc_of(kv.first, c.file);
    const YAML::Node& n = kv.second;
    if (!n.IsMap()) { c.err(kv.first, "type family '" + f.name + "' must be a mapping", "C19"); continue; }
    for (const auto& fk : n) {
      std::string k = str_of(fk.first);
      static const std::set<std::string> kFamilyKeys = {"params", "match", "cases"};
      if (!kFamilyKeys.count(k)) c.err(fk.first, "type family '" + f.name + "' has " + unknown_key(k, kFamilyKeys), "S6");
    }
    // The formals first: a family without match or cases is still applied with its arity, so
    // its applications report nothing beyond C19.
    bool ok = true;
    if (n["params"] && !n["params"].IsMap()) { c.err(n["params"], "type family '" + f.name + "' params must be a mapping", "C19"); ok = false; }
    if (n["params"] && n["params"].IsMap()) {
      for (const auto& p : n["params"]) {
        std::string pn = str_of(p.first), err;
        if (!is_identifier(pn)) { c.err(p.first, "type family '" + f.name + "' formal '" + pn + "' is not an identifier", "C20"); ok = false; continue; }
        std::string kt = str_of(p.second);
        std::optional<Kind> k;
        if (kt == "Bool") k = Kind::boolean();
        else if (kt == "Int") k = Kind::integer();
        else if (kt == "Dim") k = Kind::dim();
        else if (kt == "Shape") k = Kind::shape();
        if (!k) {
          if (kt.empty()) { c.err(p.second, "type family '" + f.name + "' formal '" + pn + "' has invalid kind ''", "C20"); ok = false; continue; }
          // Enum, ADT and Maybe formals are resolved against types.yaml once all ADTs are known.
          Kind placeholder;
          placeholder.t = Kind::T::Adt;
          placeholder.adt = kt;
          k = placeholder;
        }
        f.params.emplace_back(pn, *k);
      }
    }
    if (!n["match"] || !n["cases"] || !n["cases"].IsSequence() || n["cases"].size() == 0) {
      c.err(kv.first, "type family '" + f.name + "' needs 'match' and at least one case", "C19");
      op.families.push_back(f);
      continue;
    }
    const YAML::Node& m = n["match"];
    if (m.IsSequence()) {
      f.match_is_list = true;
      for (const auto& x : m) f.match.push_back(read_expr(x, c.file, c.op, c.d, "type family '" + f.name + "' match"));
    } else {
      f.match.push_back(read_expr(m, c.file, c.op, c.d, "type family '" + f.name + "' match"));
    }
    for (const auto& cs : n["cases"]) {
      FamilyCase fc;
      fc.loc = loc_of(cs, c.file);
      if (!cs.IsMap() || cs.size() != 2 || !cs["when"] || !cs["is"]) {
        c.err(cs, "type family '" + f.name + "' case needs exactly 'when' and 'is'", "C22");
        ok = false;
        continue;
      }
      fc.when = cs["when"];
      if (fc.when.IsSequence() != f.match_is_list) {
        c.err(cs["when"], "type family '" + f.name + "' case 'when' must " + std::string(f.match_is_list ? "" : "not ") + "be a list, like 'match'", "C22");
        ok = false;
      } else if (f.match_is_list && fc.when.size() != f.match.size()) {
        c.err(cs["when"], "type family '" + f.name + "' case 'when' has " + std::to_string(fc.when.size()) + " components, 'match' has " + std::to_string(f.match.size()), "C22");
        ok = false;
      }
      fc.is = read_shape(cs["is"], c, "type family '" + f.name + "' case");
      f.cases.push_back(fc);
    }
    f.ok = ok;
    op.families.push_back(f);
  }
}

void read_signature(const YAML::Node& sig, OpSpec& op, const Manifest& m, const Ctx& c) {
  if (!sig.IsMap()) { c.err(sig, "signature must be a mapping", "C1"); return; }
  for (const auto& kv : sig) {
    std::string k = str_of(kv.first);
    if (!kSigKeys.count(k)) c.err(kv.first, "signature has " + unknown_key(k, kSigKeys), "S6");
  }
  std::set<std::string> adt_names;
  for (const auto& [n, _] : m.adts) adt_names.insert(n);
  std::map<std::string, Loc> declared;
  auto declare = [&](const YAML::Node& key, const std::string& name) {
    if (!is_identifier(name)) { c.err(key, "name '" + name + "' is not an identifier", "C2"); return false; }
    if (name == "out") c.err(key, "name 'out' is reserved for the output buffer", "C11");
    auto it = declared.find(name);
    if (it != declared.end()) {
      c.err(key, "name '" + name + "' is declared twice (first at line " + std::to_string(it->second.line) + ")", "C10");
      return false;
    }
    declared[name] = loc_of(key, c.file);
    return true;
  };
  auto section = [&](const char* k) -> YAML::Node {
    YAML::Node n = sig[k];
    if (n && !n.IsMap() && !n.IsNull()) { c.err(n, std::string("signature section '") + k + "' must be a mapping", "S5"); return YAML::Node(); }
    return n;
  };
  if (auto fa = section("forall"); fa && fa.IsMap()) {
    for (const auto& kv : fa) {
      IndexDecl i;
      i.name = str_of(kv.first);
      i.loc = loc_of(kv.first, c.file);
      i.text = str_of(kv.second);
      std::string err;
      i.kind = parse_index_kind(i.text, err);
      if (!i.kind) c.err(kv.second, "forall index '" + i.name + "': " + err, "C4");
      if (declare(kv.first, i.name)) op.forall.push_back(i);
    }
  }
  if (auto ps = section("params"); ps && ps.IsMap()) {
    for (const auto& kv : ps) {
      std::string name = str_of(kv.first);
      const YAML::Node& n = kv.second;
      if (!declare(kv.first, name)) continue;
      if (n.IsMap() && n["dtype"]) {
        op.ctor_tensors.push_back(read_tensor(name, kv.first, n, Role::CtorTensor, c));
        continue;
      }
      ParamDecl p;
      p.name = name;
      p.loc = loc_of(kv.first, c.file);
      if (!n.IsMap() || !n["type"]) {
        c.err(kv.first, "parameter '" + name + "' needs a 'type' (or dtype and shape for a construction-time tensor)", "C5");
        continue;
      }
      for (const auto& pk : n) {
        std::string k = str_of(pk.first);
        static const std::set<std::string> kParamKeys = {"type", "default", "kw_only"};
        if (!kParamKeys.count(k)) c.err(pk.first, "parameter '" + name + "' has " + unknown_key(k, kParamKeys), "S6");
      }
      p.type_text = str_of(n["type"]);
      p.type_loc = loc_of(n["type"], c.file);
      std::string err;
      p.kind = parse_param_type(p.type_text, adt_names, err);
      if (!p.kind) c.err(n["type"], "parameter '" + name + "' type '" + p.type_text + "' is malformed: " + err, "C8");
      if (n["default"]) { p.has_default = true; p.default_node = n["default"]; }
      if (n["kw_only"]) {
        auto b = as_bool(n["kw_only"]);
        if (!b) c.err(n["kw_only"], "parameter '" + name + "' kw_only must be a bool", "C9");
        else p.kw_only = *b;
      }
      op.params.push_back(p);
    }
  }
  if (auto lt = section("let"); lt && lt.IsMap()) {
    for (const auto& kv : lt) {
      std::string name = str_of(kv.first);
      if (!declare(kv.first, name)) continue;
      op.lets.push_back({name, read_expr(kv.second, c.file, c.op, c.d, "let '" + name + "'")});
    }
  }
  auto tensors = [&](const char* k, Role r, std::vector<TensorDecl>& out) {
    auto sec = section(k);
    if (!sec || !sec.IsMap()) return;
    for (const auto& kv : sec) {
      std::string name = str_of(kv.first);
      if (!declare(kv.first, name)) continue;
      if (!kv.second.IsMap()) { c.err(kv.first, std::string(role_name(r)) + " '" + name + "' must be a mapping", "C6"); continue; }
      out.push_back(read_tensor(name, kv.first, kv.second, r, c));
    }
  };
  tensors("inputs", Role::Input, op.inputs);
  tensors("outputs", Role::Output, op.outputs);
  if (auto ty = section("types"); ty && ty.IsMap()) {
    for (const auto& kv : ty) declare(kv.first, str_of(kv.first));
    read_families(ty, op, c);
    for (auto& f : op.families)
      for (auto& [pn, pk] : f.params)
        if (pk.t == Kind::T::Adt && !m.adts.count(pk.adt)) {
          std::string err;
          auto ek = parse_param_type(pk.adt, adt_names, err);
          if (ek && ek->t != Kind::T::Value) pk = *ek;
          else c.err_at(f.loc, "type family '" + f.name + "' formal '" + pn + "' has invalid kind '" + pk.adt + "'", "C20");
        }
  }
  if (sig["shape_rules"]) {
    if (!sig["shape_rules"].IsSequence()) c.err(sig["shape_rules"], "shape_rules must be a list", "C3");
    else for (const auto& r : sig["shape_rules"]) op.shape_rules.push_back(read_expr(r, c.file, c.op, c.d, "shape_rules entry"));
  }
  if (sig["dtype_combos"]) {
    op.combos_loc = loc_of(sig["dtype_combos"], c.file);
    if (!sig["dtype_combos"].IsSequence()) {
      c.err(sig["dtype_combos"], "dtype_combos must be a list", "C3");
    } else {
      for (const auto& row : sig["dtype_combos"]) {
        ComboRow cr;
        cr.loc = loc_of(row, c.file);
        if (!row.IsMap()) { c.err(row, "dtype_combos row must map names to dtype strings", "C7"); continue; }
        bool ok = true;
        for (const auto& kv : row) {
          if (!kv.second.IsScalar()) { c.err(kv.second, "dtype_combos row must map names to dtype strings", "C7"); ok = false; continue; }
          cr.entries.emplace_back(str_of(kv.first), str_of(kv.second));
        }
        if (ok) op.combos.push_back(cr);
      }
    }
  }
  op.signature_ok = true;
}

void read_roofline(const YAML::Node& r, OpSpec& op, const Ctx& c) {
  op.roofline.present = true;
  op.roofline.loc = loc_of(r, c.file);
  if (!r.IsMap()) { c.err(r, "roofline must be a mapping", "S14"); return; }
  for (const auto& kv : r) {
    std::string k = str_of(kv.first);
    static const std::set<std::string> kRooflineKeys = {"flops", "bytes", "func"};
    if (!kRooflineKeys.count(k)) c.err(kv.first, "roofline has " + unknown_key(k, kRooflineKeys), "S14");
  }
  bool has_flops = static_cast<bool>(r["flops"]), has_func = static_cast<bool>(r["func"]);
  if (has_flops == has_func) { c.err(r, "roofline needs exactly one of 'flops' and 'func'", "S14"); return; }
  if (has_func) {
    if (r["bytes"]) c.err(r["bytes"], "roofline 'func' cannot be combined with 'bytes'", "S14");
    op.roofline.func = str_of(r["func"]);
    static const std::regex re("tileops\\.perf\\.formulas\\.[A-Za-z_][A-Za-z0-9_]*");
    if (!std::regex_match(op.roofline.func, re)) c.err(r["func"], "roofline func '" + op.roofline.func + "' is not tileops.perf.formulas.<name>", "S14");
    return;
  }
  op.roofline.flops = read_expr(r["flops"], c.file, c.op, c.d, "roofline flops");
  if (r["bytes"]) op.roofline.bytes = read_expr(r["bytes"], c.file, c.op, c.d, "roofline bytes");
}

void read_composition(const YAML::Node& n, OpSpec& op, const Ctx& c) {
  op.has_composition = true;
  if (!n.IsMap()) { c.err(n, "composition must be a mapping", "S8"); return; }
  for (const auto& kv : n) {
    std::string k = str_of(kv.first);
    static const std::set<std::string> kCompositionKeys = {"kind", "stages"};
    if (!kCompositionKeys.count(k)) c.err(kv.first, "composition has " + unknown_key(k, kCompositionKeys), "S8");
  }
  if (str_of(n["kind"]) != "composite") c.err(n["kind"] ? n["kind"] : n, "composition kind must be 'composite'", "S8");
  const YAML::Node& st = n["stages"];
  if (!st || !st.IsSequence() || st.size() == 0) { c.err(st ? st : n, "composition stages must be a non-empty list", "S8"); return; }
  std::set<std::string> names;
  for (const auto& s : st) {
    if (!s.IsMap()) { c.err(s, "composition stage must be a mapping", "S8"); continue; }
    Stage g;
    g.loc = loc_of(s, c.file);
    for (const auto& kv : s) {
      std::string k = str_of(kv.first);
      static const std::set<std::string> kStageKeys = {"name", "op", "kernel", "optional"};
      if (!kStageKeys.count(k)) c.err(kv.first, "composition stage has " + unknown_key(k, kStageKeys), "S8");
    }
    g.name = str_of(s["name"]);
    if (g.name.empty()) c.err(s, "composition stage needs a non-empty name", "S8");
    else if (!names.insert(g.name).second) c.err(s["name"], "composition stage name '" + g.name + "' is duplicated", "S8");
    if (static_cast<bool>(s["op"]) == static_cast<bool>(s["kernel"])) c.err(s, "composition stage '" + g.name + "' needs exactly one of 'op' and 'kernel'", "S8");
    g.op = str_of(s["op"]);
    g.kernel = str_of(s["kernel"]);
    if (s["kernel"] && g.kernel.empty()) c.err(s["kernel"], "composition stage '" + g.name + "' has an empty kernel", "S8");
    if (s["optional"]) {
      auto b = as_bool(s["optional"]);
      if (!b) c.err(s["optional"], "composition stage '" + g.name + "' optional must be a bool", "S8");
      else g.optional = *b;
    }
    op.stages.push_back(g);
  }
}

void read_op(const std::string& name, const YAML::Node& key, const YAML::Node& n, const std::string& file, Manifest& m, SpecDiags& d) {
  OpSpec op;
  op.name = name;
  op.file = file;
  op.loc = loc_of(key, file);
  Ctx c{file, name, d};
  static const std::regex name_re("[A-Z][A-Za-z0-9]*(Fwd|Bwd)Op");
  static const std::regex variant_re("([A-Z][A-Za-z0-9]*?)(Fwd|Bwd)Op([A-Z][A-Za-z0-9]*)");
  std::smatch sm;
  if (!std::regex_match(name, name_re)) {
    if (std::regex_match(name, sm, variant_re))
      c.err(key, "op key '" + name + "' puts a variant word after the direction suffix; write '" + sm[1].str() + sm[3].str() + sm[2].str() + "Op'", "S2");
    else
      c.err(key, "op key '" + name + "' is not a class name matching [A-Z][A-Za-z0-9]*(Fwd|Bwd)Op", "S1");
  }
  if (!n.IsMap()) { c.err(key, "op spec must be a mapping, got " + node_type_name(n), "S12"); return; }
  for (const auto& kv : n) {
    std::string k = str_of(kv.first);
    if (k == "source") c.err(kv.first, "legacy entry: key 'source' is gone", "S11");
    else if (!kTopKeys.count(k)) c.err(kv.first, unknown_key(k, kTopKeys, "field"), "S11");
  }
  for (const char* req : {"family", "status", "signature", "workloads", "roofline"})
    if (!n[req]) c.err(key, std::string("missing required field '") + req + "'", "S10");
  if (n["family"]) {
    if (!is_string(n["family"])) c.err(n["family"], "field 'family' must be a string", "S12");
    else {
      op.family = str_of(n["family"]);
      if (!is_identifier(op.family)) c.err(n["family"], "family '" + op.family + "' is not an identifier", "S3");
    }
  }
  if (n["status"]) {
    op.status = str_of(n["status"]);
    if (op.status != "implemented" && op.status != "spec-only")
      c.err(n["status"], "status '" + op.status + "' is not one of 'implemented', 'spec-only'", "S13");
  }
  if (n["ref_api"]) {
    static const std::regex qual("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)+");
    op.ref_api = str_of(n["ref_api"]);
    if (!is_string(n["ref_api"]) || !std::regex_match(op.ref_api, qual))
      c.err(n["ref_api"], "ref_api '" + op.ref_api + "' is not a qualified name", "S9");
  }
  if (n["signature"]) read_signature(n["signature"], op, m, c);
  if (n["workloads"]) {
    op.workloads = n["workloads"];
    op.workloads_loc = loc_of(n["workloads"], file);
  }
  if (n["roofline"]) read_roofline(n["roofline"], op, c);
  if (n["composition"]) read_composition(n["composition"], op, c);
  m.ops.push_back(std::move(op));
}

}  // namespace

ExprField read_expr(const YAML::Node& n, const std::string& file, const std::string& op, SpecDiags& d, const std::string& what) {
  ExprField f;
  f.loc = loc_of(n, file);
  if (!n.IsScalar()) {
    d.add(f.loc, Level::Schema, op, what + " must be a string expression, got " + node_type_name(n) + " [S12]");
    return f;
  }
  f.text = n.Scalar();
  ParseError pe;
  f.expr = parse_expr(f.text, pe);
  if (!f.expr) {
    bool outside = pe.message.find("outside the expression language") != std::string::npos;
    d.add(f.loc, Level::Schema, op, what + ": " + pe.message + " (at offset " + std::to_string(pe.pos) + " of \"" + f.text.substr(0, 80) + "\")" + (outside ? " [C13]" : " [C12]"));
  }
  return f;
}

void load_types_text(const std::string& text, const std::string& file, Manifest& m, SpecDiags& d) {
  Loc el;
  std::string err;
  auto root = load_yaml(text, file, el, err);
  if (!root) { d.add(el, Level::Loader, "types.yaml", err + " [L1]"); return; }
  Ctx c{file, "types.yaml", d, Level::Loader};
  if (!root->IsMap() || root->size() != 1 || !(*root)["adts"]) { c.err(*root, "types.yaml must be exactly {adts: ...}", "L7"); return; }
  const YAML::Node& adts = (*root)["adts"];
  c.level = Level::Schema;
  if (!adts.IsMap()) { c.err(adts, "adts must be a mapping", "S15"); return; }
  for (const auto& kv : adts) {
    AdtDecl a;
    a.name = str_of(kv.first);
    a.loc = loc_of(kv.first, file);
    c.op = a.name;
    if (!is_identifier(a.name)) { c.err(kv.first, "ADT name '" + a.name + "' is not an identifier", "S15"); continue; }
    const YAML::Node& n = kv.second;
    if (!n.IsMap() || n.size() != 1 || !n["sum"] || !n["sum"].IsMap() || n["sum"].size() == 0) {
      c.err(kv.first, "ADT '" + a.name + "' needs exactly a non-empty 'sum'", "S15");
      continue;
    }
    for (const auto& ck : n["sum"]) {
      AdtCtor ct;
      ct.name = str_of(ck.first);
      ct.loc = loc_of(ck.first, file);
      if (!is_identifier(ct.name)) { c.err(ck.first, "constructor '" + ct.name + "' is not an identifier", "S15"); continue; }
      const YAML::Node& cn = ck.second;
      if (!cn.IsMap()) { c.err(ck.first, "constructor '" + ct.name + "' must be a mapping", "S15"); continue; }
      for (const auto& f : cn) {
        std::string k = str_of(f.first);
        static const std::set<std::string> kCtorKeys = {"fields", "invariant", "python"};
        if (!kCtorKeys.count(k)) c.err(f.first, "constructor '" + ct.name + "' has " + unknown_key(k, kCtorKeys), "S15");
      }
      static const std::regex dotted("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)+");
      ct.python = str_of(cn["python"]);
      if (!std::regex_match(ct.python, dotted)) c.err(cn["python"] ? cn["python"] : ck.first, "constructor '" + ct.name + "' python '" + ct.python + "' is not module.Class", "S15");
      if (cn["fields"]) {
        if (!cn["fields"].IsMap()) c.err(cn["fields"], "constructor '" + ct.name + "' fields must be a mapping", "S15");
        else for (const auto& f : cn["fields"]) {
          std::string fname = str_of(f.first), ferr;
          if (!is_identifier(fname)) { c.err(f.first, "field '" + fname + "' is not an identifier", "S15"); continue; }
          std::string ktext;
          if (f.second.IsMap()) {
            if (f.second.size() != 2 || !f.second["type"] || !f.second["python"]) { c.err(f.second, "field '" + fname + "' mapping must be exactly {type, python}", "S15"); continue; }
            ktext = str_of(f.second["type"]);
          } else {
            ktext = str_of(f.second);
          }
          auto k = parse_field_kind(ktext, ferr);
          if (!k) { c.err(f.second, "field '" + fname + "': " + ferr, "S15"); continue; }
          ct.fields.emplace_back(fname, *k);
        }
      }
      if (cn["invariant"]) ct.invariant = read_expr(cn["invariant"], file, a.name, d, "constructor '" + ct.name + "' invariant");
      a.ctors.push_back(ct);
    }
    m.adts[a.name] = a;
  }
}

void load_family_text(const std::string& text, const std::string& file, Manifest& m, SpecDiags& d) {
  Loc el;
  std::string err;
  auto root = load_yaml(text, file, el, err);
  std::string stem = fs::path(file).stem().string();
  if (!root) { d.add(el, Level::Loader, stem, err + " [L1]"); return; }
  Ctx c{file, stem, d, Level::Loader};
  if (!root->IsMap()) { c.err(*root, "family file must be a mapping of op name to spec, got " + node_type_name(*root), "L1"); return; }
  if (root->size() == 0) { c.err(*root, "family file is empty", "L2"); return; }
  std::set<std::string> families;
  for (const auto& kv : *root) {
    if (!kv.first.IsScalar()) { c.err(kv.first, "op key must be a string", "S1"); continue; }
    std::string name = kv.first.Scalar();
    const YAML::Node& n = kv.second;
    if (n.IsMap() && n["family"] && is_string(n["family"])) {
      std::string fam = n["family"].Scalar();
      bool ok = fam == stem || (stem.size() > fam.size() && stem.compare(0, fam.size(), fam) == 0 && stem[fam.size()] == '_');
      if (!ok) { Ctx oc{file, name, d, Level::Loader}; oc.err(n["family"], "family '" + fam + "' does not match the file '" + stem + ".yaml'", "L4"); }
      families.insert(fam);
    } else if (n.IsMap()) {
      Ctx oc{file, name, d, Level::Loader};
      oc.err(kv.first, "entry has no string 'family'", "L3");
    }
    if (const OpSpec* prev = m.op(name)) {
      Ctx oc{file, name, d, Level::Loader};
      oc.err(kv.first, "op '" + name + "' is defined twice (also at " + prev->loc.str() + ")", "L6");
      continue;
    }
    try {
      read_op(name, kv.first, n, file, m, d);
    } catch (const YAML::Exception& e) {
      Ctx oc{file, name, d, Level::Schema};
      oc.err(kv.first, std::string("malformed entry: ") + e.what(), "S12");
    }
  }
  if (families.size() > 1) {
    std::vector<std::string> v(families.begin(), families.end());
    c.err(*root, "file holds more than one family: " + sorted_list(v), "L5");
  }
}

void load_paths(const std::vector<std::string>& paths, Manifest& m, SpecDiags& d) {
  std::vector<std::string> files, types;
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->is_regular_file(ec) && it->path().extension() == ".yaml") found.push_back(it->path().string());
      std::sort(found.begin(), found.end());
      for (auto& f : found) (fs::path(f).filename() == "types.yaml" ? types : files).push_back(f);
    } else if (fs::exists(p, ec)) {
      (fs::path(p).filename() == "types.yaml" ? types : files).push_back(p);
    } else {
      d.add({p, 0, 0}, Level::Loader, "-", "no such file or directory [L1]");
    }
  }
  if (types.empty() && !files.empty()) {
    fs::path dir = fs::path(files[0]).parent_path();
    for (const fs::path& cand : {dir / "types.yaml", dir.parent_path() / "types.yaml"}) {
      std::error_code ec;
      if (fs::exists(cand, ec)) { types.push_back(cand.string()); break; }
    }
  }
  for (const auto& t : types) {
    std::string text;
    if (!read_file(t, text)) { d.add({t, 0, 0}, Level::Loader, "types.yaml", "cannot read file [L1]"); continue; }
    load_types_text(text, t, m, d);
    m.files.push_back(t);
  }
  for (const auto& f : files) {
    std::string text;
    if (!read_file(f, text)) { d.add({f, 0, 0}, Level::Loader, "-", "cannot read file [L1]"); continue; }
    load_family_text(text, f, m, d);
    m.files.push_back(f);
  }
}

}  // namespace kir::specs
