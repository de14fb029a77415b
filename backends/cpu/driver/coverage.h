// Coverage of the backend's decision space (docs/fuzzing.md "Coverage"): which implementation,
// config row, tail class of each blocked loop, epilogue path and task split the native calls
// reached, and how often. The facts are placed in the program at construction and selection time
// (Cover statements, Program::cover_cells) and counted by the generated code itself while a
// CoverageScope is active on the calling thread, so the map is exact: a cell counts the times the
// code it names ran, not a guess from the shapes.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kir::cpu {

struct Program;

struct CoverageMap {
  // Every cell a compiled program could reach (count 0 until one does), with its reach count.
  std::map<std::string, uint64_t> cells;

  void add_known(const std::vector<std::string>& names);
  void add_counts(const std::vector<std::string>& names, const std::vector<uint64_t>& counts);
  void merge(const CoverageMap& other);
  // "cell=count" lines, sorted by cell (the exchange format between campaign workers).
  std::string serialize() const;
  // Adds what serialize() wrote; throws std::runtime_error on a malformed line.
  void parse(const std::string& text);
};

// While alive, every NativeKernel::call on this thread counts its program's cells into `m`
// (scopes nest: the innermost one counts).
class CoverageScope {
 public:
  explicit CoverageScope(CoverageMap& m);
  ~CoverageScope();
  CoverageScope(const CoverageScope&) = delete;
  CoverageScope& operator=(const CoverageScope&) = delete;

 private:
  CoverageMap* prev_;
};
// The map of the innermost active scope of this thread, or null.
CoverageMap* active_coverage();

}  // namespace kir::cpu
