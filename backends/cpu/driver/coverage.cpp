// See coverage.h.
#include "backends/cpu/driver/coverage.h"

#include <sstream>
#include <stdexcept>

namespace kir::cpu {

namespace {
thread_local CoverageMap* g_active = nullptr;
}  // namespace

void CoverageMap::add_known(const std::vector<std::string>& names) {
  for (const auto& n : names) cells.emplace(n, 0);
}

void CoverageMap::add_counts(const std::vector<std::string>& names, const std::vector<uint64_t>& counts) {
  for (size_t i = 0; i < names.size(); ++i) cells[names[i]] += i < counts.size() ? counts[i] : 0;
}

void CoverageMap::merge(const CoverageMap& other) {
  for (const auto& [n, c] : other.cells) cells[n] += c;
}

std::string CoverageMap::serialize() const {
  std::string s;
  for (const auto& [n, c] : cells) s += n + "=" + std::to_string(c) + "\n";
  return s;
}

void CoverageMap::parse(const std::string& text) {
  std::istringstream in(text);
  int line = 0;
  for (std::string l; std::getline(in, l);) {
    ++line;
    if (l.empty()) continue;
    const auto eq = l.rfind('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == l.size())
      throw std::runtime_error("coverage line " + std::to_string(line) + ": expected cell=count, got `" + l + "`");
    uint64_t c = 0;
    for (size_t i = eq + 1; i < l.size(); ++i) {
      if (l[i] < '0' || l[i] > '9')
        throw std::runtime_error("coverage line " + std::to_string(line) + ": count `" + l.substr(eq + 1) + "` is not a number");
      c = c * 10 + static_cast<uint64_t>(l[i] - '0');
    }
    cells[l.substr(0, eq)] += c;
  }
}

CoverageScope::CoverageScope(CoverageMap& m) : prev_(g_active) { g_active = &m; }
CoverageScope::~CoverageScope() { g_active = prev_; }

CoverageMap* active_coverage() { return g_active; }

}  // namespace kir::cpu
