// `kir report [PATHS] [--backend cpu] [--ops …] [--dtypes …] [--baseline OLD.json] -o DIR`: the
// numerical conformance report (report/report_run.h, docs/report.md). PATHS are manifests (files
// or folders holding .yaml) and kernel files (.kir, or folders of them); every workload row and
// every kernel runs on the CPU backend and in the interpreter. Writes DIR/report.json,
// DIR/report.md, DIR/report.html and DIR/repro/<case>/. `--from REPORT.json` renders an existing
// report again (optionally against a baseline). Exit 0 when every case and math row passes, 1 when
// one fails or a row regressed against the baseline, 2 on usage errors.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "kir/load.h"
#include "report/baseline.h"
#include "report/report_files.h"
#include "report/report_run.h"
#include "tools/commands.h"
#include "tools/kernel_inputs.h"
#include "kir/text/printer.h"

namespace kir::tools {
namespace {

namespace fs = std::filesystem;

struct ReportArgs {
  std::vector<std::string> paths;
  std::string backend = "cpu", out = "kir-report", baseline, from;
  std::vector<std::string> ops, dtypes, math_functions, math_dtypes;
  bool no_math = false, no_repro = false;
  uint64_t math_samples = 1'000'000;
  uint64_t seed = 20261129;
  int jobs = 0;
};

bool holds_yaml(const fs::path& dir) {
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && (e.path().extension() == ".yaml" || e.path().extension() == ".yml")) return true;
  return false;
}

// Splits PATHS into manifests and kernel files; "" or the usage error.
std::string classify(const std::vector<std::string>& paths, std::vector<std::string>& manifests, std::vector<fs::path>& kernels) {
  for (const auto& p : paths) {
    const fs::path path(p);
    if (!fs::exists(path)) return "no such file or directory: " + p;
    if (fs::is_directory(path)) {
      if (holds_yaml(path)) {
        manifests.push_back(p);
        continue;
      }
      std::vector<fs::path> found;
      for (const auto& e : fs::directory_iterator(path))
        if (e.is_regular_file() && e.path().extension() == ".kir") found.push_back(e.path());
      if (found.empty()) return p + ": a folder with neither manifests (.yaml) nor kernel files (.kir)";
      std::sort(found.begin(), found.end());
      kernels.insert(kernels.end(), found.begin(), found.end());
    } else if (path.extension() == ".kir") {
      kernels.push_back(path);
    } else if (path.extension() == ".yaml" || path.extension() == ".yml") {
      manifests.push_back(p);
    } else {
      return p + ": neither a manifest (.yaml) nor a kernel file (.kir)";
    }
  }
  return "";
}

// Every kernel of every file as a case on inputs generated from `seed` (extents default to 8).
// A file that does not load is one failing case naming the diagnostics.
void add_kernel_cases(const std::vector<fs::path>& files, uint64_t seed, report::CaseList& list) {
  for (const auto& f : files) {
    Diagnostics diags;
    std::string source;
    auto m = load_canonical(f.string(), diags, source);
    if (!m) {
      report::ReportCase c;
      c.id = c.op = f.string();
      c.source = f.string();
      c.error = "does not load:\n" + diags.render(source);
      list.cases.push_back(std::move(c));
      continue;
    }
    const std::string program = print_module(*m);
    for (const auto& fn : m->functions) {
      if (!fn->is_kernel()) continue;
      report::ReportCase c;
      c.op = fn->name;
      c.id = f.string() + "@" + fn->name;
      c.source = f.string();
      c.origin = "kernel:" + f.string();
      c.kernel_path = f.string();
      c.module = m.get();
      c.program = program;
      c.kernel = fn->name;
      InputSpec spec;
      spec.seed = seed;
      std::ostringstream notes;
      try {
        c.error = make_kernel_args(*fn, spec, c.args, notes);
        if (c.error.empty()) c.dims = interp::bind_kernel_extents(*fn, c.args);
      } catch (const std::exception& e) {
        c.error = e.what();
      }
      std::vector<std::string> dts;  // the outputs' dtypes, each once
      for (const kir::Value* p : fn->params())
        if (p->type.is(TypeKind::View) && p->type.access() != Access::In)
          if (const std::string d(name(p->type.dtype())); std::find(dts.begin(), dts.end(), d) == dts.end()) dts.push_back(d);
      for (const auto& d : dts) c.dtype += (c.dtype.empty() ? "" : ",") + d;
      list.cases.push_back(std::move(c));
    }
    list.modules.push_back(std::move(m));
  }
}

int finish(const nlohmann::json& doc, const std::string& out) {
  report::write_report_files(out, doc);
  const auto& s = doc["summary"];
  std::cout << "kir report: " << s["cases"] << " cases: " << s["pass"] << " pass, " << s["fail"] << " FAIL, " << s["unsupported"]
            << " unsupported, " << s["skip"] << " skipped; " << s["ops"] << " ops";
  if (doc.contains("math") && !doc["math"]["functions"].empty())
    std::cout << "; math: " << doc["math"]["functions"].size() << " rows, " << s["math_fail"] << " FAIL";
  if (s.contains("regressions")) std::cout << "; against the baseline: " << s["regressions"] << " regressions, " << s["improvements"] << " improvements";
  std::cout << "\nkir report: wrote " << (fs::path(out) / "report.html").string() << " (and report.json, report.md)\n";
  for (const auto& c : doc["cases"])
    if (c["verdict"] == "FAIL")
      std::cerr << "kir report: FAIL " << c["id"].get<std::string>() << ": " << c["reason"].get<std::string>()
                << (c["repro"].get<std::string>().empty() ? "" : " (reproducer: " + (fs::path(out) / c["repro"].get<std::string>()).string() + ")") << "\n";
  const bool bad = s["fail"].get<int>() > 0 || s.value("math_fail", 0) > 0 || s.value("regressions", 0) > 0;
  return bad ? 1 : 0;
}

void attach_baseline(nlohmann::json& doc, const std::string& path) {
  doc["baseline"] = report::compare_with_baseline(doc, report::read_report(path), path);
  int reg = 0, imp = 0;
  for (const auto& r : doc["baseline"]["rows"]) {
    reg += r["change"] == "regression";
    imp += r["change"] == "improvement";
  }
  doc["summary"]["regressions"] = reg;
  doc["summary"]["improvements"] = imp;
}

int run_report_command(const ReportArgs& a) {
  try {
    if (a.backend != "cpu") {
      std::cerr << "kir report: --backend must be cpu (the one compiled backend kir has), not '" << a.backend << "'\n";
      return 2;
    }
    if (!a.from.empty()) {
      nlohmann::json doc = report::read_report(a.from);
      doc.erase("baseline");
      if (doc.contains("summary")) {
        doc["summary"].erase("regressions");
        doc["summary"].erase("improvements");
      }
      if (!a.baseline.empty()) attach_baseline(doc, a.baseline);
      return finish(doc, a.out);
    }
    std::vector<std::string> manifests;
    std::vector<fs::path> kernels;
    const std::vector<std::string> paths = a.paths.empty() ? std::vector<std::string>{"specs"} : a.paths;
    if (std::string err = classify(paths, manifests, kernels); !err.empty()) {
      std::cerr << "kir report: " << err << "\n";
      return 2;
    }
    if (!a.baseline.empty()) report::read_report(a.baseline);  // a bad baseline fails before the long run
    report::CaseList list;
    if (!manifests.empty()) report::add_manifest_cases(manifests, list);
    if (list.manifest_errors) {
      std::cerr << list.diagnostics << "kir report: the manifests do not validate; no report written\n";
      return 1;
    }
    add_kernel_cases(kernels, a.seed, list);
    report::ReportOptions o;
    o.ops = a.ops;
    o.dtypes = a.dtypes;
    o.out_dir = a.no_repro ? "" : a.out;
    o.math = !a.no_math;
    o.math_options.samples = a.math_samples;
    o.math_options.functions = a.math_functions;
    for (const auto& d : a.math_dtypes) {
      auto dt = parse_dtype(d);
      if (!dt) {
        std::cerr << "kir report: --math-dtypes: unknown dtype '" << d << "' (f16, bf16, f32, f64)\n";
        return 2;
      }
      o.math_options.dtypes.push_back(*dt);
    }
    o.jobs = a.jobs;
    o.inputs = paths;
    o.progress = [](const std::string& line) { std::cerr << line << "\n"; };
    size_t chosen = 0;
    for (const auto& c : list.cases) chosen += report::selected(c, o);
    if (chosen == 0) {
      std::cerr << "kir report: no case matches";
      if (!a.ops.empty()) std::cerr << " --ops";
      if (!a.dtypes.empty()) std::cerr << " --dtypes";
      std::cerr << " among the " << list.cases.size() << " cases of " << paths.size() << " path(s)\n";
      return 2;
    }
    if (!a.no_repro && fs::exists(fs::path(a.out) / "repro")) fs::remove_all(fs::path(a.out) / "repro");
    nlohmann::json doc = report::run_report(list, o);
    if (!a.baseline.empty()) attach_baseline(doc, a.baseline);
    return finish(doc, a.out);
  } catch (const std::exception& e) {
    std::cerr << "kir report: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace

void register_report_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<ReportArgs>();
  auto* r = app.add_subcommand("report", "numerical conformance report: every manifest workload row and kernel on the CPU backend "
                                         "against the exact result, in JSON, Markdown and HTML (docs/report.md)");
  r->add_option("paths", a->paths, "manifests (.yaml or folders of them) and kernel files (.kir or folders); default: specs");
  r->add_option("-o,--out", a->out, "the report folder (report.json, report.md, report.html, repro/)");
  r->add_option("--backend", a->backend, "the backend under test: cpu");
  r->add_option("--ops", a->ops, "only these ops (comma-separated)")->delimiter(',');
  r->add_option("--dtypes", a->dtypes, "only cases with one of these dtypes (comma-separated, as the case names them: float16, f32, ...)")->delimiter(',');
  r->add_option("--baseline", a->baseline, "an earlier report.json: mark regressions and improvements per row");
  r->add_option("--from", a->from, "render an existing report.json again instead of running (with --baseline: compare it)");
  r->add_flag("--no-math", a->no_math, "leave out the math accuracy section");
  r->add_option("--math-samples", a->math_samples, "random inputs per 32/64-bit math function (default 1000000)");
  r->add_option("--math-functions", a->math_functions, "only these math functions (comma-separated)")->delimiter(',');
  r->add_option("--math-dtypes", a->math_dtypes, "only these dtypes in the math section (f16, bf16, f32, f64)")->delimiter(',');
  r->add_flag("--no-repro", a->no_repro, "do not write reproducer folders");
  r->add_option("--seed", a->seed, "seed of the generated inputs of kernel files");
  r->add_option("--jobs", a->jobs, "parallel compiles (default: the number of cores)");
  r->callback([a, &exit_code] { exit_code = run_report_command(*a); });
}

}  // namespace kir::tools
