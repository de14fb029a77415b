// The error statistics of one output of one case (kir report, docs/report.md): every element of
// the backend's result against the exact result, in ulps of the output dtype (integers: the
// absolute difference), and against what the numerics contract allows for it:
//  - "envelope": the output is a reduce/scan/contract result stored unchanged; the exact value is
//    the exact sum rounded once and the allowed distance is the element's reassociation envelope;
//  - "declared-order": the output depends on a sum the backend evaluates in its declared order
//    (the interpreter under that order differs from the canonical run); the contract allows the
//    backend exactly the declared-order result, and its distance from the exact one is reported;
//  - "exact": one result is defined; the allowed distance is 0.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "interp/envelope_log.h"
#include "interp/interpreter.h"

namespace kir::report {

struct OutputRun {
  std::string name;
  const interp::HostView* got = nullptr;       // the backend's result
  const interp::HostView* exact = nullptr;     // the interpreter's canonical run
  const interp::HostView* declared = nullptr;  // the interpreter under the backend's declared orders
  const interp::EnvelopeComponent* envelope = nullptr;  // oracle::stored_component of `exact`
  bool legal_schedule = false;  // the oracle accepted the outputs as one atomic interleaving
};

// The schema's `output` object. Elements never written in the canonical run are left out.
nlohmann::json measure_output(const OutputRun& r);

// The exact value of element `e` of an output (the envelope's exact sum when there is one).
uint64_t exact_bits(const OutputRun& r, size_t e);

// The distance in ulps between two elements of dtype d (integers: |a - b|); +Inf when exactly one
// is NaN.
double element_distance(DType d, uint64_t a, uint64_t b);

}  // namespace kir::report
