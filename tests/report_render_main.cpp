// Test-only tool (target kir_report_render_fixture): renders a report.json file to report.html or
// report.md with kir::report, so CTest can hand a rendered page to scripts/check-report-html.sh.
// Usage: kir_report_render_fixture (--html|--md) REPORT.json OUT
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "report/render/render.h"

int main(int argc, char** argv) {
  if (argc != 4 || (std::string(argv[1]) != "--html" && std::string(argv[1]) != "--md")) {
    std::cerr << "usage: kir_report_render_fixture (--html|--md) REPORT.json OUT\n";
    return 2;
  }
  try {
    std::ifstream in(argv[2]);
    if (!in) {
      std::cerr << "cannot read " << argv[2] << "\n";
      return 1;
    }
    nlohmann::json report = nlohmann::json::parse(in);
    std::string text = std::string(argv[1]) == "--html" ? kir::report::render_html(report)
                                                        : kir::report::render_markdown(report);
    std::ofstream out(argv[3], std::ios::binary);
    out << text;
    if (!out) {
      std::cerr << "cannot write " << argv[3] << "\n";
      return 1;
    }
  } catch (const std::exception& e) {
    std::cerr << "kir_report_render_fixture: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
