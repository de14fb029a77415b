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
      {M::PackedAFirstKcLen, "packed_a_first_kc_len", "impl/contract_packed.cpp expand_packed (A's pack kernel)",
       "A is packed with the first K block's depth min(KC, K) on every K block: the last, shorter block's micro-panels land at the wrong offsets", false},
      {M::PackedBPanelOffsetFirstKc, "packed_b_panel_offset_first_kc", "impl/contract_packed.cpp expand_packed (micro-kernel call)",
       "the micro-kernel finds B's micro-panel jr at jr * min(KC, K), the first K block's depth, also in the last, shorter block", false},
      {M::PackedFirstFlagLastBlock, "packed_first_flag_last_block", "impl/contract_packed.cpp expand_packed (micro-kernel call)",
       "the micro-kernel's `first` flag tests the last K block (pc + kc == K) instead of pc == 0: with K > KC the earlier blocks are lost", false},
      {M::PackedTaskRowsRoundDown, "packed_task_rows_round_down", "impl/contract_packed.cpp expand_packed (task tiles)",
       "the number of task tiles along M is M / task_rows rounded down: the last, shorter row tile never runs", false},
      {M::PackedTaskColsRoundDown, "packed_task_cols_round_down", "impl/contract_packed.cpp expand_packed (task tiles)",
       "the number of task tiles along N is N / task_cols rounded down: the last, shorter column tile never runs", false},
      {M::PackedI8ColTermSign, "packed_i8_col_term_sign", "impl/contract_packed.cpp expand_packed (VNNI terms)",
       "the i8 x i8 column terms are +oa * sum_k b instead of -oa * sum_k b (the VNNI offset correction has the wrong sign)", false},
      {M::PackedI8RowTermSign, "packed_i8_row_term_sign", "impl/contract_packed.cpp expand_packed (VNNI terms)",
       "the u8 x u8 row terms are +ob * sum_k a instead of -ob * sum_k a (the VNNI offset correction has the wrong sign)", false},
      {M::PackedI8GroupsRoundDown, "packed_i8_groups_round_down", "impl/contract_packed.cpp expand_packed (kcp)",
       "the i8 micro-panel depth kcp rounds kc down to whole groups of four: with kc % 4 != 0 the micro-panels overlap", false},
      {M::PackedBf16PadPositiveZero, "packed_bf16_pad_positive_zero", "impl/contract_packed.cpp expand_packed (bf16 pad)",
       "an odd K's bf16 pad pair is +0 in A too: its product +0 turns a -0 sum into +0", false},
      {M::PackedEpilogueBeforeLastKc, "packed_epilogue_before_last_kc", "impl/contract_packed.cpp expand_packed (block epilogue)",
       "the block epilogue runs after the first K block (pc == 0) instead of the last: with K > KC later blocks accumulate onto its output", false},
      {M::PackedGemvDropsEpilogue, "packed_gemv_drops_epilogue", "impl/contract_packed.cpp expand_packed (gemv path)",
       "the gemv path (tiles of at most four rows) stores the product without applying the fused epilogue", false},
      {M::PackedNoTermsDropsEpilogue, "packed_no_terms_drops_epilogue", "impl/contract_packed.cpp expand_packed (K = 0 path)",
       "with no terms (K = 0) the zero result is stored without applying the fused epilogue", false},
      {M::PackedEpilogueAtTileOrigin, "packed_epilogue_at_tile_origin", "impl/contract_packed.cpp expand_packed (block epilogue)",
       "the MC x NC block epilogue starts at the task tile's origin (m0, n0) instead of the block's (ic, jc)", false},
      {M::SparseKeptKNoGroupBase, "sparse_kept_k_no_group_base", "impl/sparse_packed.cpp pack_kept",
       "a kept term's k within the block is its metadata position alone, without its group's start (t / keep) * group", false},
      {M::ScaledGuardBoundOffByOne, "scaled_guard_bound_off_by_one", "impl/scaled_packed.cpp scan",
       "the overflow guard flags scale bytes > 255 - E instead of >= 255 - E: the first overflowing scale takes the f32 fast path", false},
      {M::EpilogueIgnoresLaterReads, "epilogue_ignores_later_reads", "passes/epilogue.cpp find_epilogue",
       "the epilogue is fused although a statement after it reads the contract's result (never written then: the CPU IR verifier rejects the legal program)", false},
      {M::EpilogueFusesFaults, "epilogue_fuses_faults", "passes/epilogue.cpp epilogue_of",
       "a Compute that can fault is fused as an epilogue: its faults come block by block, not in the element order", false},
      {M::RowFusionEitherRowOnly, "row_fusion_either_row_only", "passes/row_fusion.cpp may_fuse",
       "two nests sharing a written buffer fuse when either (not both) accesses it only in the current row", false},
      {M::RowFusionFusesFaults, "row_fusion_fuses_faults", "passes/row_fusion.cpp scan_expr",
       "nests whose expressions can fault are fused: a later nest's fault comes before an earlier nest's later rows", false},
      {M::ReduceLanesLaneZeroTwice, "reduce_lanes_lane_zero_twice", "impl/fold_loops.cpp expand_reduce_lanes",
       "the fold of a block's lanes starts at lane 0 although part already holds lane 0 (lane 0 counted twice)", false},
      {M::ReduceLanesBlocksRoundDown, "reduce_lanes_blocks_round_down", "impl/fold_loops.cpp expand_reduce_lanes",
       "the block count is n / C rounded down: the last, shorter block is never reduced", false},
      {M::ReduceLanesTailLaneShift, "reduce_lanes_tail_lane_shift", "impl/fold_loops.cpp expand_reduce_lanes",
       "the tail's point j updates lane j + 1 instead of j (in a block shorter than L the last point is never folded)", false},
      {M::ScanBlocksPrefixOwnTotal, "scan_blocks_prefix_own_total", "impl/fold_loops.cpp expand_scan_blocks",
       "the prefix of block b folds in total[b] (its own) instead of total[b - 1]", false},
      {M::ScanBlocksExclusiveFirstByPosition, "scan_blocks_exclusive_first_by_position", "impl/fold_loops.cpp expand_scan_blocks",
       "an exclusive block's first value is recognized by the point's position p == lo, not its scan-order index (wrong in reverse)", false},
      {M::ScanBlocksRoundDown, "scan_blocks_round_down", "impl/fold_loops.cpp expand_scan_blocks",
       "the block count is n / C rounded down: the last, shorter block is never scanned", false},
      {M::RegionFoldBlockZeroTwice, "region_fold_block_zero_twice", "construct/ops_region.cpp fold_blocks",
       "the loop over the further whole blocks starts at block 0, which is already the accumulator (combined twice)", false},
      {M::RegionFoldTwoBlocksBound, "region_fold_two_blocks_bound", "construct/ops_region.cpp fold_blocks",
       "a constant source of exactly 2B rows skips the loop over the further blocks (n > 2B instead of n >= 2B): block 1 is lost", false},
      {M::UkGemvColumnBlockOffset, "uk_gemv_column_block_offset", "rt/kir_uk.h gemv",
       "gemv stores every column block at column 0: the block offset j0 is dropped (n > 1024)", true},
      {M::UkGemvStridedBAsUnit, "uk_gemv_strided_b_as_unit", "rt/kir_uk.h gemv",
       "gemv reads a strided row of B as unit stride (the column stride sbn is dropped)", true},
      {M::UkGemmStridedCReloadAsUnit, "uk_gemm_strided_c_reload_as_unit", "rt/kir_uk.h gemm_simd",
       "a tile of a C with column stride != 1 is reloaded for the next K block as if unit stride (cs dropped)", true},
      {M::UkPackBf16OddTailDropped, "uk_pack_bf16_odd_tail_dropped", "rt/kir_uk.h pack_bf16",
       "an odd kc's last k is replaced by the pad (2g + 1 < kc instead of 2g < kc)", true},
      {M::UkBf16ExactRangeBound, "uk_bf16_exact_range_bound", "rt/kir_uk.h bf16_exact_ranges",
       "vdpbf16ps is taken for exponent sums >= 126 instead of >= 142: subnormal products are flushed", true},
      {M::UkBgemmFallbackEvenFirst, "uk_bgemm_fallback_even_first", "rt/kir_uk.h bgemm_avx512 (fma path)",
       "the bf16 fma fallback takes each pair's even element first instead of the odd one", true},
      {M::QdotDminFromD, "qdot_dmin_from_d", "rt/kir_uk_qdot.h qdot_q4k_q8k",
       "the min correction's scale dmin is read from x.d instead of x.dmin", true},
      {M::QdotScaleHighBitsShift, "qdot_scale_high_bits_shift", "rt/kir_uk_qdot.h scales_mins",
       "the high two bits of scales 4..7 come from bits 4..5 of bytes 0..3 instead of bits 6..7", true},
      {M::QdotLaneSumReversed, "qdot_lane_sum_reversed", "rt/kir_uk_qdot.h qdot_q4k_q8k",
       "the eight f32 lanes are added to sumf from lane 7 down instead of lane 0 up (the reference's order)", true},
      {M::VmathTanhEarlySaturation, "vmath_tanh_early_saturation", "rt/kir_vmath.h tanh_f32",
       "tanh saturates to +-1 from |x| >= 8.7 instead of 9.1 (tanh(8.8) rounds to 1 - 2^-24, not 1)", true},
      {M::VmathExpCoeffTruncated, "vmath_exp_coeff_truncated", "rt/kir_vmath.h exp_poly",
       "the x^3 coefficient 1/6 of exp's polynomial is truncated to 0x1.5555p-3", true},
      {M::VmathExpEarlyOverflow, "vmath_exp_early_overflow", "rt/kir_vmath.h exp_f32",
       "exp overflows to +Inf from x > 88 instead of 89 (e^88.5 is finite in f32)", true},
      {M::VmathErfEarlySaturation, "vmath_erf_early_saturation", "rt/kir_vmath.h erf_f32",
       "erf saturates to +-1 from |x| >= 3.5 instead of 4", true},
      {M::VmathLog1pMinusOneNan, "vmath_log1p_minus_one_nan", "rt/kir_vmath.h log1p_f32",
       "log1p's NaN range is x >= -1 in bits (u >= 0xbf800000): log1p(-1) gives NaN instead of -Inf", true},
      {M::VmathSinLosesNegZero, "vmath_sin_loses_neg_zero", "rt/kir_vmath.h sin_f32",
       "sin(+-0) is not given back as the input: sin(-0) = +0", true},
      {M::VmathExp2EarlyUnderflow, "vmath_exp2_early_underflow", "rt/kir_vmath.h exp2_f32",
       "exp2 flushes to +0 below -150 instead of -151 (2^-150.5 rounds to 2^-149)", true},
      {M::VmathCosQuadrantMinus, "vmath_cos_quadrant_minus", "rt/kir_vmath.h sincos_f32",
       "cos takes quadrant n - 1 instead of n + 1 (sin(x - pi/2) = -cos x: every cos has the wrong sign)", true},
      {M::VmathExpLn2LowDropped, "vmath_exp_ln2_low_dropped", "rt/kir_vmath.h exp_core",
       "exp's argument reduction drops the low part of ln2 (r = x - n ln2_hi): results off by up to 2^-25 relative", true},
  };
  return all;
}
static_assert(static_cast<int>(MutantId::Count) <= 128, "one warning bit per mutant");

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
    static std::atomic<uint64_t> warned[2] = {0, 0};  // one bit per mutant
    const int id = static_cast<int>(m.id);
    const uint64_t bit = uint64_t{1} << (id % 64);
    if ((warned[id / 64].fetch_or(bit) & bit) == 0)
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
