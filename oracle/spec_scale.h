// Shape scaling of a manifest case within its row's rules (campaign variants, spec_cases.h):
// one size the row gives (a Dim index, or one axis of a Seq[Dim] index such as `S: [4, 32]`) is
// set to 1, to the next prime above it, or doubled, and the
// changed row is instantiated again by the manifest's own instantiation
// (specs::instantiate_row: refinements/shape_rules, generators, `requires` predicates,
// re-inference). A change is kept only when that instantiation reports nothing and yields the
// same case id; sizes the row does not give (derived by lets or solved by generators) follow.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "specs/src/instantiate.h"

namespace kir::oracle {

struct ScaledCall {
  specs::Call call;
  std::string change;  // "D=8->16"
};

// The call of `call`'s row with one size changed, chosen by `choice` (mode = choice % 3: to 1,
// next prime, ×2; the first size tried = (choice / 3) % count, then the following ones),
// the first change that re-instantiates cleanly and that `accept` takes (e.g. the paired kernel
// has a kernel for it). nullopt when the row gives no size or no change passes.
std::optional<ScaledCall> scale_call(const specs::OpSpec& op, const specs::Manifest& m, const specs::Call& call,
                                     uint64_t choice, const std::function<bool(const specs::Call&)>& accept);

}  // namespace kir::oracle
