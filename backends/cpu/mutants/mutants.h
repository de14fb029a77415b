// Seeded semantic mutants of the CPU backend (mutation score; docs/fuzzing.md "Mutation score").
// Each mutant is one plausible compiler bug placed at a real site of the pipeline —
// construction, a pass, an implementation, the serializer, a runtime header (through a #define
// the serializer writes before the includes) or the host runtime. They are compiled in when the
// build has KIR_MUTANTS=ON (the default: a site costs one check while compiling a kernel, and
// nothing at all unless a mutant is selected) and selected at run time by the environment
// variable KIR_MUTANT=<name>. The active mutant's name is part of every program's cache key
// material, so an object built without it is never reused with it (and the other way round).
// The differential campaign should find every one of them: the share it finds is the
// campaign's mutation score (scripts/mutation-score.sh).
#pragma once
#include <string>
#include <vector>

namespace kir::cpu {

enum class MutantId {
  // construction (construct/)
  TransposeInversePerm,
  SelectSwapped,
  MaskedLoadReadsInactive,
  MaskedStoreWritesInactive,
  BroadcastNoStretch,
  // passes (passes/)
  FusionIgnoresHazard,
  FusionFoldsRoundtripCast,
  TaskTailDropped,
  TaskPartitionCarried,
  LifetimeReuseEarly,
  FusionDropsFaults,
  // implementations (impl/)
  ScanInclusiveFlipped,
  ReduceMaxIdentityZero,
  SumStartsAtPositiveZero,
  ContractAccumulatesF32,
  ContractUnrolledNoTail,
  HistogramZeroBinRejected,
  QuantizeTruncates,
  QdotMinAdded,
  // serializer (provider/cpp_serializer.cpp)
  FmaContraction,
  StridedViewAsUnit,
  ViewOffsetIgnored,
  AtomicPlainRmw,
  AtomicWrongElement,
  RandomCounterOffByOne,
  FaultRunsOn,
  // runtime headers (rt/kir_rt.h, through #define KIR_MUTANT_<NAME>)
  CastRoundTowardZero,
  CastOverflowUnchecked,
  MinMaxNanDropped,
  IntAddSaturates,
  ShiftAmountMasked,
  CmpLtUnordered,
  AbsKeepsNegZero,
  RemFloorSign,
  EqBitwise,
  I64ToFloatDoubleRounding,
  // host runtime (runtime/)
  FpEnvFlushDenormals,
  // packed contract (impl/contract_packed.cpp): blocks, task tiles, VNNI/bf16 packing, epilogues
  PackedAFirstKcLen,
  PackedBPanelOffsetFirstKc,
  PackedFirstFlagLastBlock,
  PackedTaskRowsRoundDown,
  PackedTaskColsRoundDown,
  PackedI8ColTermSign,
  PackedI8RowTermSign,
  PackedI8GroupsRoundDown,
  PackedBf16PadPositiveZero,
  PackedEpilogueBeforeLastKc,
  PackedGemvDropsEpilogue,
  PackedNoTermsDropsEpilogue,
  PackedEpilogueAtTileOrigin,
  SparseKeptKNoGroupBase,
  ScaledGuardBoundOffByOne,
  // epilogue and row fusion passes (passes/)
  EpilogueIgnoresLaterReads,
  EpilogueFusesFaults,
  RowFusionEitherRowOnly,
  RowFusionFusesFaults,
  // reduce.lanes / scan.blocks (impl/fold_loops.cpp), region blocks (construct/ops_region.cpp)
  ReduceLanesLaneZeroTwice,
  ReduceLanesBlocksRoundDown,
  ReduceLanesTailLaneShift,
  ScanBlocksPrefixOwnTotal,
  ScanBlocksExclusiveFirstByPosition,
  ScanBlocksRoundDown,
  RegionFoldBlockZeroTwice,
  RegionFoldTwoBlocksBound,
  // micro-kernels and packing (rt/kir_uk.h, rt/kir_uk_qdot.h, through #define KIR_MUTANT_<NAME>)
  UkGemvColumnBlockOffset,
  UkGemvStridedBAsUnit,
  UkGemmStridedCReloadAsUnit,
  UkPackBf16OddTailDropped,
  UkBf16ExactRangeBound,
  UkBgemmFallbackEvenFirst,
  QdotDminFromD,
  QdotScaleHighBitsShift,
  QdotLaneSumReversed,
  // vector math (rt/kir_vmath.h, through #define KIR_MUTANT_<NAME>)
  VmathTanhEarlySaturation,
  VmathExpCoeffTruncated,
  VmathExpEarlyOverflow,
  VmathErfEarlySaturation,
  VmathLog1pMinusOneNan,
  VmathSinLosesNegZero,
  VmathExp2EarlyUnderflow,
  VmathCosQuadrantMinus,
  VmathExpLn2LowDropped,
  Count
};

struct MutantInfo {
  MutantId id;
  const char* name;   // the KIR_MUTANT value
  const char* where;  // file (and function) of the site
  const char* bug;    // the plausible compiler bug it models, in one line
  bool header;        // a runtime-header mutant: the serializer #defines KIR_MUTANT_<NAME>
};

// Every mutant, in MutantId order (whether or not this build compiled them in).
const std::vector<MutantInfo>& mutants();

// Whether this build has the mutant sites (CMake option KIR_MUTANTS).
bool mutants_compiled_in();

// The mutant $KIR_MUTANT selects (read at every call, so a test may setenv between compiles),
// nullptr when it is unset or empty. Throws std::invalid_argument for an unknown name (the
// message lists the names) or when the build has no mutants. Prints one warning line on
// stderr the first time a given mutant is seen active in the process.
const MutantInfo* active_mutant();

// Whether mutant `id` is the active one. Inside the backend (which is compiled with
// KIR_MUTANTS=0 or 1) an OFF build sees a constant false, so its sites compile to nothing.
#if defined(KIR_MUTANTS) && !KIR_MUTANTS
constexpr bool mutant_active(MutantId) { return false; }
#else
bool mutant_active(MutantId id);
#endif

// Cache key material of the active mutant ("" when none).
std::string mutant_key_material();
// The #define lines a runtime-header mutant needs before the runtime headers ("" otherwise).
std::string mutant_defines();

}  // namespace kir::cpu
