// See report_run.h.
#include "report/report_run.h"

#include <algorithm>
#include <future>
#include <set>
#include <sstream>
#include <thread>

#include "kir/text/printer.h"
#include "oracle/backend_run.h"
#include "oracle/spec_args.h"
#include "oracle/spec_run.h"

namespace kir::report {
namespace {

using nlohmann::json;
constexpr size_t kBatch = 8;  // programs per shared object

std::vector<std::string> split_tokens(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : s) {
    if (ch == ',' || ch == ' ') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// The dtype case of a call: its case id after the row label ("float16", "float16,int8"), or the
// dtypes of the present tensors when the op has one dtype case.
std::string call_dtype(const specs::Call& call) {
  if (call.case_id.size() > call.label.size() + 1 && call.case_id.compare(0, call.label.size(), call.label) == 0) {
    std::string s = call.case_id.substr(call.label.size() + 1);
    std::replace(s.begin(), s.end(), '-', ',');
    return s;
  }
  std::vector<std::string> seen;
  for (const auto& t : call.tensors)
    if (t.present && std::find(seen.begin(), seen.end(), t.dtype) == seen.end()) seen.push_back(t.dtype);
  std::string s;
  for (const auto& d : seen) s += (s.empty() ? "" : ",") + d;
  return s;
}

json reference_json(const specs::OpSpec& op, const specs::Call& call, const oracle::LoadedKernels& kern,
                    const oracle::LoadedKernels& ref, const std::vector<specs::TensorData>& data) {
  const oracle::Tolerance& tol = ref.tolerance;
  json out = {{"status", "pass"},
              {"tolerance", tol.ulps == 0 && tol.atol == 0 ? "exact" : tol.str()},
              {"message", ""},
              {"worst", nullptr}};
  try {
    const Function& k = oracle::kernel_for_call(*kern.module, op.name, call, kern.path);
    oracle::Invocation got = oracle::guarded("kernel @" + k.name, [&] { return oracle::build_args(k, call, data); });
    oracle::run_paired_kernel(op, call, *kern.module, k, got);
    for (const auto& t : oracle::compare_with_reference(op, call, ref, data, got)) {
      if (t.comparison.ok()) continue;
      const auto& c = t.comparison;
      out["status"] = "fail";
      out["message"] = std::string(t.output ? "output '" : "mutated input '") + t.tensor + "': " + c.str();
      out["worst"] = {{"output", t.tensor}, {"coord", c.worst_coord}, {"got", c.worst_got}, {"exact", c.worst_want},
                      {"ulps", nullptr},    {"allowed_ulps", static_cast<double>(tol.ulps)}};
      const auto sp = c.worst_distance.find(" ulp");
      if (sp != std::string::npos && std::isdigit(static_cast<unsigned char>(c.worst_distance[0])))
        out["worst"]["ulps"] = std::stod(c.worst_distance.substr(0, sp));
      break;
    }
  } catch (const std::exception& e) {
    out["status"] = "fail";
    out["message"] = e.what();
  }
  return out;
}

// Compiles the cases' kernels: a shared object per batch of kBatch cases (oracle::build_batch,
// which isolates a program that breaks its batch), batches built in parallel.
std::vector<Built> build_all(const std::vector<const ReportCase*>& cases, int jobs) {
  std::vector<Built> built(cases.size());
  std::vector<std::vector<size_t>> batches;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (!cases[i]->skip.empty() || !cases[i]->error.empty()) continue;
    if (batches.empty() || batches.back().size() == kBatch) batches.emplace_back();
    batches.back().push_back(i);
  }
  auto build_one_batch = [&](const std::vector<size_t>& batch) {
    const auto programs = oracle::build_batch(batch.size(), [&](size_t j) {
      const ReportCase& c = *cases[batch[j]];
      return oracle::compile_for_args(*c.module, c.kernel, c.args);
    });
    for (size_t j = 0; j < batch.size(); ++j) {
      if (programs[j].native) built[batch[j]].native = programs[j].native;
      else built[batch[j]].early = oracle::compile_failure_verdict(programs[j].error);
    }
  };
  const size_t workers = std::max<size_t>(1, jobs > 0 ? static_cast<size_t>(jobs) : std::thread::hardware_concurrency());
  std::atomic<size_t> next{0};
  std::vector<std::future<void>> pool;
  for (size_t w = 0; w < std::min(workers, batches.size()); ++w)
    pool.push_back(std::async(std::launch::async, [&] {
      for (size_t b; (b = next++) < batches.size();) build_one_batch(batches[b]);
    }));
  for (auto& f : pool) f.get();
  return built;
}

}  // namespace

void add_manifest_cases(const std::vector<std::string>& paths, CaseList& list) {
  oracle::SpecLoadOptions lopt;
  lopt.with_reference = true;
  auto suite = oracle::load_spec_suite(paths, lopt);
  list.diagnostics += suite->diagnostics;
  if (suite->manifest_errors) {
    list.manifest_errors = true;
    return;
  }
  for (const oracle::SpecOp& w : suite->ops) {
    if (!w.skip.empty() || !w.error.empty()) {
      ReportCase c;
      c.op = w.op->name;
      c.id = w.op->name;
      c.source = w.op->file;
      (w.skip.empty() ? c.error : c.skip) = w.skip.empty() ? w.error : w.skip;
      list.cases.push_back(std::move(c));
      continue;
    }
    const std::string program = w.kern.normalized ? print_module(*w.kern.module) : w.kern.source;
    for (const specs::Call& call : w.calls) {
      ReportCase c;
      c.op = w.op->name;
      c.row = call.label;
      c.dtype = call_dtype(call);
      c.id = c.op + "/" + call.case_id;
      c.source = w.op->file;
      c.origin = "manifest:" + w.op->file + "#" + call.label;
      c.kernel_path = w.kern.path;
      c.module = w.kern.module.get();
      c.program = program;
      try {
        const Function& k = oracle::kernel_for_call(*w.kern.module, w.op->name, call, w.kern.path);
        auto data = std::make_shared<const std::vector<specs::TensorData>>(oracle::generate_case_inputs(*w.op, call, {}));
        c.kernel = k.name;
        c.args = oracle::guarded("kernel @" + k.name, [&] { return oracle::build_args(k, call, *data).args; });
        c.dims = oracle::guarded("kernel @" + k.name, [&] { return interp::bind_kernel_extents(k, c.args); });
        const specs::OpSpec* op = w.op;
        const oracle::LoadedKernels* kern = &w.kern;
        const oracle::LoadedKernels* ref = &w.ref;
        c.reference = [op, call, kern, ref, data] { return reference_json(*op, call, *kern, *ref, *data); };
      } catch (const oracle::SpecCaseSkip& e) {  // no kernel variant fixes the row's param values
        c.skip = e.what();
      } catch (const std::exception& e) {
        c.error = e.what();
      }
      list.cases.push_back(std::move(c));
    }
  }
  list.suites.push_back(std::move(suite));
}

bool selected(const ReportCase& c, const ReportOptions& o) {
  if (!o.ops.empty() && std::find(o.ops.begin(), o.ops.end(), c.op) == o.ops.end()) return false;
  if (o.dtypes.empty()) return true;
  for (const auto& t : split_tokens(c.dtype))
    if (std::find(o.dtypes.begin(), o.dtypes.end(), t) != o.dtypes.end()) return true;
  return false;
}

json summarize(const json& doc) {
  json s = {{"cases", 0}, {"pass", 0}, {"fail", 0}, {"unsupported", 0}, {"skip", 0}, {"ops", 0}, {"dtypes", json::array()}, {"math_fail", 0}};
  std::set<std::string> ops, dtypes;
  for (const auto& c : doc["cases"]) {
    s["cases"] = s["cases"].get<int>() + 1;
    const std::string v = c["verdict"];
    const char* key = v == "PASS" ? "pass" : v == "FAIL" ? "fail" : v == "UNSUPPORTED" ? "unsupported" : "skip";
    s[key] = s[key].get<int>() + 1;
    ops.insert(c["op"].get<std::string>());
    if (!c["dtype"].get<std::string>().empty()) dtypes.insert(c["dtype"].get<std::string>());
  }
  s["ops"] = ops.size();
  s["dtypes"] = std::vector<std::string>(dtypes.begin(), dtypes.end());
  if (doc.contains("math"))
    for (const auto& r : doc["math"]["functions"]) s["math_fail"] = s["math_fail"].get<int>() + (r["verdict"] == "FAIL");
  return s;
}

json run_report(CaseList& list, const ReportOptions& o) {
  std::vector<const ReportCase*> todo;
  for (const auto& c : list.cases)
    if (selected(c, o)) todo.push_back(&c);
  if (o.progress) o.progress("compiling " + std::to_string(todo.size()) + " cases for the CPU backend");
  const std::vector<Built> built = build_all(todo, o.jobs);
  json doc = {{"schema", "kir-report/1"}, {"kir_version", KIR_REPORT_VERSION}, {"backend", "cpu"}, {"inputs", o.inputs}, {"cases", json::array()}};
  for (size_t i = 0; i < todo.size(); ++i) {
    json c = measure_case(*todo[i], built[i], o.out_dir);
    if (o.progress) {
      std::ostringstream line;
      line << "[" << i + 1 << "/" << todo.size() << "] " << c["verdict"].get<std::string>() << " " << c["id"].get<std::string>();
      const auto& ct = c["contract"];
      if (ct["outcome"] != "not-run" && !ct["rule"].get<std::string>().empty())  // the verdict's rule
        line << " check: " << (ct["outcome"] == "pass" || ct["outcome"] == "unsupported" ? ct["outcome"].get<std::string>() : "FAIL") << " (" << ct["rule"].get<std::string>()
             << (ct.value("rule_detail", "").empty() ? "" : ": " + ct.value("rule_detail", "")) << ")";
      if (!c["reason"].get<std::string>().empty()) line << ": " << c["reason"].get<std::string>().substr(0, 160);
      o.progress(line.str());
    }
    doc["cases"].push_back(std::move(c));
  }
  if (o.math) {
    MathOptions mo = o.math_options;
    if (!mo.progress) mo.progress = o.progress;
    doc["math"] = math_section(mo);
  } else {
    doc["math"] = {{"samples", 0}, {"seed", o.math_options.seed}, {"functions", json::array()}};
  }
  doc["summary"] = summarize(doc);
  return doc;
}

}  // namespace kir::report
