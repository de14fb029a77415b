// The files of a report directory (kir report -o DIR): report.json (docs/report-schema.json),
// report.md and report.html (render/render.h), beside the reproducers under DIR/repro/.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace kir::report {

// Writes DIR/report.json, DIR/report.md and DIR/report.html (creating DIR).
void write_report_files(const std::string& dir, const nlohmann::json& doc);

// Reads a report.json; throws std::runtime_error naming the file (and the line and column of a
// syntax error) when it is missing, malformed or not a kir-report/1 document.
nlohmann::json read_report(const std::string& path);

}  // namespace kir::report
