// Loading and checking of config rows (config.h).
#include "backends/cpu/impl/config.h"
#include "backends/cpu/impl/yaml_where.h"

#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>

#include "backends/cpu/impl/registry.h"
#include "kir/rules/rule.h"

namespace kir::cpu {
namespace {

std::string at(const std::string& file, const YAML::Node& n) { return yaml_where(file, n.Mark()); }

[[noreturn]] void fail(const std::string& file, const YAML::Node& n, const std::string& msg) {
  throw ConfigError(at(file, n) + ": error[config]: " + msg + rules::explain_hint("config"));
}

int64_t integer(const std::string& file, const YAML::Node& n, const std::string& what) {
  if (!n.IsScalar()) fail(file, n, what + " must be an integer");
  const std::string s = n.Scalar();
  size_t used = 0;
  int64_t v = 0;
  try {
    v = std::stoll(s, &used, 10);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != s.size() || s.empty()) fail(file, n, what + " must be an integer, got '" + s + "'");
  if (v < 0) fail(file, n, what + " must be >= 0, got " + s);
  return v;
}

void flatten(const std::string& file, const YAML::Node& n, std::vector<std::pair<std::string, YAML::Node>>& out) {
  if (n.IsSequence()) {
    for (const auto& e : n) flatten(file, e, out);
    return;
  }
  if (!n.IsScalar()) fail(file, n, "an implementation set holds implementation names (or lists of them)");
  out.emplace_back(n.Scalar(), n);
}

}  // namespace

const int64_t* ConfigRow::value(const std::string& param) const {
  for (const auto* v : {&shared, &local})
    for (const auto& [k, x] : *v)
      if (k == param) return &x;
  return nullptr;
}

const ConfigRow* ConfigTable::find(const std::string& name) const {
  for (const auto& r : rows)
    if (r.name == name) return &r;
  return nullptr;
}

const std::vector<std::string>& shared_binding_names() {
  static const std::vector<std::string> n = {"task_m", "task_n", "mc", "nc", "kc"};
  return n;
}

ConfigTable parse_config_rows(const std::string& text, const std::string& file) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    const std::string where = yaml_where(file, e.mark);
    throw ConfigError(where + ": error[config]: YAML does not parse: " + e.msg + rules::explain_hint("config"));
  }
  if (!root.IsMap()) throw ConfigError(file + ":1:1: error[config]: config rows: expected a mapping with `rows`" + rules::explain_hint("config"));
  for (const auto& kv : root) {
    const std::string k = kv.first.Scalar();
    if (k != "rows" && k != "sets") fail(file, kv.first, "unknown key `" + k + "` (expected rows, sets)");
  }
  const YAML::Node rows = root["rows"];
  if (!rows || !rows.IsSequence() || rows.size() == 0) fail(file, root, "`rows` must be a non-empty list of rows");
  // Parameter names some implementation declares (local ones), to catch misspellings.
  std::set<std::string> local_names;
  for (const auto& impl : implementations())
    for (const auto& p : impl.params)
      if (!p.shared) local_names.insert(p.name);
  ConfigTable t;
  t.source = file;
  t.text = text;
  std::set<std::string> seen;
  for (const auto& r : rows) {
    if (!r.IsMap()) fail(file, r, "a row is a mapping (name, shared, local, implementations)");
    ConfigRow row;
    row.where = at(file, r);
    for (const auto& kv : r) {
      const std::string k = kv.first.Scalar();
      if (k != "name" && k != "shared" && k != "local" && k != "implementations")
        fail(file, kv.first, "unknown row key `" + k + "` (expected name, shared, local, implementations)");
    }
    if (!r["name"] || !r["name"].IsScalar() || r["name"].Scalar().empty()) fail(file, r, "a row needs a `name`");
    row.name = r["name"].Scalar();
    if (!seen.insert(row.name).second) fail(file, r["name"], "row `" + row.name + "` is defined twice");
    const YAML::Node sh = r["shared"];
    if (!sh || !sh.IsMap()) fail(file, r, "row `" + row.name + "` needs `shared` with task_m, task_n, mc, nc, kc");
    for (const auto& kv : sh) {
      const std::string k = kv.first.Scalar();
      const auto& names = shared_binding_names();
      if (std::find(names.begin(), names.end(), k) == names.end())
        fail(file, kv.first, "unknown shared binding `" + k + "` (the five are task_m, task_n, mc, nc, kc)");
    }
    for (const auto& n : shared_binding_names()) {
      if (!sh[n]) fail(file, sh, "row `" + row.name + "` lacks shared binding `" + n + "`");
      const int64_t v = integer(file, sh[n], "shared binding " + n);
      if (v == 0 && n != "task_m" && n != "task_n") fail(file, sh[n], "shared binding " + n + " must be >= 1");
      row.shared.emplace_back(n, v);
    }
    if (const YAML::Node lo = r["local"]) {
      if (!lo.IsMap()) fail(file, lo, "`local` is a mapping of parameter names to integers");
      for (const auto& kv : lo) {
        const std::string k = kv.first.Scalar();
        if (!local_names.count(k)) fail(file, kv.first, "no implementation declares a local parameter `" + k + "`");
        row.local.emplace_back(k, integer(file, kv.second, "local parameter " + k));
      }
    }
    const YAML::Node im = r["implementations"];
    if (!im || !im.IsSequence()) fail(file, r, "row `" + row.name + "` needs an `implementations` list");
    std::vector<std::pair<std::string, YAML::Node>> names;
    flatten(file, im, names);
    for (const auto& [n, node] : names) {
      if (!find_implementation(n)) fail(file, node, "unknown implementation `" + n + "`");
      if (std::find(row.implementations.begin(), row.implementations.end(), n) != row.implementations.end())
        fail(file, node, "implementation `" + n + "` is listed twice in row `" + row.name + "`");
      row.implementations.push_back(n);
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

ConfigTable load_config_rows(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path + ": error[config]: cannot read the config rows file" + rules::explain_hint("config"));
  std::ostringstream s;
  s << in.rdbuf();
  return parse_config_rows(s.str(), path);
}

namespace {
std::mutex g_mu;
std::shared_ptr<const ConfigTable>& slot() {
  static std::shared_ptr<const ConfigTable> t;
  return t;
}
}  // namespace

const ConfigTable& active_config() {
  std::lock_guard<std::mutex> lock(g_mu);
  auto& t = slot();
  if (!t) {
    const char* env = std::getenv("KIR_CPU_CONFIG");
    t = std::make_shared<const ConfigTable>(env && *env ? load_config_rows(env)
                                                        : parse_config_rows(std::string(default_config_rows_text()),
                                                                            "<built-in>/config_rows.yaml"));
  }
  return *t;
}

void set_config_rows(ConfigTable t) {
  std::lock_guard<std::mutex> lock(g_mu);
  // Earlier tables stay alive (references handed out by active_config remain valid).
  static std::vector<std::shared_ptr<const ConfigTable>> old;
  if (slot()) old.push_back(slot());
  slot() = std::make_shared<const ConfigTable>(std::move(t));
}

}  // namespace kir::cpu
