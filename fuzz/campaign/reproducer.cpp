// Writing and reading finding directories (reproducer.h).
#include "fuzz/campaign/reproducer.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "backends/cpu/driver/compiler.h"
#include "backends/cpu/mutants/mutants.h"
#include "backends/cpu/runtime/worker_pool.h"
#include "fuzz/campaign/case_rows.h"
#include "interp/npy.h"

namespace kir::fuzz {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

void write_file(const fs::path& p, const std::string& text) {
  std::ofstream f(p, std::ios::binary);
  f << text;
  if (!f) throw std::runtime_error("cannot write " + p.string());
}

std::string read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) throw std::runtime_error(p.string() + ": cannot read (not a finding directory?)");
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// A config row as case.json records it, and back.
json row_json(const cpu::ConfigRow& r) {
  json j;
  j["shared"] = json::object();
  for (const auto& [k, v] : r.shared) j["shared"][k] = v;
  j["local"] = json::object();
  for (const auto& [k, v] : r.local) j["local"][k] = v;
  j["implementations"] = r.implementations;
  j["where"] = r.where;
  return j;
}

cpu::ConfigRow row_of(const std::string& name, const json& j, const std::string& where) {
  cpu::ConfigRow r;
  r.name = name;
  r.where = where + " (recorded from " + j.value("where", std::string("?")) + ")";
  for (const std::string& k : cpu::shared_binding_names()) r.shared.emplace_back(k, j.at("shared").at(k).get<int64_t>());
  for (const auto& [k, v] : j.at("local").items()) r.local.emplace_back(k, v.get<int64_t>());
  r.implementations = j.at("implementations").get<std::vector<std::string>>();
  return r;
}

// A view's whole storage as a flat array (its layout is in case.json).
void write_storage(const fs::path& p, const interp::HostView& h) {
  interp::write_npy(p.string(), h.storage->dtype, interp::Shape{static_cast<int64_t>(h.storage->bits.size())},
                    h.storage->bits);
}

}  // namespace

void write_reproducer(const fs::path& dir, const std::string& program, const std::string& kernel,
                      const std::map<std::string, int64_t>& dims, const std::map<std::string, interp::KernelArg>& args,
                      const oracle::Verdict& v, const FindingMeta& meta, const std::map<std::string, interp::KernelArg>* got,
                      const std::map<std::string, interp::KernelArg>* expected) {
  const fs::path tmp = dir.parent_path() / (".tmp-" + dir.filename().string() + "-" + std::to_string(getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp / "inputs");
  write_file(tmp / "program.kir", program);
  json c;
  c["kernel"] = kernel;
  c["dims"] = dims;
  c["views"] = json::object();
  c["scalars"] = json::object();
  for (const auto& [name, a] : args) {
    if (const auto* h = std::get_if<interp::HostView>(&a)) {
      c["views"][name] = {{"dtype", std::string(kir::name(h->storage->dtype))},
                          {"shape", h->shape},
                          {"strides", h->strides},
                          {"offset", h->offset},
                          {"storage", h->storage->bits.size()}};
      if (h->absent) c["views"][name]["absent"] = true;
    } else if (const auto* s = std::get_if<interp::Scalar>(&a)) {
      c["scalars"][name] = {{"dtype", std::string(kir::name(s->dtype))}, {"bits", s->bits}};
    } else if (const auto* e = std::get_if<interp::EnumArg>(&a)) {
      c["enums"][name] = e->member;
    }
  }
  c["outcome"] = oracle::outcome_name(v.outcome);
  c["rule"] = v.rule;
  c["op"] = v.op;
  c["location"] = v.location;
  c["signature"] = v.signature();
  c["origin"] = meta.origin;
  c["campaign_seed"] = meta.campaign_seed;
  c["index"] = meta.index;
  c["case_seed"] = meta.case_seed;
  c["size"] = meta.size;
  c["shrink_steps"] = meta.shrink_steps;
  c["reduce_steps"] = meta.reduce_steps;
  c["cxx_opt"] = meta.cxx_opt;
  // The worker pool's size the case ran with: a finding that depends on timing is repeated
  // under it (kir repro --repeat).
  c["threads"] = cpu::rt::WorkerPool::global_threads();
  c["pass"] = meta.pass;
  if (!meta.config_row.empty()) {
    c["config_row"] = meta.config_row;
    if (const cpu::ConfigRow* row = cpu::active_config().find(meta.config_row)) c["config_row_definition"] = row_json(*row);
  }
  if (const cpu::MutantInfo* mu = cpu::active_mutant()) c["mutant"] = mu->name;
  write_file(tmp / "case.json", c.dump(2) + "\n");
  for (const auto& [name, a] : args)
    if (const auto* h = std::get_if<interp::HostView>(&a)) write_storage(tmp / "inputs" / (name + ".npy"), *h);
  if (got)
    for (const auto& [name, a] : *got)
      if (const auto* h = std::get_if<interp::HostView>(&a)) {
        fs::create_directories(tmp / "got");
        write_storage(tmp / "got" / (name + ".npy"), *h);
      }
  if (expected)
    for (const auto& [name, a] : *expected)
      if (const auto* h = std::get_if<interp::HostView>(&a)) {
        fs::create_directories(tmp / "expected");
        write_storage(tmp / "expected" / (name + ".npy"), *h);
      }
  write_file(tmp / "verdict.txt", v.str());
  write_file(tmp / "repro.sh", "#!/bin/sh\n# Re-runs this finding: exits 1 while the backend still fails it.\nexec \"${KIR:-kir}\" repro \"$(dirname \"$0\")\" \"$@\"\n");
  fs::permissions(tmp / "repro.sh", fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                        fs::perms::others_read | fs::perms::others_exec);
  fs::remove_all(dir);
  fs::rename(tmp, dir);
}

Reproducer read_reproducer_meta(const fs::path& dir) {
  Reproducer r;
  r.program_path = (dir / "program.kir").string();
  r.program = read_file(dir / "program.kir");
  json c;
  try {
    c = json::parse(read_file(dir / "case.json"));
    r.kernel = c.at("kernel").get<std::string>();
    r.dims = c.at("dims").get<std::map<std::string, int64_t>>();
    r.signature = c.value("signature", "");
    r.outcome = c.value("outcome", "");
    r.cxx_opt = c.value("cxx_opt", 3);
    r.threads = c.value("threads", 0);
    r.mutant = c.value("mutant", "");
    r.config_row = c.value("config_row", "");
    if (c.contains("config_row_definition")) r.row = row_of(r.config_row, c["config_row_definition"], (dir / "case.json").string());
  } catch (const json::exception& e) {
    throw std::runtime_error((dir / "case.json").string() + ": " + e.what());
  }
  return r;
}

void apply_build_settings(const Reproducer& r) {
  cpu::set_cxx_opt_level(r.cxx_opt);
  // The pool is made at the first native run, from KIR_THREADS: an explicit setting wins.
  if (r.threads > 0 && !std::getenv("KIR_THREADS")) ::setenv("KIR_THREADS", std::to_string(r.threads).c_str(), 1);
  if (r.mutant.empty())
    ::unsetenv("KIR_MUTANT");
  else
    ::setenv("KIR_MUTANT", r.mutant.c_str(), 1);
  if (r.row) install_row(*r.row);
  else if (!r.config_row.empty()) install_small_rows();  // recorded by name only
}

std::map<std::string, interp::KernelArg> reproducer_args(const fs::path& dir, const Module& m) {
  const fs::path cj = dir / "case.json";
  json c;
  try {
    c = json::parse(read_file(cj));
  } catch (const json::exception& e) {
    throw std::runtime_error(cj.string() + ": " + e.what());
  }
  const Reproducer meta = read_reproducer_meta(dir);
  const Function* k = m.find_function(meta.kernel);
  if (!k) throw std::runtime_error(cj.string() + ": kernel @" + meta.kernel + " is not in program.kir");
  std::map<std::string, interp::KernelArg> args;
  try {
    for (const kir::Value* p : k->params()) {
      const std::string& n = p->name;
      if (p->type.is(TypeKind::View)) {
        if (!c["views"].contains(n)) throw std::runtime_error("no layout for view %" + n);
        const json& v = c["views"][n];
        auto d = parse_dtype(v.at("dtype").get<std::string>());
        if (!d) throw std::runtime_error("view %" + n + ": unknown dtype");
        interp::HostView h;
        const fs::path npy = dir / "inputs" / (n + ".npy");
        interp::Tensor t = interp::npy_to_tensor(interp::read_npy(npy.string()), *d);
        h = interp::make_host_view(*d, interp::Shape{static_cast<int64_t>(t.size())}, t.bits);
        h.shape = v.at("shape").get<interp::Shape>();
        h.strides = v.at("strides").get<interp::Shape>();
        h.offset = v.at("offset").get<int64_t>();
        h.absent = v.value("absent", false);
        args[n] = h;
      } else if (c["scalars"].contains(n)) {
        const json& s = c["scalars"][n];
        auto d = parse_dtype(s.at("dtype").get<std::string>());
        if (!d) throw std::runtime_error("scalar %" + n + ": unknown dtype");
        args[n] = interp::Scalar{*d, s.at("bits").get<uint64_t>()};
      } else if (c.contains("enums") && c["enums"].contains(n)) {
        args[n] = interp::EnumArg{c["enums"][n].get<std::string>()};
      }
    }
  } catch (const json::exception& e) {
    throw std::runtime_error(cj.string() + ": " + e.what());
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(cj.string() + ": " + e.what());
  }
  return args;
}

}  // namespace kir::fuzz
