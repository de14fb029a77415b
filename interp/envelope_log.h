// The envelope log (issue 4 item 3; seed 000 §7, §8, §10-§12; checklist L7.3): the interpreter evaluates
// reduce / scan / contract canonically, but the language lets a compiler reassociate them. When
// Options::envelopes points at an EnvelopeLog, every executed reduce, scan, contract,
// scaled_contract, sparse_contract and quantized_dot adds one record saying, per result element,
// what ANY legal evaluation may return: the canonical value is the only one ("unique": integer,
// bool, min/max and other exactly associative combines; quantized_dot's fixed order), or any value
// in the reassociation envelope of numerics/envelope.h ("envelope": floating sums), or only the
// canonical left fold is defined ("canonical-only": a combine that is neither, e.g. a floating
// multiply). The oracle checks a backend's results against the log with check().
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "interp/value.h"
#include "numerics/envelope.h"

namespace kir {
class Operation;
}

namespace kir::interp {

enum class Uniqueness { Unique, Envelope, CanonicalOnly };
const char* uniqueness_name(Uniqueness u);  // "unique", "envelope", "canonical-only"

// One result element. `env` is the numerics envelope for Envelope components; for Unique and
// CanonicalOnly it is the degenerate envelope {canonical, bound 0}.
struct ElementEnvelope {
  uint64_t canonical = 0;     // bits of the canonical result (Scalar::bits layout of the dtype)
  num::Envelope env{};
  bool any_zero_sign = false;  // every term is -0 but the identity is +0: either zero is legal
  bool inside = true;          // the canonical value is accepted (always true, or the log is wrong)
};

// One leaf of the result (the whole result, or one tuple/record component of it).
struct EnvelopeComponent {
  std::string path;  // "" for a tensor/scalar result, ".0" / ".field" (nested: ".1.x") for components
  DType dtype = DType::F32;
  Shape shape;       // empty for a scalar
  Uniqueness kind = Uniqueness::CanonicalOnly;
  std::string reason;  // why this kind (which combine, or why no envelope applies)
  std::vector<ElementEnvelope> elements;  // row-major
};

struct EnvelopeRecord {
  const Operation* op = nullptr;
  std::string location, op_name, result_name;
  std::vector<EnvelopeComponent> components;
  int64_t elements() const;        // over every component
  bool canonical_inside() const;   // every element's canonical value is accepted
  // Largest bound in ulps of the accumulator dtype (at the exact rounded value) over the finite
  // Envelope elements; 0 when there are none, +Inf when some bound is unbounded.
  double max_bound_ulps() const;
  std::string kinds() const;       // the component kinds, e.g. "envelope" or "envelope,unique"
};

class EnvelopeLog {
 public:
  std::vector<EnvelopeRecord> records;  // in execution order

  // Whether `bits` (a value of the component's dtype) is a legal result of element `element` of
  // component `component` of record `record`: inside the envelope (Envelope), or equal to the
  // canonical value, NaN matching any NaN (Unique, CanonicalOnly; for CanonicalOnly a mismatch
  // only means the result is not the canonical left fold). Out-of-range indices throw
  // std::out_of_range.
  bool check(size_t record, int64_t element, uint64_t bits, size_t component = 0) const;
  // The same for a value given as a double (exact in the dtype; integers up to 2^53).
  bool check_value(size_t record, int64_t element, double value, size_t component = 0) const;
  // One line per record: "LOC: OP %r: N elements, KIND, max bound X ulp (DTYPE), canonical inside
  // envelope: yes".
  std::string line(size_t record) const;
  void clear() { records.clear(); }
};

// Whether `bits` is accepted for element `e` of a component of dtype `d` and kind `k`.
bool accepts(const ElementEnvelope& e, Uniqueness k, DType d, uint64_t bits);

// ---- interpreter-internal hooks (called at the end of the op handlers when a log is set) ----
class Engine;
struct Frame;
// reduce, scan, contract, scaled_contract, quantized_dot: operands and the result from the frame.
void log_envelopes(Engine& E, Frame& f, const Operation& op);
// sparse_contract: the decompressed lhs and the mask of its kept positions.
void log_sparse_envelopes(Engine& E, Frame& f, const Operation& op, const Tensor& dense, const Tensor& rhs,
                          const std::vector<uint8_t>& mask);

}  // namespace kir::interp
