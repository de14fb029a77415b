// Helpers for the file-driven KIR suites: listing test files and reading the expectations
// written in their leading comments (`// expect: RULE "message fragment"`).
#pragma once
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "kir/ir.h"
#include "kir/location.h"

namespace kir::test {

inline std::vector<std::filesystem::path> kir_files(const std::string& subdir) {
  std::vector<std::filesystem::path> out;
  std::filesystem::path dir = std::filesystem::path(KIR_SOURCE_DIR) / "tests" / "kir" / subdir;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".kir") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// ` --dim S=n` for the small test extents (N=3, M=2, K=4, G=2, H=3, R=5, D=2, Q=2) that are
// extents of kernel `f` (`kir run` rejects a --dim the kernel does not have).
inline std::string small_dims(const Function& f) {
  static const std::map<std::string, int> small = {{"N", 3}, {"M", 2}, {"K", 4}, {"G", 2},
                                                   {"H", 3}, {"R", 5}, {"D", 2}, {"Q", 2}};
  std::set<std::string> syms;
  for (const kir::Value* p : f.params())
    if (p->type.is(TypeKind::View))
      for (const Extent& e : p->type.shape())
        for (const auto& sym : e.symbols()) syms.insert(sym);
  std::string dims;
  for (const auto& [sym, n] : small)
    if (syms.count(sym)) dims += " --dim " + sym + "=" + std::to_string(n);
  return dims;
}

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Expectation {
  std::string rule;
  std::string fragment;
};

// Lines of the form `// expect: L6.2 "carry"`.
inline std::vector<Expectation> expectations(const std::string& text) {
  std::vector<Expectation> out;
  std::istringstream in(text);
  std::string line;
  const std::string key = "// expect:";
  while (std::getline(in, line)) {
    auto pos = line.find(key);
    if (pos == std::string::npos) continue;
    std::istringstream rest(line.substr(pos + key.size()));
    Expectation e;
    rest >> e.rule;
    auto q1 = line.find('"', pos);
    auto q2 = q1 == std::string::npos ? q1 : line.find('"', q1 + 1);
    if (q1 != std::string::npos && q2 != std::string::npos) e.fragment = line.substr(q1 + 1, q2 - q1 - 1);
    out.push_back(e);
  }
  return out;
}

// Each expectation must be met by an error in `d` (same rule, message containing the fragment).
inline void check_expectations(const Diagnostics& d, const std::vector<Expectation>& expects) {
  for (const auto& e : expects) {
    INFO("expected " << e.rule << " \"" << e.fragment << "\"");
    CHECK(d.contains(e.rule, e.fragment));
  }
}

}  // namespace kir::test
