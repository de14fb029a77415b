// `kir spec validate [PATHS] [--op NAME]` and `kir spec instantiate FILE --op NAME [--row LABEL]`:
// check op-spec manifests (messages `file:line:col: [level] Op: text`, sorted) and turn their
// workload rows into concrete calls printed as JSON, optionally with input data as .npy files.
#include <iostream>
#include <nlohmann/json.hpp>

#include "specs/src/datagen.h"
#include "specs/src/instantiate.h"
#include "specs/src/loader.h"
#include "specs/src/validator.h"
#include "tools/commands.h"

namespace kir::tools {
namespace {

nlohmann::json to_json(const specs::Value& v) {
  using T = specs::Value::T;
  switch (v.t) {
    case T::None: return nullptr;
    case T::Bool: return v.b;
    case T::Int:
      if (specs::fits_i64(v.i)) return static_cast<int64_t>(v.i.get_si());
      return v.i.get_str();
    case T::Float: return v.f;
    case T::Str: return v.s;
    case T::Seq: {
      nlohmann::json a = nlohmann::json::array();
      for (const auto& x : v.seq) a.push_back(to_json(x));
      return a;
    }
    case T::Adt: {
      nlohmann::json f = nlohmann::json::object();
      for (const auto& [k, x] : v.adt->fields) f[k] = to_json(x);
      return {{"kind", v.adt->ctor}, {"fields", f}};
    }
  }
  return nullptr;
}

nlohmann::json call_json(const specs::Call& c) {
  nlohmann::json j;
  j["case_id"] = c.case_id;
  j["label"] = c.label;
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [k, v] : c.params) params[k] = to_json(v);
  j["params"] = params;
  nlohmann::json ts = nlohmann::json::array();
  for (const auto& t : c.tensors) {
    nlohmann::json tj;
    tj["name"] = t.name;
    tj["role"] = t.role == specs::Role::Input ? "input" : t.role == specs::Role::Output ? "output" : "ctor";
    tj["present"] = t.present;
    if (t.present) {
      nlohmann::json shape = nlohmann::json::array();
      for (const auto& d : t.shape) shape.push_back(specs::fits_i64(d) ? nlohmann::json(static_cast<int64_t>(d.get_si())) : nlohmann::json(d.get_str()));
      tj["shape"] = shape;
      tj["dtype"] = t.dtype;
      if (t.values) tj["values"] = to_json(*t.values);
      if (t.cpu) tj["device"] = "cpu";
    }
    ts.push_back(tj);
  }
  j["tensors"] = ts;
  nlohmann::json ix = nlohmann::json::object();
  for (const auto& [k, v] : c.ix) ix[k] = to_json(v);
  j["ix"] = ix;
  if (c.flops) j["roofline"]["flops"] = to_json(*c.flops);
  if (c.bytes) j["roofline"]["bytes"] = to_json(*c.bytes);
  return j;
}

struct InstArgs {
  std::string file, op, row, npy_dir;
  bool special = false;
};

int run_instantiate(const InstArgs& a) {
  specs::Manifest m;
  specs::SpecDiags d;
  specs::load_paths({a.file}, m, d);
  const specs::OpSpec* op = m.op(a.op);
  if (!op) {
    std::cerr << d.render() << a.file << ": no op named '" << a.op << "'\n";
    return 1;
  }
  specs::InstantiateOptions opts;
  opts.only_label = a.row;
  specs::SpecDiags rd;
  auto calls = specs::instantiate_op(*op, m, rd, opts);
  std::cerr << rd.render();
  if (!a.row.empty() && calls.empty() && !rd.has_errors()) {
    std::cerr << a.file << ": op '" << a.op << "' has no row labelled '" << a.row << "'\n";
    return 1;
  }
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : calls) {
    auto j = call_json(c);
    if (!a.npy_dir.empty()) {
      specs::DataOptions dopt;
      dopt.inject_special = a.special;
      std::string err;
      auto files = specs::write_inputs_npy(*op, c, a.npy_dir, dopt, err);
      if (!err.empty()) {
        std::cerr << "kir spec instantiate: " << err << "\n";
        return 1;
      }
      j["files"] = files;
    }
    out.push_back(j);
  }
  std::cout << out.dump(2) << "\n";
  return rd.has_errors() ? 1 : 0;
}

}  // namespace

void register_spec_commands(CLI::App& app, int& exit_code) {
  auto* spec = app.add_subcommand("spec", "op-spec manifests: validate, instantiate workloads");
  spec->require_subcommand(1);

  auto paths = std::make_shared<std::vector<std::string>>();
  auto vop = std::make_shared<std::string>();
  auto* v = spec->add_subcommand("validate", "check manifests for every rule (default PATHS: specs)");
  v->add_option("paths", *paths, "manifest files or folders");
  v->add_option("--op", *vop, "check only this op");
  v->callback([paths, vop, &exit_code] {
    std::vector<std::string> p = paths->empty() ? std::vector<std::string>{"specs"} : *paths;
    specs::ValidateOptions opts;
    opts.only_op = *vop;
    std::string report;
    exit_code = specs::validate_paths(p, opts, report);
    (exit_code ? std::cerr : std::cout) << report;
  });

  auto ia = std::make_shared<InstArgs>();
  auto* i = spec->add_subcommand("instantiate", "turn an op's workload rows into concrete calls (JSON)");
  i->add_option("file", ia->file, "family file (types.yaml is found beside it)")->required();
  i->add_option("--op", ia->op, "op name")->required();
  i->add_option("--row", ia->row, "only the rows with this label");
  i->add_option("--npy", ia->npy_dir, "write every present input's data as .npy files into this folder");
  i->add_flag("--special", ia->special, "inject special values (0, -0, inf, nan, extremes) into float inputs");
  i->callback([ia, &exit_code] { exit_code = run_instantiate(*ia); });
}

}  // namespace kir::tools
