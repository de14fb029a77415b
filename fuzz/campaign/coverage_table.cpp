// See coverage_table.h.
#include "fuzz/campaign/coverage_table.h"

#include <iomanip>
#include <sstream>

#include "backends/cpu/impl/config.h"

namespace kir::fuzz {

void add_row_cells(cpu::CoverageMap& m) {
  for (const auto& row : cpu::active_config().rows)
    for (const auto& impl : row.implementations) m.cells.emplace("impl:" + impl + "@" + row.name, 0);
}

std::string coverage_table(const cpu::CoverageMap& m, bool only_unreached) {
  size_t reached = 0;
  for (const auto& [n, c] : m.cells) reached += c > 0;
  std::ostringstream s;
  s << "coverage: " << reached << " of " << m.cells.size() << " cells reached\n";
  // Cells "<subject>:<class>" of one subject on one line, in name order.
  std::string subject;
  std::string line;
  auto flush = [&] {
    if (!line.empty()) s << "  " << subject << "  " << line << "\n";
    line.clear();
  };
  for (const auto& [n, c] : m.cells) {
    if (only_unreached && c > 0) continue;
    const auto colon = n.rfind(':');
    // impl:/dtype: cells have their subject after the colon: one line each.
    const bool single = n.rfind("impl:", 0) == 0 || n.rfind("dtype:", 0) == 0 || colon == std::string::npos;
    const std::string subj = single ? n : n.substr(0, colon);
    const std::string cls = single ? "" : n.substr(colon + 1);
    if (subj != subject) {
      flush();
      subject = subj;
    }
    line += (line.empty() ? "" : ", ") + (cls.empty() ? std::string() : cls + " ") + std::to_string(c);
  }
  flush();
  return s.str();
}

nlohmann::json coverage_json(const cpu::CoverageMap& m) {
  nlohmann::json j;
  size_t reached = 0;
  for (const auto& [n, c] : m.cells) reached += c > 0;
  j["reached"] = reached;
  j["cells"] = m.cells.size();
  j["map"] = m.cells;
  return j;
}

bool names_cell(const std::vector<std::string>& cells, const std::string& target) {
  for (const auto& c : cells)
    if (c.find(target) != std::string::npos) return true;
  return false;
}

}  // namespace kir::fuzz
