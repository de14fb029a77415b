// The winner cache (winner_cache.h).
#include "backends/cpu/provider/winner_cache.h"

#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include "backends/cpu/provider/artifact_cache.h"

namespace kir::cpu {

namespace fs = std::filesystem;

WinnerCache::WinnerCache(fs::path dir) : dir_(fs::absolute(std::move(dir))) {}

fs::path WinnerCache::default_dir() { return ArtifactCache::default_dir() / "winners"; }

std::optional<Winner> WinnerCache::lookup(const std::string& key) const {
  std::ifstream in(dir_ / (key + ".winner"));
  if (!in) return std::nullopt;
  Winner w;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string tag, name;
    s >> tag >> name;
    if (tag == "row") w.row = name;
    else if (tag == "measured") {
      double t = 0;
      s >> t;
      w.measured.emplace_back(name, t);
    }
  }
  if (w.row.empty()) return std::nullopt;  // unreadable: as if absent
  return w;
}

void WinnerCache::store(const std::string& key, const Winner& w) const {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  std::mt19937_64 g(std::random_device{}());
  const fs::path tmp = dir_ / (key + ".tmp" + std::to_string(g()));
  {
    std::ofstream out(tmp);
    out << "row " << w.row << "\n";
    for (const auto& [n, t] : w.measured) out << "measured " << n << " " << t << "\n";
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  fs::rename(tmp, dir_ / (key + ".winner"), ec);
  if (ec) throw std::runtime_error("cannot store the winner under " + dir_.string() + ": " + ec.message());
}

WinnerCache& default_winner_cache() {
  static WinnerCache c(WinnerCache::default_dir());
  return c;
}

}  // namespace kir::cpu
