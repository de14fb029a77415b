// Counter-based randomness (seed 000 §17): random.bits is word counter % 4 of Philox4x32-10 at
// block counter / 4 under key = seed; random.uniform converts those bits with the fixed
// conversion of numerics/philox.h. No dependence on point order or any hidden state.
#include "interp/engine.h"
#include "numerics/philox.h"

namespace kir::interp {
namespace {

Flow op_random(Engine& E, Frame& f, const Operation& op) {
  const uint64_t seed = E.operand(f, op, 0).scalar().bits;
  const Value& ctr = E.operand(f, op, 1);
  const bool uniform = op.name == "random.uniform";
  const DType out = uniform ? op.result()->type.dtype() : DType::U32;
  auto one = [&](uint64_t counter, const std::string& at) -> uint64_t {
    uint32_t bits = num::random_bits(seed, counter);
    if (!uniform) return bits;
    auto r = num::uniform(bits, out);
    if (!r) numeric_fail(op, static_cast<int>(r.status()), r.error().message, at);
    return r->bits;
  };
  auto counter_of = [&](Scalar s, const std::string& at) -> uint64_t {
    if (s.dtype == DType::Index && num::as_signed(s) < 0) fail(op, ErrorKind::InvalidValue, "negative logical counter", at);
    return s.bits;
  };
  if (ctr.is_scalar()) {
    E.set(f, op, 0, Scalar{out, one(counter_of(ctr.scalar(), ""), "")});
    return {};
  }
  const Tensor& t = ctr.tensor();
  Tensor o = make_tensor(out, t.shape);
  for (int64_t i = 0; i < t.size(); ++i) {
    std::string at = t.dtype == DType::Index && num::as_signed(t.at(i)) < 0 ? coord_str(unravel(i, t.shape)) : "";
    o.bits[static_cast<size_t>(i)] = one(counter_of(t.at(i), at), at);
  }
  E.set(f, op, 0, std::move(o));
  return {};
}

}  // namespace

void register_random_ops(HandlerTable& t) {
  t["random.bits"] = op_random;
  t["random.uniform"] = op_random;
}

}  // namespace kir::interp
