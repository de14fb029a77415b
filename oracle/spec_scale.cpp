// Shape scaling within a row's rules (spec_scale.h).
#include "oracle/spec_scale.h"

#include <vector>

namespace kir::oracle {
namespace {

// The row node of op.workloads labelled `label` (labels are unique within an op: case ids are).
YAML::Node row_of(const specs::OpSpec& op, const std::string& label) {
  if (op.workloads && op.workloads.IsSequence())
    for (const auto& r : op.workloads)
      if (r.IsMap() && r["label"] && r["label"].IsScalar() && r["label"].Scalar() == label) return r;
  return YAML::Node();
}

bool is_prime(int64_t n) {
  if (n < 2) return false;
  for (int64_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

int64_t scaled_size(int64_t v, uint64_t mode) {
  if (mode == 0) return 1;
  if (mode == 2) return 2 * v;
  int64_t p = v + 1;
  while (!is_prime(p)) ++p;
  return p;
}

}  // namespace

std::optional<ScaledCall> scale_call(const specs::OpSpec& op, const specs::Manifest& m, const specs::Call& call,
                                     uint64_t choice, const std::function<bool(const specs::Call&)>& accept) {
  const YAML::Node row = row_of(op, call.label);
  if (!row) return std::nullopt;
  // The sizes the row gives, in row order: Dim indices, and each axis of a Seq[Dim] index.
  struct Size {
    std::string name;
    int64_t axis;  // -1: a Dim index
    int64_t value;
  };
  std::vector<Size> sizes;
  for (const auto& kv : row) {
    const specs::IndexDecl* ix = kv.first.IsScalar() ? op.index(kv.first.Scalar()) : nullptr;
    if (!ix || !ix->kind) continue;
    try {
      if (ix->kind->t == specs::Kind::T::Dim && kv.second.IsScalar()) {
        sizes.push_back({kv.first.Scalar(), -1, kv.second.as<int64_t>()});
      } else if (ix->kind->is_shape() && kv.second.IsSequence()) {
        for (size_t a = 0; a < kv.second.size(); ++a)
          sizes.push_back({kv.first.Scalar(), static_cast<int64_t>(a), kv.second[a].as<int64_t>()});
      }
    } catch (const YAML::Exception&) {  // not integers: the row's own instantiation says so
    }
  }
  if (sizes.empty()) return std::nullopt;
  const uint64_t mode = choice % 3;
  const size_t first = static_cast<size_t>((choice / 3) % sizes.size());
  for (size_t k = 0; k < sizes.size(); ++k) {
    const Size& z = sizes[(first + k) % sizes.size()];
    const int64_t now = scaled_size(z.value, mode);
    if (now == z.value) continue;
    YAML::Node changed = YAML::Clone(row);
    if (z.axis < 0) changed[z.name] = now;
    else changed[z.name][static_cast<size_t>(z.axis)] = now;
    specs::SpecDiags d;
    for (auto& c : specs::instantiate_row(op, changed, m, d)) {
      if (d.has_errors() || c.case_id != call.case_id || !accept(c)) continue;
      const std::string what = z.axis < 0 ? z.name : z.name + "[" + std::to_string(z.axis) + "]";
      return ScaledCall{std::move(c), what + "=" + std::to_string(z.value) + "->" + std::to_string(now)};
    }
  }
  return std::nullopt;
}

}  // namespace kir::oracle
