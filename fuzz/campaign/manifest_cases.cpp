// Manifest workloads as campaign cases (manifest_cases.h).
#include "fuzz/campaign/manifest_cases.h"

#include <map>
#include <memory>

namespace kir::fuzz {

const oracle::SpecCases& manifest_cases(const std::vector<std::string>& paths) {
  static std::map<std::vector<std::string>, std::unique_ptr<oracle::SpecCases>> loaded;
  auto& slot = loaded[paths];
  if (!slot) slot = std::make_unique<oracle::SpecCases>(paths);
  return *slot;
}

bool is_manifest_index(const CampaignOptions& o, int64_t index) { return !o.manifests.empty() && index % 2 == 1; }

ManifestPick pick_manifest_case(const CampaignOptions& o, int64_t index) {
  const auto count = static_cast<int64_t>(manifest_cases(o.manifests).size());
  const int64_t m = index / 2;
  ManifestPick p;
  p.case_index = static_cast<size_t>(m % count);
  p.variant = m / count;
  if (p.variant == 1) p.v.special = true;
  if (p.variant >= 2) {
    const uint64_t s = case_seed(o.seed, index);
    p.v.seed = static_cast<uint32_t>(s);
    p.v.special = p.variant % 2 == 1;
    p.v.scale = (s >> 32) | 1;
  }
  return p;
}

PreparedCase prepare_manifest(const CampaignOptions& o, int64_t index, bool compile) {
  const oracle::SpecCases& cases = manifest_cases(o.manifests);
  const ManifestPick pick = pick_manifest_case(o, index);
  const oracle::SpecCaseRef& ref = cases.at(pick.case_index);
  PreparedCase p;
  p.index = index;
  p.seed = case_seed(o.seed, index);
  p.origin = "manifest:" + ref.file + "#" + ref.label + "/" + ref.case_id + "/v" + std::to_string(pick.variant);
  p.c.families = {"manifest", "manifest." + ref.op};
  oracle::SpecInstance inst;
  try {
    inst = cases.instantiate(pick.case_index, pick.v);
  } catch (const std::exception& e) {  // what `kir spec run` reports as the case's failure
    const std::string what = ref.op + " " + ref.case_id + ": " + e.what();
    const bool unsupported = what.find("not implemented") != std::string::npos;
    p.early = early_verdict(unsupported ? oracle::Outcome::Unsupported : oracle::Outcome::InvalidProgram,
                            unsupported ? "not implemented" : "manifest", what);
    return p;
  }
  p.c.kir = std::move(inst.kir);
  p.c.kernel = std::move(inst.kernel);
  p.c.dims = std::move(inst.dims);
  if (!parse_case(p)) return p;
  p.args = std::move(inst.args);
  if (compile) compile_case(p);
  return p;
}

}  // namespace kir::fuzz
