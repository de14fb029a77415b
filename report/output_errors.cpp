// See output_errors.h.
#include "report/output_errors.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "numerics/format.h"
#include "numerics/scalar.h"
#include "numerics/value_text.h"
#include "oracle/verdict.h"
#include "report/ulp_histogram.h"

namespace kir::report {
namespace {

constexpr size_t kWorst = 5;

nlohmann::json num_or_null(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

std::string text(DType d, uint64_t bits) { return num::format_value(num::Scalar{d, bits}); }

struct Elem {
  size_t index;
  uint64_t exact;  // exact_bits of the element
  double ulps, allowed;
};

}  // namespace

double element_distance(DType d, uint64_t a, uint64_t b) {
  if (!is_any_float(d)) return std::fabs(static_cast<double>(static_cast<int64_t>(a)) - static_cast<double>(static_cast<int64_t>(b)));
  const auto u = error_ulps(a, b, d);
  return u ? static_cast<double>(*u) : std::numeric_limits<double>::infinity();
}

uint64_t exact_bits(const OutputRun& r, size_t e) {
  const DType d = r.exact->storage->dtype;
  if (r.envelope && r.envelope->kind == interp::Uniqueness::Envelope) {
    const num::Envelope& env = r.envelope->elements[e].env;
    return env.is_nan ? num::from_double(std::numeric_limits<double>::quiet_NaN(), d) : num::from_double(env.exact_rounded, d);
  }
  return r.exact->storage->bits[e];
}

nlohmann::json measure_output(const OutputRun& r) {
  const DType d = r.exact->storage->dtype;
  const auto& got = r.got->storage->bits;
  const size_t n = r.exact->storage->bits.size();
  const bool envelope = r.envelope && r.envelope->kind == interp::Uniqueness::Envelope;
  bool declared_differs = false;
  if (!envelope && r.declared)
    for (size_t e = 0; e < n && !declared_differs; ++e)
      declared_differs = !oracle::same_result(d, r.declared->storage->bits[e], r.exact->storage->bits[e]);
  const std::string kind = envelope ? "envelope" : (declared_differs || r.legal_schedule) ? "declared-order" : "exact";

  Histogram hist{};
  std::vector<Elem> elems;
  int64_t count = 0, mismatches = 0, outside = 0, non_finite = 0;
  double sum = 0, max_ulps = 0, max_bound = 0, max_ratio = 0;
  for (size_t e = 0; e < n; ++e) {
    if (!r.exact->storage->is_defined(static_cast<int64_t>(e))) continue;
    ++count;
    const uint64_t want = exact_bits(r, e);
    const double u = element_distance(d, got[e], want);
    mismatches += got[e] != want;
    double allowed = 0;
    bool ok = true;
    if (envelope) {
      const auto& el = r.envelope->elements[e];
      ok = interp::accepts(el, r.envelope->kind, d, got[e]);
      const double ulp = num::ulp_value(want, d);
      allowed = std::isfinite(ulp) && ulp > 0 ? std::floor(el.env.bound / ulp) : 0;
      max_bound = std::max(max_bound, allowed);
      if (allowed > 0) max_ratio = std::max(max_ratio, u / allowed);
      else if (u > 0) max_ratio = std::numeric_limits<double>::infinity();
    } else if (kind == "declared-order") {
      ok = r.legal_schedule || oracle::same_result(d, got[e], r.declared->storage->bits[e]);
      allowed = std::numeric_limits<double>::quiet_NaN();
    } else {
      ok = oracle::same_result(d, got[e], want);
    }
    outside += !ok;
    if (std::isinf(u)) {
      ++non_finite;
      ++hist[kNanBucket];
    } else {
      ++hist[static_cast<size_t>(bucket_of(static_cast<uint64_t>(u)))];
      sum += u;
      max_ulps = std::max(max_ulps, u);
    }
    elems.push_back({e, want, u, allowed});
  }

  // The worst five, largest error first, ties by position.
  std::vector<Elem> worst = elems;
  const size_t k = std::min(kWorst, worst.size());
  std::partial_sort(worst.begin(), worst.begin() + static_cast<std::ptrdiff_t>(k), worst.end(), [](const Elem& a, const Elem& b) {
    return a.ulps != b.ulps ? a.ulps > b.ulps : a.index < b.index;
  });
  worst.resize(k);
  nlohmann::json wj = nlohmann::json::array();
  for (const Elem& w : worst) {
    if (w.ulps == 0) break;  // only elements with an error
    wj.push_back({{"output", r.name},
                  {"coord", interp::unravel(static_cast<int64_t>(w.index), r.exact->shape)},
                  {"got", text(d, got[w.index])},
                  {"exact", text(d, w.exact)},
                  {"ulps", num_or_null(w.ulps)},
                  {"allowed_ulps", num_or_null(w.allowed)}});
  }

  // The error-against-magnitude sample (float outputs: x = the exact value).
  std::vector<std::array<double, 2>> scatter;
  if (is_any_float(d)) {
    std::vector<uint64_t> x;
    std::vector<std::optional<uint64_t>> ulps;
    for (const Elem& e : elems) {
      x.push_back(e.exact);
      ulps.push_back(std::isinf(e.ulps) ? std::nullopt : std::optional<uint64_t>(static_cast<uint64_t>(e.ulps)));
    }
    scatter = scatter_sample(d, x, ulps);
  }

  const bool all_finite = non_finite == 0;
  return {{"name", r.name},
          {"dtype", std::string(name(d))},
          {"shape", r.exact->shape},
          {"elements", count},
          {"bound_kind", kind},
          {"max_ulps", all_finite ? nlohmann::json(max_ulps) : nlohmann::json(nullptr)},
          {"mean_ulps", count > non_finite ? nlohmann::json(sum / static_cast<double>(count - non_finite)) : nlohmann::json(nullptr)},
          {"max_bound_ulps", envelope ? nlohmann::json(max_bound) : nlohmann::json(nullptr)},
          {"max_ratio", envelope ? num_or_null(max_ratio) : nlohmann::json(nullptr)},
          {"mismatches", mismatches},
          {"outside_bound", outside},
          {"non_finite", non_finite},
          {"histogram", histogram_json(hist)},
          {"worst", wj},
          {"scatter", scatter_json(scatter)}};
}

}  // namespace kir::report
