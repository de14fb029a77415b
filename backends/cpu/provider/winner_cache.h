// The winner cache of selection by measurement (checklist C12): which config row `kir tune`
// measured fastest for a kernel, stored apart from the artifact cache (<dir>/<key>.winner; by
// default the artifact cache's directory + "/winners"). The key is the identity of everything
// the measurement depends on except the bindings being chosen: the constructed CPU IR (the
// kernel's specialization and view facts), the toolchain, the detected capabilities, the
// config rows and the implementation definitions (the runtime headers). Artifacts stay keyed
// by their bindings, so a winner only picks among artifacts, never changes one.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>


namespace kir::cpu {

struct Winner {
  std::string row;
  // Every row measured: name and best seconds per call (rejected or failed rows absent).
  std::vector<std::pair<std::string, double>> measured;
};

class WinnerCache {
 public:
  explicit WinnerCache(std::filesystem::path dir);
  static std::filesystem::path default_dir();  // ArtifactCache::default_dir() / "winners"
  const std::filesystem::path& dir() const { return dir_; }

  std::optional<Winner> lookup(const std::string& key) const;
  void store(const std::string& key, const Winner& w) const;  // atomic rename

 private:
  std::filesystem::path dir_;
};

WinnerCache& default_winner_cache();

}  // namespace kir::cpu
