// See inputs.h.
#include "fuzz/gen/inputs.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "fuzz/gen/numbers.h"
#include "numerics/format.h"

namespace kir::fuzz {

int64_t storage_size(const GeneratedCase::Input& in) {
  if (in.scalar) return 1;
  int64_t n = 1;
  for (int64_t e : in.shape) n *= e;
  if (in.strides.empty() || n == 0) return n;
  int64_t hi = in.offset;
  for (size_t k = 0; k < in.shape.size(); ++k) hi += (in.shape[k] - 1) * in.strides[k];
  return hi + 1;
}

void fill_inputs(Inputs& inputs, uint64_t seed, double special_rate, const std::vector<Recipe>& recipes) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto& in = inputs[i];
    Rng r(seed * 0x100000001b3ull + i);
    const size_t n = static_cast<size_t>(storage_size(in));
    // 0: ordinary values; 1: a quarter special; 2: all special; 3: one special value throughout
    // (all -0, all -inf: what a wrong identity of a sum or a max shows on); 4: ordinary values,
    // all negative (floats).
    const bool signed_float = is_float(in.dtype) || info(in.dtype).cls == DTypeClass::SmallFloat;
    int mode = 0;
    if (r.chance(special_rate))
      mode = r.chance(0.5) ? 1 : r.chance(0.5) ? 2 : 3;
    else if (signed_float && r.chance(0.1))
      mode = 4;
    in.bits.resize(n);
    const uint64_t one = special_bits(in.dtype, r);
    const uint64_t sign = uint64_t{1} << (info(in.dtype).bits - 1);
    for (auto& b : in.bits) {
      if (mode == 3)
        b = one;
      else if (mode == 2 || (mode == 1 && r.chance(0.25)))
        b = special_bits(in.dtype, r);
      else
        b = random_bits(in.dtype, r) | (mode == 4 ? sign : 0);
    }
  }
  // Data around math breakpoints first, then the other recipes in order (their streams
  // numbered among themselves, as before there were breakpoint recipes).
  uint64_t nb = 0, j = 0;
  for (const auto& rc : recipes)
    if (const auto* f = rc.target<MathBreakpointFill>()) {
      Rng r(mix64(seed) + 0xb7ea0000ull + nb++);
      (*f)(inputs, r);
    }
  for (const auto& rc : recipes) {
    if (rc.target<MathBreakpointFill>()) continue;
    Rng r(mix64(seed) + 0x5eed0000ull + j++);
    rc(inputs, r);
  }
}

std::optional<InputSource> traced_input(const std::vector<std::string>& lines, const Inputs& inputs,
                                        const std::string& value) {
  static const char* const kThrough[] = {"view.load", "gather", "cast", "broadcast", "reshape", "transpose", "neg"};
  std::string v = value;
  bool negated = false;
  for (int hop = 0; hop <= 8; ++hop) {
    const std::string bare = !v.empty() && v[0] == '%' ? v.substr(1) : v;
    for (const auto& in : inputs)
      if (in.name == bare) return InputSource{bare, negated};
    if (hop == 8) break;
    // The line defining v: "  %v7 = op(%a, ...) ...".
    const std::string head = v + " = ";
    const std::string* def = nullptr;
    for (auto it = lines.rbegin(); it != lines.rend() && !def; ++it) {
      const size_t s = it->find_first_not_of(' ');
      if (s != std::string::npos && it->compare(s, head.size(), head) == 0) def = &*it;
    }
    if (!def) return std::nullopt;
    const size_t rhs = def->find(head) + head.size(), open = def->find('(', rhs);
    if (open == std::string::npos) return std::nullopt;
    const std::string op = def->substr(rhs, open - rhs);
    bool through = false;
    for (const char* t : kThrough) through = through || op == t;
    if (!through) return std::nullopt;
    const size_t end = def->find_first_of(",)", open);
    if (end == std::string::npos) return std::nullopt;
    v = def->substr(open + 1, end - open - 1);
    if (v.empty() || v[0] != '%') return std::nullopt;
    if (op == "neg") negated = !negated;
  }
  return std::nullopt;
}

std::vector<size_t> read_positions(const GeneratedCase::Input& in) {
  std::vector<size_t> pos;
  if (in.scalar) return {0};
  int64_t n = 1;
  for (int64_t e : in.shape) n *= e;
  if (n <= 0) return pos;
  std::vector<int64_t> idx(in.shape.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t p = in.strides.empty() ? k : in.offset;
    if (!in.strides.empty())
      for (size_t a = 0; a < idx.size(); ++a) p += idx[a] * in.strides[a];
    pos.push_back(static_cast<size_t>(p));
    for (size_t a = idx.size(); a-- > 0;) {  // row-major increment
      if (++idx[a] < in.shape[a]) break;
      idx[a] = 0;
    }
  }
  return pos;
}

void MathBreakpointFill::operator()(Inputs& inputs, Rng& r) const {
  GeneratedCase::Input* in = nullptr;
  for (auto& x : inputs)
    if (x.name == input) in = &x;
  if (!in || !is_any_float(in->dtype) || !has_breakpoints(fn) || !r.chance(0.8)) return;
  const std::vector<size_t> pos = read_positions(*in);
  if (pos.empty()) return;
  static const double kShare[] = {0.25, 0.5, 1.0};
  const double share = kShare[r.weighted({1, 1, 1})];
  const size_t always = r.below(pos.size());  // at least one element
  // The replaced elements take the function's points in turn from a random one on, so an input
  // with as many replaced elements as the function has points reaches every one of them.
  int64_t next = static_cast<int64_t>(r.below(breakpoint_count(fn)));
  for (size_t i = 0; i < pos.size(); ++i)
    if (i == always || r.chance(share)) in->bits.at(pos[i]) = breakpoint_bits(in->dtype, fn, r, negated, next++);
}

Recipe math_breakpoint_recipe(const std::string& input, const std::string& fn, bool negated) {
  return MathBreakpointFill{!input.empty() && input[0] == '%' ? input.substr(1) : input, fn, negated};
}

GeneratedCase::Input& input_named(Inputs& inputs, const std::string& name) {
  const std::string n = !name.empty() && name[0] == '%' ? name.substr(1) : name;
  for (auto& in : inputs)
    if (in.name == n) return in;
  throw std::logic_error("generator: no input " + n);
}

uint64_t& element(GeneratedCase::Input& in, int64_t k) {
  if (in.scalar) return in.bits.at(0);
  const int64_t pos = in.strides.empty() ? k : in.offset + k * in.strides.at(0);
  return in.bits.at(static_cast<size_t>(pos));
}

int64_t fault_position(Rng& r, int64_t n, int64_t avoid) {
  int64_t k;
  switch (r.weighted({35, 25, 15, 25})) {
    case 0: k = n - 1; break;
    case 1: k = n / 2; break;
    case 2: k = 0; break;
    default: k = r.range(0, n - 1);
  }
  if (k == avoid && n >= 2) k = k + 1 < n ? k + 1 : k - 1;
  return k;
}

void write_fault_data(GeneratedCase::Input& in, FaultData what, int64_t k, Rng& r, int64_t bound, DType to) {
  const DType d = in.dtype;
  const int64_t n = in.shape.empty() ? 1 : in.shape[0];
  const bool is_signed = is_signed_integer(d) || d == DType::Index;
  const int w = info(d).bits;
  for (int64_t i = 0; i < n; ++i) {
    uint64_t& b = element(in, i);
    switch (what) {
      case FaultData::Divisor:
        b = int_bits(d, i == k ? 0 : is_signed && r.chance(0.3) ? -r.range(2, 9) : r.range(1, 9));
        break;
      case FaultData::ShiftAmount:
        if (i != k) b = int_bits(d, r.range(0, w - 1));
        else b = is_signed && r.chance(0.3) ? all_ones_bits(d) : int_bits(d, w + r.range(0, w));
        break;
      case FaultData::Coordinate:
        if (i != k) {
          b = int_bits(d, r.range(0, bound - 1));
        } else {
          const int64_t out[] = {bound, bound + r.range(1, 3), -1, int64_t{1} << 40, std::numeric_limits<int64_t>::min(),
                                 std::numeric_limits<int64_t>::max()};
          b = int_bits(d, out[r.below(6)]);
        }
        break;
      case FaultData::CastSource:
        if (i != k) {
          b = value_bits(d, static_cast<double>(r.range(0, 99)) + static_cast<double>(r.below(4)) * 0.25);
        } else {
          const int tw = info(to).bits;
          const bool to_unsigned = is_unsigned_integer(to);
          const double beyond = std::ldexp(1.0, to_unsigned ? tw : tw - 1);
          switch (r.below(to_unsigned ? 5 : 4)) {
            case 0: b = value_bits(d, std::numeric_limits<double>::quiet_NaN()); break;
            case 1: b = value_bits(d, std::numeric_limits<double>::infinity()); break;
            case 2: b = value_bits(d, -std::numeric_limits<double>::infinity()); break;
            case 3: b = value_bits(d, r.chance(0.5) || to_unsigned ? beyond : -2 * beyond); break;
            default: b = value_bits(d, -1.0);
          }
        }
        break;
    }
  }
}

void write_mask_skipping(GeneratedCase::Input& in, int64_t k, Rng& r) {
  const int64_t n = in.shape.empty() ? 1 : in.shape[0];
  for (int64_t i = 0; i < n; ++i) element(in, i) = i != k && r.chance(0.75) ? 1 : 0;
}

void write_order_sensitive(GeneratedCase::Input& in, Rng& r) {
  const int64_t n = in.shape.empty() ? 1 : in.shape[0];
  for (int64_t i = 0; i < n; ++i) {
    const double m = 1.0 + static_cast<double>(r.next() >> 11) * 0x1.0p-53;
    element(in, i) = value_bits(in.dtype, std::ldexp(m, static_cast<int>(r.range(-24, 24))) * (r.chance(0.5) ? -1.0 : 1.0));
  }
}

int64_t huge_extent(Rng& r) {
  static const int64_t kHuge[] = {int64_t{1} << 31,       (int64_t{1} << 31) + 1, int64_t{1} << 32,
                                  (int64_t{1} << 32) + 7, int64_t{1} << 40,       (int64_t{1} << 40) + 1,
                                  int64_t{1} << 48,       int64_t{1} << 62,       std::numeric_limits<int64_t>::max() - 1,
                                  std::numeric_limits<int64_t>::max()};
  return kHuge[r.below(std::size(kHuge))];
}

std::array<int64_t, 3> edge_domain(Rng& r) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max(), kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t k61 = int64_t{1} << 61, k62 = int64_t{1} << 62;
  // {begin, end, step} and the points each has.
  static const std::array<int64_t, 3> kEdges[] = {
      {0, kMax, k62},              // 2: end - begin + step - 1 overflows
      {0, kMax, kMax},             // 1
      {0, 2, kMax},                // 1
      {kMin, kMax, kMax},          // 3: end - begin overflows
      {kMin + 1, kMax, kMax},      // 2
      {kMin, 0, k62},              // 2
      {-5, kMax - 2, kMax},        // 2
      {k62, kMax, k61},            // 2
      {kMax - 5, kMax, 2},         // 3: the counter would step past INT64_MAX
      {kMax - 1, kMax, kMax},      // 1
      {kMin, kMin + 7, 3},         // 3
      {kMax, kMin, 1},             // 0: end - begin wraps to 1
      {kMin, kMax, k62 + k61},     // 3
  };
  std::array<int64_t, 3> d = kEdges[r.below(std::size(kEdges))];
  if (d[1] > d[0] && r.chance(0.3)) d[1] -= 1;  // the end one below
  return d;
}

}  // namespace kir::fuzz
