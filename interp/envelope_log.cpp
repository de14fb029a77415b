// The envelope log's data model: acceptance of a candidate value per element kind, record
// summaries (element count, max bound in ulps) and the one-line report `kir run --envelope`
// prints. The records are filled by envelope_log_ops.cpp.
#include "interp/envelope_log.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "numerics/format.h"

namespace kir::interp {

const char* uniqueness_name(Uniqueness u) {
  switch (u) {
    case Uniqueness::Unique: return "unique";
    case Uniqueness::Envelope: return "envelope";
    case Uniqueness::CanonicalOnly: return "canonical-only";
  }
  return "?";
}

bool accepts(const ElementEnvelope& e, Uniqueness k, DType d, uint64_t bits) {
  const bool fl = is_any_float(d);
  if (k != Uniqueness::Envelope) {
    if (fl && num::is_nan(e.canonical, d)) return num::is_nan(bits, d);  // any NaN payload
    return bits == e.canonical;
  }
  const double v = num::to_double(bits, d);
  if (e.any_zero_sign && v == 0) return true;
  return e.env.contains(v);
}

int64_t EnvelopeRecord::elements() const {
  int64_t n = 0;
  for (const auto& c : components) n += static_cast<int64_t>(c.elements.size());
  return n;
}

bool EnvelopeRecord::canonical_inside() const {
  for (const auto& c : components)
    for (const auto& e : c.elements)
      if (!e.inside) return false;
  return true;
}

double EnvelopeRecord::max_bound_ulps() const {
  double worst = 0;
  for (const auto& c : components) {
    if (c.kind != Uniqueness::Envelope) continue;
    for (const auto& e : c.elements) {
      if (e.env.is_nan || std::isinf(e.env.exact_rounded) || e.env.bound == 0) continue;
      if (std::isinf(e.env.bound)) return std::numeric_limits<double>::infinity();
      const double ulp = num::ulp_value(num::from_double(e.env.exact_rounded, c.dtype), c.dtype);
      worst = std::max(worst, e.env.bound / ulp);
    }
  }
  return worst;
}

std::string EnvelopeRecord::kinds() const {
  std::string s;
  bool seen[3] = {false, false, false};
  for (const auto& c : components) {
    if (seen[static_cast<int>(c.kind)]) continue;
    seen[static_cast<int>(c.kind)] = true;
    s += (s.empty() ? "" : ",") + std::string(uniqueness_name(c.kind));
  }
  return s.empty() ? "unique" : s;
}

namespace {
const EnvelopeComponent& component_at(const EnvelopeLog& log, size_t record, size_t component) {
  return log.records.at(record).components.at(component);
}
}  // namespace

bool EnvelopeLog::check(size_t record, int64_t element, uint64_t bits, size_t component) const {
  const auto& c = component_at(*this, record, component);
  return accepts(c.elements.at(static_cast<size_t>(element)), c.kind, c.dtype, bits);
}

bool EnvelopeLog::check_value(size_t record, int64_t element, double value, size_t component) const {
  const auto& c = component_at(*this, record, component);
  uint64_t bits;
  if (is_any_float(c.dtype)) bits = num::from_double(value, c.dtype);
  else if (c.dtype == DType::Bool) bits = value != 0;
  else bits = num::make_int(c.dtype, static_cast<uint64_t>(static_cast<int64_t>(value))).bits;
  return accepts(c.elements.at(static_cast<size_t>(element)), c.kind, c.dtype, bits);
}

std::string EnvelopeLog::line(size_t record) const {
  const EnvelopeRecord& r = records.at(record);
  std::string dt;
  for (const auto& c : r.components)
    if (dt.empty() || c.kind == Uniqueness::Envelope) {
      dt = std::string(kir::name(c.dtype));
      if (c.kind == Uniqueness::Envelope) break;
    }
  char ulps[64];
  std::snprintf(ulps, sizeof ulps, "%.3g", r.max_bound_ulps());
  std::string s = r.location + ": " + r.op_name + " %" + r.result_name + ": " + std::to_string(r.elements()) +
                  " elements, " + r.kinds() + ", max bound " + ulps + " ulp (" + dt + "), canonical inside envelope: " +
                  (r.canonical_inside() ? "yes" : "no");
  for (const auto& c : r.components)
    if (c.kind == Uniqueness::CanonicalOnly) s += " [" + (c.path.empty() ? std::string("result") : c.path.substr(1)) + ": " + c.reason + "]";
  return s;
}

}  // namespace kir::interp
