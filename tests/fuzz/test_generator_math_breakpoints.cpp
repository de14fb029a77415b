// Inputs of math functions reach the breakpoints of the vector kernels: within a bounded number
// of generated programs, an input that a `tanh` reads holds a value in [8.7, 9.02] (the band
// where tanh saturating from 8.7 instead of 9.1 misrounds) and one that an `exp` reads a value
// within 4 ulps of its overflow edge 88.72283. Judged from the generated case alone: its KIR
// text (the math op's operand traced back to an In view or scalar through loads, casts,
// broadcasts, reshapes, transposes and negations) and the data of that input.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include "fuzz/gen/gen.h"
#include "fuzz_common.h"
#include "numerics/format.h"

using namespace kir;
using namespace kir::fuzz;

namespace {

struct Def {
  std::string op, first;  // "cast", "%v3"
};

// Every "%v = op(%a ..." line of the case's text.
std::map<std::string, Def> defs_of(const std::string& kir) {
  std::map<std::string, Def> d;
  static const std::regex line(R"re(^\s*(%[\w.]+) = ([\w.]+)\((%[\w.]+)?)re");
  std::istringstream in(kir);
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (std::regex_search(l, m, line)) d[m[1].str()] = {m[2].str(), m[3].str()};
  }
  return d;
}

// The input the value reaches through view.load, gather, cast, broadcast, reshape, transpose or
// neg, and whether it is negated on the way.
std::optional<std::pair<const GeneratedCase::Input*, bool>> source(const GeneratedCase& c, const std::map<std::string, Def>& defs,
                                                                   std::string v) {
  bool neg = false;
  for (int hop = 0; hop < 12; ++hop) {
    for (const auto& in : c.inputs)
      if ("%" + in.name == v) return std::make_pair(&in, neg);
    const auto it = defs.find(v);
    if (it == defs.end() || it->second.first.empty()) return std::nullopt;
    const std::string& op = it->second.op;
    if (op != "view.load" && op != "gather" && op != "cast" && op != "broadcast" && op != "reshape" && op != "transpose" &&
        op != "neg")
      return std::nullopt;
    neg = neg != (op == "neg");
    v = it->second.first;
  }
  return std::nullopt;
}

// The values the input's view (or scalar) reads, as the function sees them.
std::vector<double> read_values(const GeneratedCase::Input& in, bool neg) {
  std::vector<double> out;
  if (!is_any_float(in.dtype)) return out;
  int64_t n = 1;
  for (int64_t e : in.shape) n *= e;
  if (in.scalar) n = 1;
  std::vector<int64_t> idx(in.shape.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t p = in.strides.empty() || in.scalar ? k : in.offset;
    if (!in.strides.empty() && !in.scalar)
      for (size_t a = 0; a < idx.size(); ++a) p += idx[a] * in.strides[a];
    const double x = num::to_double(in.bits.at(static_cast<size_t>(p)), in.dtype);
    out.push_back(neg ? -x : x);
    for (size_t a = idx.size(); a-- > 0;) {
      if (++idx[a] < in.shape[a]) break;
      idx[a] = 0;
    }
  }
  return out;
}

// The values read by the operands of every `fn(` op of the case.
std::vector<std::pair<const GeneratedCase::Input*, std::vector<double>>> math_inputs(const GeneratedCase& c, const std::string& fn) {
  std::vector<std::pair<const GeneratedCase::Input*, std::vector<double>>> r;
  const auto defs = defs_of(c.kir);
  for (const auto& [name, d] : defs) {
    if (d.op != fn || d.first.empty()) continue;
    if (auto s = source(c, defs, d.first)) r.emplace_back(s->first, read_values(*s->first, s->second));
  }
  return r;
}

int64_t f32_ordinal(float x) {
  const uint32_t u = std::bit_cast<uint32_t>(x);
  return u >> 31 ? -1 - static_cast<int64_t>(u & 0x7fffffffu) : static_cast<int64_t>(u);
}

}  // namespace

// The programs apply tanh or exp to an input's values rarely (one program in a few hundred:
// the math set has 18 functions, and many of them read computed values), and an input of few
// elements reaches only some of a function's points, so the first hit comes after a few hundred
// to a few thousand programs. Measured 2026-12-07 (tree at 7989879): from seed 31000 after 2937
// (tanh) and 2020 (exp) programs; from 30 other starting seeds tanh after 20 to 3650 (median
// 695), exp after 72 to 8585 (median 941). Any change to the program stream moves these, hence
// the bound; the loop stops at the second hit.
TEST_CASE("generated inputs of tanh and exp reach their breakpoints", "[fuzz]") {
  constexpr uint64_t kFirst = 31000, kBound = 20000;
  const float overflow_edge = 0x1.62e43p6f;  // 88.72283935546875: the first f32 whose exp is +Inf
  std::optional<uint64_t> tanh_at, exp_at;
  int tanh_uses = 0, exp_uses = 0;
  uint64_t programs = 0;
  for (uint64_t i = 0; i < kBound && !(tanh_at && exp_at); ++i) {
    const uint64_t seed = kFirst + i;
    const GeneratedCase c = sample_case(seed, test::size_for(seed)).value();
    ++programs;
    for (const auto& [in, xs] : math_inputs(c, "tanh")) {
      ++tanh_uses;
      for (double x : xs)
        if (x >= 8.7 && x <= 9.02 && !tanh_at) tanh_at = i + 1;
    }
    for (const auto& [in, xs] : math_inputs(c, "exp")) {
      ++exp_uses;
      for (double x : xs) {
        // An f32 value (of an f32 input, or one an f64 input holds exactly) within 4 ulps.
        const float f = static_cast<float>(x);
        if (std::isnan(x) || static_cast<double>(f) != x) continue;
        if (std::llabs(f32_ordinal(f) - f32_ordinal(overflow_edge)) <= 4 && !exp_at) exp_at = i + 1;
      }
    }
  }
  std::cout << "math breakpoint inputs: a tanh input in [8.7, 9.02] first in program "
            << (tanh_at ? std::to_string(*tanh_at) : "-") << ", an exp input within 4 ulps of 88.72283 first in program "
            << (exp_at ? std::to_string(*exp_at) : "-") << " (seeds from " << kFirst << ", bound " << kBound << "; "
            << programs << " programs, " << tanh_uses << " tanh and " << exp_uses << " exp ops read an input)\n";
  CHECK(tanh_at.has_value());
  CHECK(exp_at.has_value());
}

TEST_CASE("generated breakpoint inputs are deterministic per seed", "[fuzz]") {
  for (uint64_t seed = 31000; seed < 31040; ++seed) {
    const GeneratedCase a = sample_case(seed, test::size_for(seed)).value();
    const GeneratedCase b = sample_case(seed, test::size_for(seed)).value();
    REQUIRE(a.kir == b.kir);
    REQUIRE(a.inputs.size() == b.inputs.size());
    for (size_t i = 0; i < a.inputs.size(); ++i) CHECK(a.inputs[i].bits == b.inputs[i].bits);
  }
}
