// See compare.h.
#include "oracle/compare.h"

#include <cmath>
#include <sstream>

#include "interp/value.h"
#include "numerics/format.h"
#include "numerics/scalar.h"
#include "numerics/value_text.h"

namespace kir::oracle {

std::string Tolerance::str() const {
  std::ostringstream os;
  os << ulps << " ulp";
  if (atol > 0) os << " or |diff| <= " << atol;
  return os.str();
}

std::string Comparison::str() const {
  if (ok()) return "all " + std::to_string(elements) + " elements agree";
  return std::to_string(mismatches) + " of " + std::to_string(elements) + " elements differ; worst at " + interp::coord_str(worst_coord) +
         ": got " + worst_got + ", reference " + worst_want + " (" + worst_distance + ")";
}

Comparison compare_elements(DType d, const std::vector<int64_t>& shape, std::span<const uint64_t> got,
                            std::span<const uint64_t> want, const Tolerance& tol) {
  Comparison c;
  c.elements = static_cast<int64_t>(got.size());
  const bool fp = is_any_float(d);
  double worst = -1;
  int64_t worst_i = -1;
  for (size_t i = 0; i < got.size() && i < want.size(); ++i) {
    const uint64_t a = got[i], b = want[i];
    double badness = 0;  // > 0: a mismatch, larger is worse
    if (fp) {
      const bool na = num::is_nan(a, d), nb = num::is_nan(b, d);
      if (na || nb) {
        if (na != nb) badness = INFINITY;
      } else {
        const uint64_t ulps = num::ulp_distance(a, b, d);
        const double diff = std::fabs(num::to_double(a, d) - num::to_double(b, d));
        if (ulps > tol.ulps && !(diff <= tol.atol)) badness = static_cast<double>(ulps);
      }
    } else if (a != b) {
      badness = std::fabs(static_cast<double>(static_cast<int64_t>(a)) - static_cast<double>(static_cast<int64_t>(b))) + 1;
    }
    if (badness > 0) {
      ++c.mismatches;
      if (badness > worst) {
        worst = badness;
        worst_i = static_cast<int64_t>(i);
      }
    }
  }
  if (worst_i >= 0) {
    const uint64_t a = got[static_cast<size_t>(worst_i)], b = want[static_cast<size_t>(worst_i)];
    c.worst_coord = interp::unravel(worst_i, shape);
    c.worst_got = num::format_value(num::Scalar{d, a});
    c.worst_want = num::format_value(num::Scalar{d, b});
    if (!fp) c.worst_distance = std::string(name(d)) + " must match exactly";
    else if (std::isinf(worst)) c.worst_distance = "NaN against a number";
    else c.worst_distance = std::to_string(static_cast<uint64_t>(worst)) + " ulp, tolerance " + tol.str();
  }
  return c;
}

}  // namespace kir::oracle
