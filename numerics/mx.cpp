// MX scaling: scaled values are computed exactly (power-of-two scaling of small formats fits in a
// double) and rounded once.
#include "numerics/mx.h"

#include <cmath>
#include <string>

#include "numerics/cast.h"
#include "numerics/format.h"

namespace kir::num {

Result<Scalar> mx_value(Scalar element, uint8_t scale, DType out) {
  if (!is_any_float(out) || !is_small_float(element.dtype) || element.dtype == DType::E8M0)
    return make_error(Status::TypeMismatch, "mx_value: element " +
                                                std::string(name(element.dtype)) + " into " +
                                                std::string(name(out)));
  const double e = to_double(element.bits, element.dtype);
  if (scale == 0xFF || std::isnan(e)) {
    if (out == DType::E2M1)
      return make_error(Status::InvalidCast, "mx_value: NaN has no e2m1 encoding");
    return Scalar{out, float_format(out).canonical_nan};
  }
  // |e| <= 57344 and the scale is 2^[-127,127]: the product is exact in a double
  return Scalar{out, from_double(std::ldexp(e, int(scale) - 127), out)};
}

std::vector<uint8_t> pack_e2m1(std::span<const uint8_t> nibbles) {
  std::vector<uint8_t> out((nibbles.size() + 1) / 2, 0);
  for (size_t i = 0; i < nibbles.size(); ++i)
    out[i / 2] = static_cast<uint8_t>(out[i / 2] | ((nibbles[i] & 0xF) << (i % 2 ? 4 : 0)));
  return out;
}

std::vector<uint8_t> unpack_e2m1(std::span<const uint8_t> bytes, size_t count) {
  std::vector<uint8_t> out(count);
  for (size_t i = 0; i < count && i / 2 < bytes.size(); ++i)
    out[i] = static_cast<uint8_t>((bytes[i / 2] >> (i % 2 ? 4 : 0)) & 0xF);
  return out;
}

int mx_elem_emax(DType elem) {
  switch (elem) {
    case DType::E4M3: return 8;
    case DType::E5M2: return 15;
    case DType::E2M1: return 2;
    default: return 0;
  }
}

uint8_t mx_shared_scale(std::span<const float> block, DType elem) {
  float amax = 0;
  for (float v : block) {
    if (!std::isfinite(v)) return 0xFF;
    amax = std::fmax(amax, std::fabs(v));
  }
  if (amax == 0) return 0x00;
  const int shared = std::ilogb(amax) - mx_elem_emax(elem);
  if (shared > 127) return 0xFF;
  if (shared < -127) return 0x00;
  return static_cast<uint8_t>(shared + 127);
}

Result<MxBlock> mx_quantize(std::span<const float> block, DType elem) {
  if (elem != DType::E4M3 && elem != DType::E5M2 && elem != DType::E2M1)
    return make_error(Status::TypeMismatch,
                      "mx_quantize: element format " + std::string(name(elem)));
  MxBlock out{mx_shared_scale(block, elem), {}};
  out.elements.reserve(block.size());
  const FloatFormat& f = float_format(elem);
  for (float v : block) {
    if (out.scale == 0xFF) {
      out.elements.push_back(static_cast<uint8_t>(f.canonical_nan));
      continue;
    }
    const double scaled = std::ldexp(double(v), 127 - int(out.scale));  // exact
    uint64_t b = from_double(scaled, elem);
    if (!is_finite(b, elem)) b = max_finite(elem, std::signbit(scaled));  // clamp normals
    out.elements.push_back(static_cast<uint8_t>(b));
  }
  return out;
}

}  // namespace kir::num
