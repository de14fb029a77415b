// Helpers for manifest tests: validate YAML text held in the test (a family file named
// `<stem>.yaml`, plus the bundled types.yaml), and find diagnostics by fragment.
#pragma once
#include <fstream>
#include <sstream>
#include <string>

#include "specs/src/instantiate.h"
#include "specs/src/loader.h"
#include "specs/src/validator.h"

namespace spec_test {

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::string types_text() { return read_text(std::string(KIR_SOURCE_DIR) + "/specs/types.yaml"); }

// Loads and validates one family file given as text; returns all diagnostics.
inline kir::specs::SpecDiags validate_text(const std::string& yaml, const std::string& stem = "gemm") {
  kir::specs::Manifest m;
  kir::specs::SpecDiags d;
  kir::specs::load_types_text(types_text(), "types.yaml", m, d);
  kir::specs::load_family_text(yaml, stem + ".yaml", m, d);
  kir::specs::validate(m, d);
  return d;
}

inline bool has(const kir::specs::SpecDiags& d, const std::string& fragment) { return d.contains(fragment); }

// Replaces the first occurrence of `from` in `text` (test edits of a base spec).
inline std::string edit(std::string text, const std::string& from, const std::string& to) {
  auto p = text.find(from);
  if (p == std::string::npos) return "EDIT-NOT-FOUND: " + from;
  text.replace(p, from.size(), to);
  return text;
}

// A valid base spec (GEMM with the Mat family) that rejected-spec tests edit.
inline const std::string kGemm = R"Y(GemmFwdOp:
  family: gemm
  status: implemented
  signature:
    forall: {M: Dim, N: Dim, K: Dim, T: "DType[float16 | bfloat16]"}
    params:
      trans_a: {type: bool, default: false}
      trans_b: {type: bool, default: false}
    inputs:
      a: {dtype: T, shape: "Mat[trans_a, M, K]"}
      b: {dtype: T, shape: "Mat[trans_b, K, N]"}
    outputs:
      c: {dtype: T, shape: "[M, N]"}
    types:
      Mat:
        params: {t: Bool, R: Dim, C: Dim}
        match: t
        cases:
        - {when: false, is: "[R, C]"}
        - {when: true, is: "[C, R]"}
    shape_rules:
    - "M >= 0"
  workloads:
  - {M: 64, N: 32, K: 16, label: small, dtype_cases: [{T: float16}]}
  - {M: 8, N: 8, K: 8, trans_a: true, label: ta, dtype_cases: [{T: bfloat16}]}
  roofline:
    flops: "2 * M * N * K"
)Y";

// Clamp: optional inputs, a family over presence, a domain restriction.
inline const std::string kClamp = R"Y(ClampFwdOp:
  family: elementwise
  status: implemented
  signature:
    forall: {A: Shape, L: Shape, U: Shape, T: "DType[float16 | float32]"}
    inputs:
      input: {dtype: T, shape: "[*A]"}
      min: {dtype: T, shape: "[*L]", optional: true}
      max: {dtype: T, shape: "[*U]", optional: true}
    outputs:
      output: {dtype: T, shape: "ClampOut[A, L, U, present(min), present(max)]"}
    types:
      ClampOut:
        params: {A: Shape, L: Shape, U: Shape, pl: Bool, pu: Bool}
        match: [pl, pu]
        cases:
        - {when: [true, true], is: "[*broadcast(A, L, U)]"}
        - {when: [true, false], is: "[*broadcast(A, L)]"}
        - {when: [false, true], is: "[*broadcast(A, U)]"}
    shape_rules:
    - "present(min) or present(max)"
  workloads:
  - {A: [4, 8], L: [8], U: [4, 1], some: [min, max], label: both, dtype_cases: [{T: float16}]}
  - {A: [4, 8], L: [8], some: [min], label: lower, dtype_cases: [{T: float16}]}
  - {A: [4, 8], U: [1], some: [max], label: upper, dtype_cases: [{T: float32}]}
  roofline:
    flops: "prod(A)"
)Y";

// MeanPooling: generators, requires, a Seq[Int] index, an expression-optional input.
inline const std::string kPool = R"Y(MeanPoolingFwdOp:
  family: pool
  status: implemented
  signature:
    forall: {B: Dim, S: Dim, H: Dim, NS: Dim, NC: Dim, T: "DType[float16 | float32]", seq_lens: "Seq[Int]"}
    params:
      chunk_size: {type: int, default: 4}
    inputs:
      x: {dtype: T, shape: "PoolIn[present(offsets), B, S, H]"}
      offsets: {dtype: int32, optional: true, shape: "[NS + 1]", values: "prefix_sum(seq_lens)", requires: ["prefix_offsets(S)"]}
      indices: {dtype: int32, optional: "present(offsets)", shape: "[NC, 2]", values: "chunk_indices(seq_lens, chunk_size)"}
    outputs:
      y: {dtype: T, shape: "PoolOut[present(offsets), B, S, H, NC, chunk_size]"}
    types:
      PoolIn:
        params: {v: Bool, B: Dim, S: Dim, H: Dim}
        match: v
        cases:
        - {when: false, is: "[B, S, H]"}
        - {when: true, is: "[S, H]"}
      PoolOut:
        params: {v: Bool, B: Dim, S: Dim, H: Dim, NC: Dim, c: Int}
        match: v
        cases:
        - {when: false, is: "[B, ceil_div(S, c), H]"}
        - {when: true, is: "[NC, H]"}
  workloads:
  - {B: 2, S: 16, H: 4, label: dense, dtype_cases: [{T: float16}]}
  - {S: 10, H: 4, seq_lens: [3, 7], some: [offsets], label: varlen, dtype_cases: [{T: float32}]}
  roofline:
    flops: "S * H"
)Y";

}  // namespace spec_test
