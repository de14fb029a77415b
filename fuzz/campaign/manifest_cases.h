// Manifest workloads in campaigns (`kir fuzz --manifests PATHS`): with CampaignOptions::manifests
// set, every odd case index is a workload case of the manifests (oracle/spec_cases.h) instead of a
// generated program. Manifest case number m = index / 2 is variant m / count of case m % count:
// variant 0 the row's own inputs, 1 with special values injected, from 2 on a fresh input seed
// from case_seed(seed, index), special values on odd variants, and a size of the row scaled when
// the row's rules allow it (oracle/spec_scale.h).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/campaign/case_pipeline.h"
#include "oracle/spec_cases.h"

namespace kir::fuzz {

// The cases of `paths`, loaded once per process (the campaign loads them before it forks, so
// workers share them). Throws std::runtime_error with the manifests' located diagnostics.
const oracle::SpecCases& manifest_cases(const std::vector<std::string>& paths);

bool is_manifest_index(const CampaignOptions& o, int64_t index);

struct ManifestPick {
  size_t case_index = 0;
  int64_t variant = 0;
  oracle::SpecVariant v;
};
ManifestPick pick_manifest_case(const CampaignOptions& o, int64_t index);

// A manifest case as a PreparedCase: the paired kernel file's text, the dtype case's kernel and
// the arguments `kir spec run` builds; families {"manifest", "manifest.<Op>"}; origin
// "manifest:<file>#<row label>/<case id>/v<variant>"; no shrinkable (the KIR reducer still runs).
PreparedCase prepare_manifest(const CampaignOptions& o, int64_t index, bool compile);

}  // namespace kir::fuzz
