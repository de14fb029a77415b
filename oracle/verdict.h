// The oracle's verdict on one kernel invocation (issue 12 item 1): the backend's result against
// every result the numerics contract allows, element by element, with no atol/rtol anywhere.
// Every backend check goes through it: kir run --backend cpu and kir spec run --backend cpu
// (run_differential), intent.run(..., backend="cpu"), kir report, kir fuzz and kir tune.
//
// Rules, in the order they are tried for an output element:
//  - "bit-exact": the interpreter evaluates the contract sums in the order the backend's
//    implementations declare (accumulation=sequential); every other operation has one defined
//    result. Equal bits pass; NaN matches NaN of any payload (payloads are unspecified); +0 and
//    -0 differ.
//  - "reassociation envelope": a mismatching element of an output that is a reduce/scan/contract
//    result stored unchanged (its values equal that op's canonical result element for element)
//    passes when the backend's value lies inside the op's reassociation envelope (EnvelopeLog).
//  - "atomic interleaving": for kernels with atomics (atomic.*, scatter_reduce).
//    * When no value of the run depends on the interleaving — no atomic's result is used, and
//      every view an atomic writes is a kernel parameter nothing else reads or writes (`dim` of it
//      aside) — each such output is judged on its own. Written only by atomic.rmw of one
//      commuting kind (add, min, max; and, or, xor on integers), its legal final values are the
//      combinations of each element's initial value and its atomics' operands in every order.
//      Float add: inside the reassociation envelope of that sum (numerics/envelope.h: the adds
//      in any order and parenthesization; the interpreter hands the operands over,
//      Options::on_atomic_rmw), "any order of the atomic adds". Float min/max (NaN-propagating,
//      -0 < +0) and every integer kind (wrapping add) give one result in any order: bit-exact.
//      Written by other atomics (stores, scatter_reduce, mixed kinds): exactly what one schedule
//      the interpreter reaches (see below) leaves in that output. The kernel's other outputs do
//      not depend on the interleaving and are judged as without atomics.
//    * Otherwise the outputs pass when one interleaving the interpreter can reach
//      (atomics=interleaved:S, several seeds, canonical, reverse and shuffled point orders)
//      produces exactly the backend's bits in every output at once ("schedule 3 of 6"). Only the
//      schedules tried are known: a legal outcome none of them reaches is reported, with this
//      rule, for a person to judge (JudgeOptions::interleavings raises the count).
//  - "error agreement": when the interpreter reports an error the backend must report one too,
//    and vice versa ("missed error" / "spurious error"); when both do, the same fault: the same
//    kind (fault.h: "division-by-zero", "out-of-bounds", ...) at the same first coordinate (the
//    parallel points and loop iterations, then the element). Where the language leaves the order
//    free (the points of a parallel, atomics, region segmentations), a backend fault passes when
//    the interpreter reaches it under one of a few other legal policies (parallel=reverse,
//    parallel=shuffle:1..3, atomics=interleaved:1..2, region=element, region=random:1, each
//    tried only when the kernel has such ops); otherwise it is "wrong" under this rule with both
//    faults in the detail. An interpreter that stopped at a limit (or on a case it does not
//    evaluate) knows no first fault: any backend error agrees with it.
// A form the backend does not implement is "unsupported", never a finding.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "backends/cpu/driver/compiler.h"
#include "interp/envelope_log.h"
#include "interp/interpreter.h"
#include "oracle/fault.h"

namespace kir::oracle {

// InvalidProgram: a generated program the verifier rejects (a generator bug, not a backend one).
enum class Outcome { Pass, Wrong, MissedError, SpuriousError, Unsupported, Crash, Timeout, InvalidProgram };
const char* outcome_name(Outcome o);  // "pass", "wrong", "missed-error", ...

struct ElementDiff {
  std::string output;           // the Out/InOut view
  std::vector<int64_t> coord;
  std::string got, expected;    // backend, interpreter (the declared order)
  std::string allowed;          // the allowed set in words ("exactly 1.5", "[1.25, 1.75]", ...)
};

struct Verdict {
  Outcome outcome = Outcome::Pass;
  std::string rule;       // the rule that decided (see above)
  std::string rule_detail;  // how it decided: "schedule 3 of 6", "both report division-by-zero at (3)", ...
  std::string op;         // the op responsible as far as the oracle can tell ("mul", "reduce", ...)
  std::string location;   // its file:line:col
  std::string dtype;      // of the output concerned
  std::string detail;     // errors, or a summary line
  int64_t compared = 0;   // output elements compared
  int64_t wrong = 0;      // elements outside the allowed set
  int64_t accepted = 0;   // elements that differ from the declared order's bits but are allowed
  std::vector<ElementDiff> diffs;  // the first few wrong elements
  Fault interp_fault, backend_fault;  // the faults of the interpreter's and the judged run (empty: none)
  bool failed() const { return outcome != Outcome::Pass && outcome != Outcome::Unsupported; }
  // What de-duplicates findings: outcome, rule, op and dtype.
  std::string signature() const;
  std::string str() const;  // human-readable, one line per diff
  // One line naming the rule that passed or failed, as the commands print it after "check: ":
  // "pass (bit-exact): 128 elements bit-identical to the interpreter",
  // "pass (atomic interleaving: schedule 3 of 6): ...", "FAIL (reassociation envelope): wrong, 2
  // of 64 elements outside the allowed set".
  std::string summary() const;
};

struct JudgeOptions {
  int interleavings = 6;  // schedules tried for kernels with atomics
  // judge_compiling: optional backend passes left out (cpu::CompileOptions::skip_passes).
  std::vector<std::string> skip_passes;
  // The orders the backend's implementations declare, per op location (contract accumulation,
  // reduce lanes, scan blocks: declared_order_options(program)); judge() fills it from the
  // native kernel, and the interpreter runs under it (sequential accumulation elsewhere).
  interp::Options declared = [] {
    interp::Options d;
    d.accumulation = interp::AccumulationOrder::Sequential;
    return d;
  }();
};

// Runs kernel `name` on the interpreter and on `native` (built from compile_for_args with the
// same arguments) and judges the backend's outputs. `args` is not modified; the backend's and
// the interpreter's outputs are returned through `got` / `expected` when given.
Verdict judge(const Module& m, const std::string& name, const std::map<std::string, interp::KernelArg>& args,
              const cpu::NativeKernel& native, const JudgeOptions& o = {},
              std::map<std::string, interp::KernelArg>* got = nullptr,
              std::map<std::string, interp::KernelArg>* expected = nullptr);

// The judgement alone, of results obtained elsewhere: `results` are the arguments after the
// run being judged (Out/InOut views hold its outputs), `error` its fault (empty if none).
// judge() is call_on_backend + judge_result; property tests feed it the interpreter's results
// under other legal policies.
Verdict judge_result(const Module& m, const std::string& name, const std::map<std::string, interp::KernelArg>& args,
                     const std::map<std::string, interp::KernelArg>& results, const Fault& error,
                     const JudgeOptions& o = {}, std::map<std::string, interp::KernelArg>* expected = nullptr);
// The same with the error as a printed message ("" if none), parsed by fault_from_message.
Verdict judge_result(const Module& m, const std::string& name, const std::map<std::string, interp::KernelArg>& args,
                     const std::map<std::string, interp::KernelArg>& results, const std::string& error,
                     const JudgeOptions& o = {}, std::map<std::string, interp::KernelArg>* expected = nullptr);

// Compile-and-judge for one program (no batching): a compile error that says "not implemented"
// is Unsupported; any other compile error is a SpuriousError finding.
Verdict judge_compiling(const Module& m, const std::string& name, const std::map<std::string, interp::KernelArg>& args,
                        const JudgeOptions& o = {}, std::map<std::string, interp::KernelArg>* got = nullptr,
                        std::map<std::string, interp::KernelArg>* expected = nullptr);

// The verdict of a kernel the backend cannot compile: Unsupported (rule "not implemented") when
// the message says so, else a spurious error (rule "compile error"); the message is the detail.
Verdict compile_failure_verdict(const std::string& what);

// Whether two element bit patterns of dtype d are the same result (NaN any payload).
bool same_result(DType d, uint64_t a, uint64_t b);

// The component of a canonical run's envelope log whose canonical values are exactly `canon`'s
// elements (same dtype and count): the output is that reduce/scan/contract result stored
// unchanged, so its reassociation envelope applies element by element. nullptr when none.
const interp::EnvelopeComponent* stored_component(const interp::EnvelopeLog& log, const interp::HostView& canon);

}  // namespace kir::oracle
