// Index relations for reads of a tensor or view of shape S: identity, transposed, one axis
// reversed, strided (a domain with a step), a constant window (subregion), data-dependent
// coordinates (wrapped or clamped, masked where they may be out of range), or one element.
// Every coordinate of an active lane is in range at the case's extents.
#pragma once
#include <string>

#include "fuzz/gen/context.h"
#include "fuzz/gen/rng.h"

namespace kir::fuzz {

struct ReadAccess {
  std::string rel;     // the relation value
  Shape shape;         // its result shape (the block read)
  bool masked = false;
  bool scalar = false;  // result shape [] (a scalar is read)
  std::string variant;  // coverage name ("index.reverse", ...)
};

ReadAccess read_relation(Ctx& c, FnBuilder& fb, Rng& r, const Shape& s);

// The block type a read of dtype d through `a` produces, and its op suffix (", fill").
// A relation over shape s that reaches every element once: identity, or one axis reversed.
std::string covering_relation(Ctx& c, FnBuilder& fb, Rng& r, const Shape& s, std::string* variant = nullptr);
// index[e]: e-1, e-2, ..., 0.
std::string reversed_index(Ctx& c, FnBuilder& fb, const Ext& e);

VType block_type(DType d, const ReadAccess& a);
std::string fill_operand(FnBuilder& fb, Rng& r, DType d, const ReadAccess& a);

}  // namespace kir::fuzz
