// See report_files.h.
#include "report/report_files.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "report/render/render.h"

namespace kir::report {
namespace {

namespace fs = std::filesystem;

void write_text(const fs::path& p, const std::string& text) {
  const fs::path tmp = p.string() + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    f << text;
    if (!f) throw std::runtime_error("cannot write " + tmp.string());
  }
  fs::rename(tmp, p);
}

// Line and column of byte `at` in `text` (1-based).
std::string line_col(const std::string& text, size_t at) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < at && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return std::to_string(line) + ":" + std::to_string(col);
}

}  // namespace

void write_report_files(const std::string& dir, const nlohmann::json& doc) {
  fs::create_directories(dir);
  write_text(fs::path(dir) / "report.json", doc.dump(2) + "\n");
  write_text(fs::path(dir) / "report.md", render_markdown(doc));
  write_text(fs::path(dir) / "report.html", render_html(doc));
}

nlohmann::json read_report(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error(path + ": cannot read the report");
  std::stringstream s;
  s << f.rdbuf();
  const std::string text = s.str();
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::runtime_error(path + ":" + line_col(text, e.byte ? e.byte - 1 : 0) + ": not JSON: " + e.what());
  }
  if (!doc.is_object() || doc.value("schema", "") != "kir-report/1" || !doc.contains("cases") || !doc["cases"].is_array())
    throw std::runtime_error(path + ": not a kir report (expected \"schema\": \"kir-report/1\" and a \"cases\" array)");
  return doc;
}

}  // namespace kir::report
