// The numerics contract table: mode legality (seed 000 §4), coverage of every op and dtype,
// the accumulator widening rules, and the acceptance predicate on NaN / zero / ulp cases.
#include <catch2/catch.hpp>

#include <bit>

#include "numerics/contract.h"
#include "numerics/math.h"

using namespace kir;
using num::ContractOp;
using num::MathMode;

TEST_CASE("every op has a default entry for every float dtype", "[L4.3][numerics]") {
  for (int i = 0; i < num::kNumContractOps; ++i)
    for (DType d : {DType::F16, DType::BF16, DType::F32, DType::F64}) {
      const auto op = static_cast<ContractOp>(i);
      INFO(num::name(op) << " " << kir::name(d));
      CHECK(num::accuracy(op, d).has_value());
      CHECK(num::parse_contract_op(num::name(op)) == op);
    }
  for (int i = 0; i < num::kNumMathFns; ++i)
    CHECK(num::name(num::contract_op(static_cast<num::MathFn>(i))) == num::name(static_cast<num::MathFn>(i)));
  CHECK(!num::accuracy(ContractOp::Exp, DType::I32));
  CHECK(num::accuracy(ContractOp::Add, DType::F32)->max_ulps == 0);
  CHECK(num::accuracy(ContractOp::Sqrt, DType::F64)->max_ulps == 0);
  CHECK(num::accuracy(ContractOp::Exp, DType::F32)->max_ulps == 2);
}

TEST_CASE("approximate exp2 / tanh modes are f32 only, FTZ only with approximate", "[L4.5][numerics]") {
  CHECK(num::mode_legal(ContractOp::Exp2, DType::F32, MathMode::Approximate));
  CHECK(num::mode_legal(ContractOp::Exp2, DType::F32, MathMode::ApproximateFtz));
  CHECK(num::mode_legal(ContractOp::Tanh, DType::F32, MathMode::Approximate));
  CHECK(!num::mode_legal(ContractOp::Tanh, DType::F32, MathMode::ApproximateFtz));
  CHECK(!num::mode_legal(ContractOp::Exp2, DType::F16, MathMode::Approximate));
  CHECK(!num::mode_legal(ContractOp::Exp, DType::F32, MathMode::Approximate));
  CHECK(!num::accuracy(ContractOp::Tanh, DType::F64, MathMode::Approximate));
  const auto t = num::accuracy(ContractOp::Tanh, DType::F32, MathMode::Approximate);
  REQUIRE(t);
  CHECK(t->max_rel == 0x1p-11);
  // tanh(0.5) within 2^-11 relative is accepted, far outside is not
  const uint32_t cr = 0x3EEC9A9F;
  CHECK(num::accepts(*t, cr + 500, cr));
  CHECK(!num::accepts(*t, cr + 20000, cr));
  const auto e = num::accuracy(ContractOp::Exp2, DType::F32, MathMode::ApproximateFtz);
  REQUIRE(e);
  CHECK(e->ftz_allowed);
  CHECK(num::accepts(*e, 0x80000000u, 0x00000005u));  // flushed subnormal
  CHECK(!num::accepts(*num::accuracy(ContractOp::Exp2, DType::F32), 0x0u, 0x00000005u));
}

TEST_CASE("fdiv contract", "[L4.4][numerics]") {
  CHECK(num::accuracy(ContractOp::Fdiv, DType::F32)->max_ulps == 0);
  CHECK(num::accuracy(ContractOp::Fdiv, DType::F64)->max_ulps == 0);
  CHECK(num::accuracy(ContractOp::Fdiv, DType::F32, MathMode::Approximate)->max_ulps == 2);
  CHECK(num::accuracy(ContractOp::Fdiv, DType::F32, MathMode::ApproximateFtz)->ftz_allowed);
  CHECK(!num::accuracy(ContractOp::Fdiv, DType::BF16, MathMode::Approximate));
  const auto d = *num::accuracy(ContractOp::Fdiv, DType::F32);
  CHECK(num::accepts(d, 0x3F800000u, 0x3F800000u));
  CHECK(!num::accepts(d, 0x3F800001u, 0x3F800000u));
}

TEST_CASE("NaN and signed zero acceptance rules", "[L4.3][numerics]") {
  const auto s = *num::accuracy(ContractOp::Sin, DType::F32);
  CHECK(num::accepts(s, 0xFFC00001u, 0x7FC00000u));   // any NaN for a NaN result
  CHECK(!num::accepts(s, 0x00000000u, 0x7FC00000u));
  CHECK(!num::accepts(s, 0x7FC00000u, 0x00000000u));
  CHECK(num::accepts(s, 0x80000000u, 0x80000000u));   // sin(-0) = -0
  CHECK(!num::accepts(s, 0x00000000u, 0x80000000u));
  CHECK(num::accepts(s, 0x3F576AA6u, 0x3F576AA4u));   // 2 ulp
  CHECK(!num::accepts(s, 0x3F576AA7u, 0x3F576AA4u));
  CHECK(!num::accepts(s, 0xFF800000u, 0x7F800000u));
  const auto lg = *num::accuracy(ContractOp::Lgamma, DType::F32);
  // near a root the absolute allowance applies: 1e-9 off where cr ~ 1e-8
  const float cr = 1e-8f, r = 1.1e-8f;
  CHECK(num::accepts(lg, std::bit_cast<uint32_t>(r), std::bit_cast<uint32_t>(cr)));
}

TEST_CASE("default sum accumulator widening", "[L7.3][numerics]") {
  CHECK(num::default_sum_accumulator(DType::F16) == DType::F32);
  CHECK(num::default_sum_accumulator(DType::BF16) == DType::F32);
  CHECK(num::default_sum_accumulator(DType::E4M3) == DType::F32);
  CHECK(num::default_sum_accumulator(DType::F32) == DType::F32);
  CHECK(num::default_sum_accumulator(DType::F64) == DType::F64);
  CHECK(num::default_sum_accumulator(DType::I8) == DType::I32);
  CHECK(num::default_sum_accumulator(DType::U16) == DType::U32);
  CHECK(num::default_sum_accumulator(DType::I64) == DType::I64);
  CHECK(!num::default_sum_accumulator(DType::Bool));
  CHECK(!num::default_sum_accumulator(DType::E8M0));
  CHECK(!num::describe(num::AccumulationRule::ScaledContract).empty());
}
