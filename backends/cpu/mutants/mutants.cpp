// The registry of seeded mutants (mutants.h).
#include "backends/cpu/mutants/mutants.h"

#include <atomic>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace kir::cpu {

const std::vector<MutantInfo>& mutants() {
  using M = MutantId;
  // Never destroyed: a worker thread of the pool may still read it while the process exits.
  static const auto& all = *new const std::vector<MutantInfo>{
      {M::TransposeInversePerm, "transpose_inverse_perm", "construct/ops_value.cpp op_transpose",
       "transpose indexes the source with the inverse permutation (same for rank 2, wrong for 3-cycles)", false},
      {M::SelectSwapped, "select_swapped", "construct/ops_value.cpp op_select",
       "select takes its true and false operands in the wrong order", false},
      {M::MaskedLoadReadsInactive, "masked_load_reads_inactive", "construct/ops_domain_memory.cpp op_load",
       "a masked load drops the mask: inactive lanes read the source instead of the fill", false},
      {M::MaskedStoreWritesInactive, "masked_store_writes_inactive", "construct/ops_domain_memory.cpp op_store",
       "a masked store drops the mask: inactive lanes are written too", false},
      {M::BroadcastNoStretch, "broadcast_no_stretch", "construct/ops_value.cpp op_broadcast",
       "broadcast indexes a stretched size-1 axis with the result coordinate instead of 0", false},
      {M::FusionIgnoresHazard, "fusion_ignores_hazard", "passes/fusion.cpp fuse_list",
       "fusion inlines a load past a statement that writes the loaded buffer (reads the new value)", false},
      {M::FusionFoldsRoundtripCast, "fusion_folds_roundtrip_cast", "passes/fusion.cpp Inliner",
       "fusion folds cast(cast(x, narrow), wide) to x: the fused value is recomputed in the wide dtype", false},
      {M::TaskTailDropped, "task_tail_dropped", "passes/task_partition.cpp partition_list",
       "the task count is n / block rounded down: the last, shorter block (the tail) never runs", false},
      {M::TaskPartitionCarried, "task_partition_carried", "passes/task_partition.cpp partition_list",
       "racy partition: a loop that carries state from row to row (not unique-writes) is split into tasks too", false},
      {M::LifetimeReuseEarly, "lifetime_reuse_early", "passes/lifetime.cpp place",
       "storage is reused by a buffer first written in the statement that last reads the old one", false},
      {M::FusionDropsFaults, "fusion_drops_faults", "passes/fusion.cpp fuse_list",
       "fusion inlines a value that can fault where it is read partly: the faults of the elements not read are lost", false},
      {M::ScanInclusiveFlipped, "scan_inclusive_flipped", "impl/fold_loops.cpp expand_scan",
       "scan stores before combining when inclusive and after when exclusive (inclusive/exclusive swapped)", false},
      {M::ReduceMaxIdentityZero, "reduce_max_identity_zero", "impl/fold_loops.cpp identity_of",
       "a recognized float max reduction starts from the 'known' identity +0 instead of the author's (-inf)", false},
      {M::SumStartsAtPositiveZero, "sum_starts_at_positive_zero", "impl/fold_loops.cpp sum_start",
       "float sums start at +0 instead of -0 (a sum of -0 terms gives +0)", false},
      {M::ContractAccumulatesF32, "contract_accumulates_f32", "impl/contract_loops.cpp expand_contract",
       "an f64 contraction accumulates in f32 and widens at the end", false},
      {M::ContractUnrolledNoTail, "contract_unrolled_no_tail", "impl/contract_loops.cpp expand_contract",
       "the innermost reduction is unrolled by 2 without a remainder loop (an odd extent drops its last term)",
       false},
      {M::HistogramZeroBinRejected, "histogram_zero_bin_rejected", "impl/format_impls.cpp expand_histogram",
       "the histogram's range test is 0 < v < bins: value 0 is out of range (a spurious fault)", false},
      {M::QuantizeTruncates, "quantize_truncates", "impl/format_impls.cpp nearest_int",
       "q8_K quantization truncates toward zero instead of rounding to nearest", false},
      {M::QdotMinAdded, "qdot_min_added", "impl/format_impls.cpp expand_qdot",
       "q4_K x q8_K dot adds the min correction dmin * sum(bsums * mins) instead of subtracting it", false},
      {M::FmaContraction, "fma_contraction", "provider/cpp_serializer.cpp Writer::expr",
       "add(mul(a, b), c) in f32/f64 is spelled as one fused multiply-add (-ffp-contract=fast)", false},
      {M::StridedViewAsUnit, "strided_view_as_unit", "provider/cpp_serializer.cpp Writer::offset",
       "the innermost axis of every view uses the unit-stride specialization, even a strided view's", false},
      {M::ViewOffsetIgnored, "view_offset_ignored", "provider/cpp_serializer.cpp Writer::function",
       "a view's data pointer ignores the view's element offset", false},
      {M::AtomicPlainRmw, "atomic_plain_rmw", "provider/cpp_serializer.cpp Writer::atomic",
       "atomic.rmw is a relaxed load, the operation and a plain store (not one indivisible update)", false},
      {M::AtomicWrongElement, "atomic_wrong_element", "provider/cpp_serializer.cpp Writer::atomic",
       "an atomic's address drops the index of its last axis (the update lands on the row's first element)",
       false},
      {M::RandomCounterOffByOne, "random_counter_off_by_one", "provider/cpp_serializer.cpp Writer::expr",
       "random bits are drawn at counter + 1 (the Philox counter is off by one)", false},
      {M::FaultRunsOn, "fault_runs_on", "provider/cpp_serializer.cpp check_status",
       "the generated code records the first fault and runs on to the end of the call", false},
      {M::CastRoundTowardZero, "cast_round_toward_zero", "rt/kir_rt.h detail::encode, f32_to_bf16",
       "casts to f16/bf16/fp8/e2m1 truncate toward zero instead of rounding to nearest even", true},
      {M::CastOverflowUnchecked, "cast_overflow_unchecked", "rt/kir_rt.h detail::encode",
       "a narrowing float cast skips its overflow rule (Inf, NaN or saturation) and keeps the wrapped code",
       true},
      {M::MinMaxNanDropped, "minmax_nan_dropped", "rt/kir_rt.h min_f32/max_f32/min_f64/max_f64",
       "float min/max return the non-NaN operand (fmin/fmax semantics) instead of NaN", true},
      {M::IntAddSaturates, "int_add_saturates", "rt/kir_rt.h add_wrap",
       "signed integer add saturates at the type's limits instead of wrapping", true},
      {M::ShiftAmountMasked, "shift_amount_masked", "rt/kir_rt.h shl_int/shr_int",
       "an out-of-range shift amount is masked to the width (x86 semantics) instead of faulting", true},
      {M::CmpLtUnordered, "cmp_lt_unordered", "rt/kir_rt.h lt_f32/lt_f64/gt_f32/gt_f64",
       "float lt/gt are computed as !(a >= b) / !(a <= b): true when an operand is NaN (unordered)", true},
      {M::AbsKeepsNegZero, "abs_keeps_neg_zero", "rt/kir_rt.h abs_f32/abs_f64",
       "float abs is a < 0 ? -a : a, so abs(-0) stays -0", true},
      {M::RemFloorSign, "rem_floor_sign", "rt/kir_rt.h rem_int",
       "signed integer rem takes the divisor's sign (floored modulo) instead of the dividend's", true},
      {M::EqBitwise, "eq_bitwise", "rt/kir_rt.h eq_f32/eq_f64/ne_f32/ne_f64",
       "float eq/ne compare bit patterns: -0 != +0 and a NaN equals itself", true},
      {M::I64ToFloatDoubleRounding, "i64_to_float_double_rounding", "rt/kir_rt.h cast (integer -> narrow float)",
       "a 64-bit integer cast to f16/bf16/fp8 rounds twice (through f64) instead of once", true},
      {M::FpEnvFlushDenormals, "fpenv_flush_denormals", "runtime/fp_env.cpp FpEnvGuard",
       "the call's floating-point environment sets FTZ/DAZ (subnormals flushed to zero)", false},
  };
  return all;
}
static_assert(static_cast<int>(MutantId::Count) <= 64, "one warning bit per mutant");

namespace {

std::string names_list() {
  std::string s;
  for (const auto& m : mutants()) s += std::string(s.empty() ? "" : ", ") + m.name;
  return s;
}

std::string upper(const char* s) {
  std::string u;
  for (; *s; ++s) u += static_cast<char>(std::toupper(static_cast<unsigned char>(*s)));
  return u;
}

}  // namespace

bool mutants_compiled_in() { return KIR_MUTANTS != 0; }

const MutantInfo* active_mutant() {
  const char* env = std::getenv("KIR_MUTANT");
  if (!env || !*env) return nullptr;
  if (!mutants_compiled_in())
    throw std::invalid_argument(std::string("KIR_MUTANT=") + env +
                                ": this kir was built without mutants (configure with -DKIR_MUTANTS=ON)");
  for (const auto& m : mutants()) {
    if (std::strcmp(m.name, env) != 0) continue;
    static std::atomic<uint64_t> warned{0};  // one bit per mutant
    const uint64_t bit = uint64_t{1} << static_cast<int>(m.id);
    if ((warned.fetch_or(bit) & bit) == 0)
      std::fprintf(stderr, "kir: warning: seeded mutant `%s` is active (KIR_MUTANT): the CPU backend is wrong on purpose\n",
                   m.name);
    return &m;
  }
  throw std::invalid_argument(std::string("KIR_MUTANT=") + env + " is not a mutant; the mutants are: " + names_list());
}

#if KIR_MUTANTS
bool mutant_active(MutantId id) {
  const MutantInfo* m = active_mutant();
  return m && m->id == id;
}
#endif

std::string mutant_key_material() {
  const MutantInfo* m = active_mutant();
  return m ? std::string("mutant=") + m->name + "\n" : std::string();
}

std::string mutant_defines() {
  const MutantInfo* m = active_mutant();
  if (!m || !m->header) return "";
  return "#define KIR_MUTANT_" + upper(m->name) + " 1\n";
}

}  // namespace kir::cpu
