// See expect_outputs.h.
#include "tools/expect_outputs.h"

#include <algorithm>

#include "interp/npy.h"
#include "kir/suggest.h"
#include "numerics/format.h"
#include "numerics/value_text.h"

namespace kir::tools {

int check_expectations(const std::vector<std::string>& expects, uint64_t ulps, const Function& k,
                       const std::map<std::string, interp::KernelArg>& args, std::ostream& out) {
  std::vector<std::string> outputs;
  for (const kir::Value* p : k.params())
    if (p->type.is(TypeKind::View) && p->type.access() != Access::In) outputs.push_back(p->name);
  int status = 0;
  for (const auto& e : expects) {
    const auto eq = e.find('=');
    if (eq == std::string::npos || eq == 0) {
      out << "kir run: --expect needs NAME=FILE.npy, got '" << e << "'\n";
      return 2;
    }
    const std::string name = e.substr(0, eq), file = e.substr(eq + 1);
    if (std::find(outputs.begin(), outputs.end(), name) == outputs.end()) {
      out << "kir run: --expect " << name << ": kernel @" << k.name << " has no output %" << name
          << did_you_mean(name, outputs) << "; its outputs are " << join_names(outputs, "%") << "\n";
      return 2;
    }
    const auto& h = std::get<interp::HostView>(args.at(name));
    const DType d = h.storage->dtype;
    interp::Tensor want;
    try {
      want = interp::npy_to_tensor(interp::read_npy(file), d);
    } catch (const std::exception& ex) {
      out << "kir run: --expect " << name << ": " << ex.what() << "\n";
      status = 1;
      continue;
    }
    if (want.shape != h.shape) {
      out << "kir run: --expect " << name << ": " << file << " has shape " << interp::shape_str(want.shape)
          << ", the output %" << name << " " << interp::shape_str(h.shape) << "\n";
      status = 1;
      continue;
    }
    struct Diff {
      uint64_t distance;
      size_t at;
    };
    std::vector<Diff> diffs;
    const bool fp = is_any_float(d);
    for (size_t i = 0; i < want.bits.size(); ++i) {
      const uint64_t g = h.storage->bits[i], w = want.bits[i];
      if (g == w) continue;
      uint64_t dist = UINT64_MAX;
      if (fp) {
        const bool gn = num::classify(g, d) == num::FpClass::NaN, wn = num::classify(w, d) == num::FpClass::NaN;
        if (gn && wn) continue;  // NaN payloads are not compared
        if (!gn && !wn) dist = num::ulp_distance(g, w, d);
      }
      if (fp && dist <= ulps) continue;
      diffs.push_back({dist, i});
    }
    if (diffs.empty()) {
      out << "expect: %" << name << " matches " << file << " (" << want.bits.size() << " elements"
          << (fp && ulps ? ", within " + std::to_string(ulps) + " ulps" : "") << ")\n";
      continue;
    }
    status = 1;
    std::stable_sort(diffs.begin(), diffs.end(), [](const Diff& a, const Diff& b) { return a.distance > b.distance; });
    out << "kir run: %" << name << " differs from " << file << " at " << diffs.size() << " of " << want.bits.size()
        << " elements" << (fp ? " (beyond " + std::to_string(ulps) + " ulps)" : "") << "; the worst:\n";
    for (size_t j = 0; j < std::min<size_t>(diffs.size(), 5); ++j) {
      const size_t i = diffs[j].at;
      out << "  %" << name << interp::coord_str(interp::unravel(static_cast<int64_t>(i), h.shape))
          << ": got " << num::format_value(num::Scalar{d, h.storage->bits[i]}) << ", expected "
          << num::format_value(num::Scalar{d, want.bits[i]});
      if (fp) out << (diffs[j].distance == UINT64_MAX ? " (one is NaN)" : " (" + std::to_string(diffs[j].distance) + " ulps)");
      out << "\n";
    }
  }
  return status;
}

}  // namespace kir::tools
