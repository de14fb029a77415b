// q4_K / q8_K following the reference algorithms described in docs/reference/numerics.md §3.2.
// All arithmetic is f32 in the stated order; every product and sum is its own statement-level
// operation (ISO C++ mode: no FP contraction), which is the -ffp-contract=off semantics.
#include "numerics/kquant.h"

#include <bit>
#include <cmath>
#include <string>

#include "numerics/format.h"

namespace kir::num {
namespace {

float f16_to_f32(uint16_t h) { return static_cast<float>(to_double(h, DType::F16)); }
uint16_t f32_to_f16(float f) { return static_cast<uint16_t>(from_double(f, DType::F16)); }

// make_qkx2_quants (use_mad = false): weighted least-squares search of (scale, min) for n values
// quantized to 0..nmax; returns scale, writes -min to *neg_min and the levels to L.
float make_qkx2_quants(int n, int nmax, const float* x, const float* w, uint8_t* L,
                       float* neg_min, uint8_t* Laux, float rmin, float rdelta, int nstep) {
  float mn = x[0], mx = x[0];
  float sum_w = w[0];
  float sum_x = sum_w * x[0];
  for (int i = 1; i < n; ++i) {
    if (x[i] < mn) mn = x[i];
    if (x[i] > mx) mx = x[i];
    const float wi = w[i];
    sum_w += wi;
    const float wx = wi * x[i];
    sum_x += wx;
  }
  if (mn > 0) mn = 0;
  if (mx == mn) {
    for (int i = 0; i < n; ++i) L[i] = 0;
    *neg_min = -mn;
    return 0.f;
  }
  float iscale = static_cast<float>(nmax) / (mx - mn);
  float scale = 1.f / iscale;
  float best_error = 0;
  for (int i = 0; i < n; ++i) {
    const float t = x[i] - mn;
    int l = nearest_int(iscale * t);
    l = l < 0 ? 0 : (l > nmax ? nmax : l);
    L[i] = static_cast<uint8_t>(l);
    const float sl = scale * static_cast<float>(l);
    const float a = sl + mn;
    float diff = a - x[i];
    diff = diff * diff;
    const float wd = w[i] * diff;
    best_error += wd;
  }
  for (int is = 0; is <= nstep; ++is) {
    const float step = rdelta * static_cast<float>(is);
    const float num = rmin + step;
    const float num2 = num + static_cast<float>(nmax);
    iscale = num2 / (mx - mn);
    float sum_l = 0, sum_l2 = 0, sum_xl = 0;
    for (int i = 0; i < n; ++i) {
      const float t = x[i] - mn;
      int l = nearest_int(iscale * t);
      l = l < 0 ? 0 : (l > nmax ? nmax : l);
      Laux[i] = static_cast<uint8_t>(l);
      const float fl = static_cast<float>(l);
      const float wl = w[i] * fl;
      sum_l += wl;
      const float wll = wl * fl;
      sum_l2 += wll;
      const float wlx = wl * x[i];
      sum_xl += wlx;
    }
    const float p1 = sum_w * sum_l2;
    const float p2 = sum_l * sum_l;
    const float D = p1 - p2;
    if (D > 0) {
      const float a1 = sum_w * sum_xl, a2 = sum_x * sum_l;
      float this_scale = (a1 - a2) / D;
      const float b1 = sum_l2 * sum_x, b2 = sum_l * sum_xl;
      float this_min = (b1 - b2) / D;
      if (this_min > 0) {
        this_min = 0;
        this_scale = sum_xl / sum_l2;
      }
      float cur_error = 0;
      for (int i = 0; i < n; ++i) {
        const float sl = this_scale * static_cast<float>(Laux[i]);
        const float a = sl + this_min;
        float diff = a - x[i];
        diff = diff * diff;
        const float wd = w[i] * diff;
        cur_error += wd;
      }
      if (cur_error < best_error) {
        for (int i = 0; i < n; ++i) L[i] = Laux[i];
        best_error = cur_error;
        scale = this_scale;
        mn = this_min;
      }
    }
  }
  *neg_min = -mn;
  return scale;
}

Error not_multiple(size_t n) {
  return make_error(Status::TypeMismatch,
                    "k-quant row length " + std::to_string(n) + " is not a multiple of 256");
}

}  // namespace

int nearest_int(float f) {
  // adding 1.5 * 2^23 puts the integer part in the low mantissa bits, rounded half to even
  const float v = f + 12582912.f;
  const int32_t bits = std::bit_cast<int32_t>(v);
  return (bits & 0x007FFFFF) - 0x00400000;
}

void q4k_scale_min(const BlockQ4K& b, int j, uint8_t& scale, uint8_t& min) {
  const auto& s = b.scales;
  if (j < 4) {
    scale = s[j] & 63;
    min = s[j + 4] & 63;
  } else {
    scale = static_cast<uint8_t>((s[j + 4] & 0x0F) | ((s[j - 4] >> 6) << 4));
    min = static_cast<uint8_t>((s[j + 4] >> 4) | ((s[j] >> 6) << 4));
  }
}

Result<std::vector<BlockQ8K>> quantize_row_q8_K(std::span<const float> x) {
  if (x.size() % kQK_K) return not_multiple(x.size());
  std::vector<BlockQ8K> out(x.size() / kQK_K);
  for (size_t i = 0; i < out.size(); ++i) {
    const float* xb = x.data() + i * kQK_K;
    BlockQ8K& y = out[i];
    float mx = 0, amax = 0;
    for (int j = 0; j < kQK_K; ++j) {
      const float ax = std::fabs(xb[j]);
      if (ax > amax) {
        amax = ax;
        mx = xb[j];
      }
    }
    if (amax == 0) {  // ggml leaves bsums unwritten here; the language defines them as 0
      y.d = 0;
      y.qs.fill(0);
      y.bsums.fill(0);
      continue;
    }
    const float iscale = -127.f / mx;
    for (int j = 0; j < kQK_K; ++j) {
      const int v = nearest_int(iscale * xb[j]);
      y.qs[j] = static_cast<int8_t>(v < 127 ? v : 127);
    }
    for (int j = 0; j < 16; ++j) {
      int sum = 0;
      for (int l = 0; l < 16; ++l) sum += y.qs[16 * j + l];
      y.bsums[j] = static_cast<int16_t>(sum);
    }
    y.d = 1 / iscale;
  }
  return out;
}

Result<std::vector<BlockQ4K>> quantize_row_q4_K_ref(std::span<const float> x) {
  if (x.size() % kQK_K) return not_multiple(x.size());
  std::vector<BlockQ4K> out(x.size() / kQK_K);
  for (size_t i = 0; i < out.size(); ++i) {
    const float* xb = x.data() + i * kQK_K;
    BlockQ4K& y = out[i];
    uint8_t L[kQK_K], Laux[32];
    float weights[32], mins[8], scales[8];
    float max_scale = 0, max_min = 0;
    for (int j = 0; j < 8; ++j) {
      const float* xs = xb + 32 * j;
      float sum_x2 = 0;
      for (int l = 0; l < 32; ++l) {
        const float sq = xs[l] * xs[l];
        sum_x2 += sq;
      }
      const float av_x = std::sqrt(sum_x2 / 32);
      for (int l = 0; l < 32; ++l) weights[l] = av_x + std::fabs(xs[l]);
      scales[j] = make_qkx2_quants(32, 15, xs, weights, L + 32 * j, &mins[j], Laux, -1.f, 0.1f, 20);
      if (scales[j] > max_scale) max_scale = scales[j];
      if (mins[j] > max_min) max_min = mins[j];
    }
    const float inv_scale = max_scale > 0 ? 63.f / max_scale : 0.f;
    const float inv_min = max_min > 0 ? 63.f / max_min : 0.f;
    y.scales.fill(0);
    for (int j = 0; j < 8; ++j) {
      int ls = nearest_int(inv_scale * scales[j]);
      int lm = nearest_int(inv_min * mins[j]);
      ls = ls < 63 ? ls : 63;
      lm = lm < 63 ? lm : 63;
      if (j < 4) {
        y.scales[j] = static_cast<uint8_t>(ls);
        y.scales[j + 4] = static_cast<uint8_t>(lm);
      } else {
        y.scales[j + 4] = static_cast<uint8_t>((ls & 0xF) | ((lm & 0xF) << 4));
        y.scales[j - 4] = static_cast<uint8_t>(y.scales[j - 4] | ((ls >> 4) << 6));
        y.scales[j] = static_cast<uint8_t>(y.scales[j] | ((lm >> 4) << 6));
      }
    }
    y.d = f32_to_f16(max_scale / 63.f);
    y.dmin = f32_to_f16(max_min / 63.f);
    for (int j = 0; j < 8; ++j) {
      uint8_t sc, m;
      q4k_scale_min(y, j, sc, m);
      const float d = f16_to_f32(y.d) * static_cast<float>(sc);
      if (d == 0) continue;
      const float dm = f16_to_f32(y.dmin) * static_cast<float>(m);
      for (int ii = 0; ii < 32; ++ii) {
        const float t = xb[32 * j + ii] + dm;
        int l = nearest_int(t / d);
        l = l < 0 ? 0 : (l > 15 ? 15 : l);
        L[32 * j + ii] = static_cast<uint8_t>(l);
      }
    }
    for (int c = 0; c < 4; ++c)
      for (int l = 0; l < 32; ++l)
        y.qs[32 * c + l] = static_cast<uint8_t>(L[64 * c + l] | (L[64 * c + 32 + l] << 4));
  }
  return out;
}

std::vector<float> dequantize_row_q4_K(std::span<const BlockQ4K> blocks) {
  std::vector<float> y;
  y.reserve(blocks.size() * kQK_K);
  for (const BlockQ4K& b : blocks) {
    const float d = f16_to_f32(b.d), mn = f16_to_f32(b.dmin);
    for (int c = 0; c < 4; ++c) {
      for (int half = 0; half < 2; ++half) {
        uint8_t sc, m;
        q4k_scale_min(b, 2 * c + half, sc, m);
        const float d1 = d * static_cast<float>(sc);
        const float m1 = mn * static_cast<float>(m);
        for (int l = 0; l < 32; ++l) {
          const int q = half ? (b.qs[32 * c + l] >> 4) : (b.qs[32 * c + l] & 0xF);
          const float p = d1 * static_cast<float>(q);
          y.push_back(p - m1);
        }
      }
    }
  }
  return y;
}

Result<float> vec_dot_q4_K_q8_K(std::span<const BlockQ4K> x, std::span<const BlockQ8K> y) {
  if (x.size() != y.size())
    return make_error(Status::TypeMismatch, "q4_K x q8_K dot: " + std::to_string(x.size()) +
                                                " vs " + std::to_string(y.size()) + " blocks");
  float sums[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  float sumf = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    int8_t a[kQK_K];
    for (int c = 0; c < 4; ++c)
      for (int l = 0; l < 32; ++l) {
        a[64 * c + l] = static_cast<int8_t>(x[i].qs[32 * c + l] & 0xF);
        a[64 * c + 32 + l] = static_cast<int8_t>(x[i].qs[32 * c + l] >> 4);
      }
    uint8_t scales[8], mins[8];
    for (int j = 0; j < 8; ++j) q4k_scale_min(x[i], j, scales[j], mins[j]);
    int sumi = 0;
    for (int j = 0; j < 16; ++j) sumi += y[i].bsums[j] * mins[j / 2];
    int32_t aux32[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int j = 0; j < kQK_K; j += 8) {
      const int scale = scales[j / 32];
      for (int l = 0; l < 8; ++l) {
        const int16_t aux16 = static_cast<int16_t>(y[i].qs[j + l] * a[j + l]);
        aux32[l] += scale * aux16;
      }
    }
    const float d = f16_to_f32(x[i].d) * y[i].d;
    for (int l = 0; l < 8; ++l) {
      const float p = d * static_cast<float>(aux32[l]);
      sums[l] += p;
    }
    const float dmin = f16_to_f32(x[i].dmin) * y[i].d;
    const float pm = dmin * static_cast<float>(sumi);
    sumf -= pm;
  }
  for (int l = 0; l < 8; ++l) sumf += sums[l];
  return sumf;
}

std::array<uint8_t, 144> to_bytes(const BlockQ4K& b) {
  std::array<uint8_t, 144> o{};
  o[0] = static_cast<uint8_t>(b.d);
  o[1] = static_cast<uint8_t>(b.d >> 8);
  o[2] = static_cast<uint8_t>(b.dmin);
  o[3] = static_cast<uint8_t>(b.dmin >> 8);
  for (int i = 0; i < 12; ++i) o[4 + i] = b.scales[i];
  for (int i = 0; i < 128; ++i) o[16 + i] = b.qs[i];
  return o;
}

BlockQ4K q4k_from_bytes(std::span<const uint8_t, 144> o) {
  BlockQ4K b{};
  b.d = static_cast<uint16_t>(o[0] | (o[1] << 8));
  b.dmin = static_cast<uint16_t>(o[2] | (o[3] << 8));
  for (int i = 0; i < 12; ++i) b.scales[i] = o[4 + i];
  for (int i = 0; i < 128; ++i) b.qs[i] = o[16 + i];
  return b;
}

}  // namespace kir::num
