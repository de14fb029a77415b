// Making a whole report (kir report, docs/report.md): the cases of manifests (every workload row
// and dtype case, with the reference check) and of kernel files (built by the caller), compiled in
// batches through the artifact cache, measured one by one (report_case.h), the math accuracy
// section (math/math_accuracy.h), the summary, and the document of docs/report-schema.json.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "oracle/spec_cases.h"
#include "report/math/math_accuracy.h"
#include "report/report_case.h"

namespace kir::report {

struct CaseList {
  std::vector<ReportCase> cases;
  std::vector<std::unique_ptr<Module>> modules;  // of kernel-file cases
  std::vector<std::unique_ptr<oracle::SpecSuite>> suites;  // of manifest cases
  std::string diagnostics;      // manifest loader/validator messages
  bool manifest_errors = false;  // some manifest does not load or validate: no report
};

// Adds every workload row and dtype case of the manifests under `paths` (files or directories).
void add_manifest_cases(const std::vector<std::string>& paths, CaseList& list);

struct ReportOptions {
  std::vector<std::string> ops;     // only these ops (case op names); empty: all
  std::vector<std::string> dtypes;  // only cases with one of these dtypes (a token of the case's dtype); empty: all
  std::string out_dir;              // where reproducers go (out_dir/repro/...); empty: none written
  bool math = true;                 // the math accuracy section
  MathOptions math_options;
  int jobs = 0;                     // parallel compiles; 0: hardware concurrency
  std::vector<std::string> inputs;  // recorded in the document
  std::function<void(const std::string&)> progress;  // one line per case / math row
};

// Whether case `c` passes the --ops / --dtypes filters.
bool selected(const ReportCase& c, const ReportOptions& o);

// Runs every selected case and the math section; returns the report document.
nlohmann::json run_report(CaseList& list, const ReportOptions& o);

// The summary object of a document's cases and math rows (docs/report-schema.json `summary`).
nlohmann::json summarize(const nlohmann::json& doc);

}  // namespace kir::report
