// See report_case.h. The steps of one case: the backend's run judged by the oracle (its outputs
// and the interpreter's under the backend's declared orders come back from judge), the
// interpreter's canonical run with the envelope log (the exact result), every output measured
// (output_errors.h), the reference check, the verdict, and the reproducer directory.
#include "report/report_case.h"

#include <chrono>
#include <filesystem>

#include "fuzz/campaign/reproducer.h"
#include "interp/envelope_log.h"
#include "interp/npy.h"
#include "oracle/differential.h"  // clone_args
#include "report/output_errors.h"

namespace kir::report {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

json contract_json(const oracle::Verdict& v, bool ran) {
  return {{"outcome", ran ? oracle::outcome_name(v.outcome) : "not-run"},
          {"rule", v.rule},
          {"rule_detail", v.rule_detail},
          {"op", v.op},
          {"location", v.location},
          {"detail", v.str()}};
}

// Why the contract verdict fails, naming op, output and element.
std::string contract_reason(const oracle::Verdict& v) {
  std::string r = std::string(oracle::outcome_name(v.outcome)) +
                  (v.rule.empty() ? "" : " [" + v.rule + (v.rule_detail.empty() ? "" : ": " + v.rule_detail) + "]");
  if (!v.op.empty()) r += " in `" + v.op + "`" + (v.location.empty() ? "" : " at " + v.location);
  if (!v.diffs.empty()) {
    const auto& d = v.diffs.front();
    r += ": %" + d.output + interp::coord_str(d.coord) + " got " + d.got + ", allowed " + d.allowed;
    if (v.wrong > 1) r += " (" + std::to_string(v.wrong) + " elements)";
  } else if (!v.detail.empty()) {
    r += ": " + first_line(v.detail);
  }
  return r;
}

// The canonical run's output storages as exact values (envelope outputs: the exact sums), with
// <name>.defined.npy marking the elements the kernel wrote when it left some unwritten.
void write_exact(const fs::path& dir, const std::vector<OutputRun>& outs) {
  fs::create_directories(dir);
  for (const auto& o : outs) {
    const size_t n = o.exact->storage->bits.size();
    std::vector<uint64_t> bits(n), defined(n);
    bool all = true;
    for (size_t e = 0; e < n; ++e) {
      bits[e] = exact_bits(o, e);
      defined[e] = o.exact->storage->is_defined(static_cast<int64_t>(e));
      all = all && defined[e];
    }
    const interp::Shape flat{static_cast<int64_t>(n)};
    interp::write_npy((dir / (o.name + ".npy")).string(), o.exact->storage->dtype, flat, bits);
    if (!all) interp::write_npy((dir / (o.name + ".defined.npy")).string(), DType::Bool, flat, defined);
  }
}

bool any_defined(const interp::HostView& h) {
  for (size_t e = 0; e < h.storage->bits.size(); ++e)
    if (h.storage->is_defined(static_cast<int64_t>(e))) return true;
  return false;
}

}  // namespace

std::string repro_name(const std::string& id) {
  std::string s;
  for (char ch : id) s += (std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' || ch == '.') ? ch : '_';
  return s;
}

json measure_case(const ReportCase& c, const Built& b, const std::string& repro_root) {
  const auto t0 = std::chrono::steady_clock::now();
  json out = {{"id", c.id},       {"op", c.op},           {"row", c.row},       {"dtype", c.dtype},
              {"source", c.source}, {"kernel", c.kernel_path + " @" + c.kernel}, {"verdict", "PASS"}, {"reason", ""},
              {"reference", nullptr}, {"outputs", json::array()},           {"repro", ""}};
  auto finish = [&](json& o) -> json {
    o["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return o;
  };
  if (!c.skip.empty() || !c.error.empty()) {
    out["verdict"] = c.skip.empty() ? "FAIL" : "SKIP";
    out["reason"] = c.skip.empty() ? c.error : c.skip;
    out["contract"] = contract_json({}, false);
    return finish(out);
  }

  // The backend, judged under the contract.
  std::map<std::string, interp::KernelArg> got, declared;
  oracle::Verdict v;
  const bool ran = !b.early;
  if (b.early) v = *b.early;
  else v = oracle::judge(*c.module, c.kernel, c.args, *b.native, {}, &got, &declared);
  out["contract"] = contract_json(v, true);

  // The exact result: the interpreter's canonical run, with the envelopes of its sums.
  interp::EnvelopeLog log;
  auto exact = oracle::clone_args(c.args);
  std::string exact_error;
  try {
    interp::Options o;
    o.envelopes = &log;
    interp::Interpreter it(*c.module, o);
    it.run_kernel(c.kernel, exact);
  } catch (const std::exception& e) {
    exact_error = e.what();
  }

  std::vector<OutputRun> outs;
  const bool measured = ran && exact_error.empty() && v.rule != "error agreement";
  if (measured) {
    const Function& k = *c.module->find_function(c.kernel);
    const bool legal_schedule = v.rule == "atomic interleaving" && !v.failed();
    for (const kir::Value* p : k.params()) {
      if (!p->type.is(TypeKind::View) || p->type.access() == Access::In) continue;
      OutputRun r;
      r.name = p->name;
      r.got = &std::get<interp::HostView>(got.at(p->name));
      r.exact = &std::get<interp::HostView>(exact.at(p->name));
      r.declared = &std::get<interp::HostView>(declared.at(p->name));
      r.envelope = oracle::stored_component(log, *r.exact);
      r.legal_schedule = legal_schedule;
      if (!any_defined(*r.exact)) continue;  // not written by this call (an output aliasing a mutated input)
      outs.push_back(r);
      out["outputs"].push_back(measure_output(r));
    }
  }

  if (c.reference) {
    try {
      out["reference"] = c.reference();
    } catch (const std::exception& e) {
      out["reference"] = {{"status", "fail"}, {"tolerance", ""}, {"message", e.what()}, {"worst", nullptr}};
    }
  }

  // The verdict: the reference check, then the contract.
  const json& ref = out["reference"];
  if (v.outcome == oracle::Outcome::Unsupported) {
    out["verdict"] = "UNSUPPORTED";
    out["reason"] = first_line(v.detail);
  } else if (ref.is_object() && ref["status"] == "fail") {
    out["verdict"] = "FAIL";
    out["reason"] = "against the reference kernel: " + ref["message"].get<std::string>();
  } else if (v.failed()) {
    out["verdict"] = "FAIL";
    out["reason"] = contract_reason(v);
  }

  if (!repro_root.empty() && ran) {
    const std::string rel = "repro/" + repro_name(c.id);
    const fs::path dir = fs::path(repro_root) / rel;
    fuzz::FindingMeta meta;
    meta.origin = c.origin;
    meta.cxx_opt = cpu::cxx_opt_level();
    fuzz::write_reproducer(dir, c.program, c.kernel, c.dims, c.args, v, meta, measured ? &got : nullptr,
                           measured ? &declared : nullptr);
    if (measured) write_exact(dir / "exact", outs);
    out["repro"] = rel;
  }
  return finish(out);
}

}  // namespace kir::report
