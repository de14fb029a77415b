// Input data generation and the .npy writer (see datagen.h).
#include "specs/src/datagen.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "numerics/dtype.h"
#include "numerics/format.h"
#include "numerics/fnuz.h"
#include "specs/src/dtypes.h"
#include "specs/src/float8_e4m3.h"
#include "specs/src/generators.h"

namespace kir::specs {
namespace {

struct Layout {
  int bytes;            // bytes per element
  std::string descr;
  std::optional<kir::DType> fmt;  // float format for rounding (components for complex)
  bool complex = false;
  std::optional<kir::num::Fnuz> fnuz = std::nullopt;  // the fnuz float8s, outside the DType table
  bool pair = false;    // float4_e2m1fn_x2: two codes of `fmt` per byte
  bool scale = false;   // float8_e8m0fnu: a power-of-two scale
  bool e4m3 = false;    // float8_e4m3 (IEEE-style, with Inf): float8_e4m3.h
};

Layout layout_of(const std::string& dt) {
  if (dt == "bool") return {1, "|b1", std::nullopt};
  if (dt == "uint8") return {1, "|u1", std::nullopt};
  if (dt == "uint16") return {2, "<u2", std::nullopt};
  if (dt == "uint32") return {4, "<u4", std::nullopt};
  if (dt == "uint64") return {8, "<u8", std::nullopt};
  if (dt == "int8") return {1, "|i1", std::nullopt};
  if (dt == "int16") return {2, "<i2", std::nullopt};
  if (dt == "int32") return {4, "<i4", std::nullopt};
  if (dt == "int64") return {8, "<i8", std::nullopt};
  if (dt == "float16") return {2, "<f2", kir::DType::F16};
  if (dt == "bfloat16") return {2, "<u2", kir::DType::BF16};
  if (dt == "float32") return {4, "<f4", kir::DType::F32};
  if (dt == "float64") return {8, "<f8", kir::DType::F64};
  if (dt == "float8_e4m3fn") return {1, "|u1", kir::DType::E4M3};
  if (dt == "float8_e5m2") return {1, "|u1", kir::DType::E5M2};
  if (dt == "float8_e4m3") return {1, "|u1", std::nullopt, false, std::nullopt, false, false, true};
  if (dt == "float8_e4m3fnuz") return {1, "|u1", std::nullopt, false, kir::num::Fnuz::E4M3};
  if (dt == "float8_e5m2fnuz") return {1, "|u1", std::nullopt, false, kir::num::Fnuz::E5M2};
  if (dt == "float4_e2m1fn_x2") return {1, "|u1", kir::DType::E2M1, false, std::nullopt, true};
  if (dt == "float8_e8m0fnu") return {1, "|u1", kir::DType::E8M0, false, std::nullopt, false, true};
  if (dt == "complex64") return {8, "<c8", kir::DType::F32, true};
  if (dt == "complex128") return {16, "<c16", kir::DType::F64, true};
  throw EvalError("not implemented: data generation for " + dt);
}

void put(std::vector<uint8_t>& out, uint64_t bits, int nbytes) {
  for (int k = 0; k < nbytes; ++k) out.push_back(static_cast<uint8_t>(bits >> (8 * k)));
}

// One element of an integer input without generated values: with equal odds a uniform draw
// over the dtype's whole range — all `bits` bits random, the two's-complement pattern for
// signed types (so packed int4 and q4_K bytes set their high bits, and negative and huge values
// occur) — or a small value in [0, 8), where indices, bins and counts live. Python:
// `rng.getrandbits(bits) if rng.randrange(2) == 0 else rng.randrange(8)`.
uint64_t integer_draw(PyRandom& rng, int bits) {
  if (rng.randbelow(uint64_t{2}) == 0) return rng.getrandbits64(static_cast<unsigned>(bits));
  return rng.randbelow(uint64_t{8});
}

// fnuz formats have no -0 (it would encode as +0, so it is not offered as a special).
std::vector<double> specials(const SpecDType& d) {
  std::vector<double> s = {0.0, std::numeric_limits<double>::quiet_NaN(), d.max_finite, -d.max_finite};
  if (d.name.find("fnuz") == std::string::npos) s.insert(s.begin() + 1, -0.0);
  if (d.has_inf) {
    s.push_back(std::numeric_limits<double>::infinity());
    s.push_back(-std::numeric_limits<double>::infinity());
  }
  return s;
}

}  // namespace

std::vector<TensorData> generate_inputs(const OpSpec& op, const Call& call, const DataOptions& opts) {
  std::vector<TensorData> out;
  for (const auto& t : call.tensors) {
    if (t.role == Role::Output || !t.present) continue;
    TensorData td;
    td.name = t.name;
    td.dtype = t.dtype;
    mpz_class count = 1;
    for (const auto& d : t.shape) {
      td.shape.push_back(to_i64(d, "axis"));
      count *= d;
    }
    if (count > static_cast<unsigned long>(kMaxSeqLen) * 8) throw EvalError("tensor '" + t.name + "' has " + count.get_str() + " elements, too many to generate");
    size_t n = count.get_ui();
    Layout l = layout_of(t.dtype);
    td.npy_descr = l.descr;
    const SpecDType* sd = find_dtype(t.dtype);
    PyRandom rng = seeded_random(op.name + ":" + t.name + ":" + call.case_id, opts.seed);
    td.bytes.reserve(n * static_cast<size_t>(l.bytes));
    if (t.values) {
      std::vector<long> gshape;
      auto flat = flatten(*t.values, gshape);
      for (const auto& x : flat) put(td.bytes, static_cast<uint64_t>(x.get_si()), l.bytes);
      out.push_back(std::move(td));
      continue;
    }
    for (size_t i = 0; i < n; ++i) {
      if (t.dtype == "bool") {  // Python: rng.randrange(2)
        put(td.bytes, rng.randbelow(uint64_t{2}), 1);
        continue;
      }
      if (!l.fmt && !l.fnuz && !l.e4m3) {  // integers: see integer_draw
        put(td.bytes, integer_draw(rng, l.bytes * 8), l.bytes);
        continue;
      }
      if (l.scale && !opts.inject_special) {  // Python: 124 + rng.randrange(7), 2^-3 .. 2^3
        put(td.bytes, 124 + rng.randbelow(uint64_t{7}), 1);
        continue;
      }
      const SpecDType& comp = l.complex ? *find_dtype(sd->component) : *sd;
      uint64_t packed = 0;
      for (int part = 0; part < (l.complex || l.pair ? 2 : 1); ++part) {
        double x = rng.gauss();
        if (opts.inject_special && rng.randbelow(uint64_t{8}) == 0) {
          auto sp = specials(comp);
          x = sp[rng.randbelow(static_cast<uint64_t>(sp.size()))];
        }
        if (l.fnuz) put(td.bytes, kir::num::fnuz_from_double(x, *l.fnuz), 1);
        else if (l.e4m3) put(td.bytes, float8_e4m3_from_double(x), 1);
        else if (l.pair) packed |= kir::num::from_double(x, *l.fmt) << (4 * part);
        else put(td.bytes, kir::num::from_double(x, *l.fmt), kir::info(*l.fmt).bits / 8);
      }
      if (l.pair) put(td.bytes, packed, 1);
    }
    out.push_back(std::move(td));
  }
  return out;
}

bool write_npy(const TensorData& t, const std::string& path, std::string& err) {
  std::string shape = "(";
  for (size_t k = 0; k < t.shape.size(); ++k) shape += std::to_string(t.shape[k]) + (t.shape.size() == 1 || k + 1 < t.shape.size() ? "," : "") + (k + 1 < t.shape.size() ? " " : "");
  shape += ")";
  std::string header = "{'descr': '" + t.npy_descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header += std::string((64 - total % 64) % 64, ' ') + "\n";
  std::ofstream f(path, std::ios::binary);
  if (!f) { err = "cannot write " + path; return false; }
  f.write("\x93NUMPY\x01\x00", 8);
  uint16_t hl = static_cast<uint16_t>(header.size());
  char hlb[2] = {static_cast<char>(hl & 0xFF), static_cast<char>(hl >> 8)};
  f.write(hlb, 2);
  f.write(header.data(), static_cast<std::streamsize>(header.size()));
  f.write(reinterpret_cast<const char*>(t.bytes.data()), static_cast<std::streamsize>(t.bytes.size()));
  if (!f) { err = "cannot write " + path; return false; }
  return true;
}

std::vector<std::string> write_inputs_npy(const OpSpec& op, const Call& call, const std::string& dir, const DataOptions& opts,
                                          std::string& err) {
  std::vector<std::string> paths;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  try {
    for (const auto& t : generate_inputs(op, call, opts)) {
      std::string p = (std::filesystem::path(dir) / (call.case_id + "." + t.name + ".npy")).string();
      if (!write_npy(t, p, err)) return paths;
      paths.push_back(p);
    }
  } catch (const EvalError& e) {
    err = e.what();
  }
  return paths;
}

}  // namespace kir::specs
