// Conflict detection between the points of a `parallel` (issue 4 item 2, checklist L5.1): every
// plain view/buffer load and store executed inside a parallel is recorded per element against each
// executing parallel (innermost first, so a nested parallel reports its own points and the
// accesses count for the enclosing point of every outer parallel). A write by one point and a
// write or read of the same element by another point is an error naming the op, both points, the
// element and the source locations. Atomic accesses (atomic ops, and each element update of
// scatter_reduce) are recorded in a second map of the tracker: atomic with atomic is the legal way
// for points to combine, but an atomic update by one point and a plain read or write of the same
// element by another (or an atomic load and a plain write) is a conflict too: the language orders
// atomics only among themselves, so the outcome would depend on the schedule. Cost: one hash-map
// update per touched element and level (plus one empty() check while no atomic ran).
#include "interp/engine.h"

namespace kir::interp {
namespace {

std::string point_str(int64_t p) { return coord_str(Shape{p}); }

std::string other_site(const Operation* other, const Operation& op, const char* verb) {
  if (!other || other == &op) return "";
  return " (the " + std::string(verb) + " is op '" + other->name + "' at " + other->loc.str() + ")";
}

// Remembers point p (op `op`) in a two-slot set of distinct points (two suffice: a later
// conflicting point differs from at least one of them).
void remember(int64_t (&pts)[2], const Operation* (&ops)[2], int64_t p, const Operation& op) {
  if (pts[0] == ParallelAccess::kNone) {
    pts[0] = p;
    ops[0] = &op;
  } else if (pts[0] != p && pts[1] == ParallelAccess::kNone) {
    pts[1] = p;
    ops[1] = &op;
  }
}

const char* kMixed = "; atomic and plain accesses of one element by different points are unordered";

}  // namespace

void Engine::note_access_slow(const Operation& op, const ViewV& v, int64_t idx, const Shape& elem, bool write) {
  // Message parts are built only on a conflict: the common path is one hash-map update per level.
  auto what = [&] { return (v.is_buffer ? "buffer %" : "view %") + v.name + " element " + coord_str(elem); };
  for (size_t level = parallels.size(); level-- > 0;) {
    ParallelTracker& t = *parallels[level];
    const int64_t p = t.point;
    ParallelAccess& a = t.acc[{v.storage->serial, idx}];
    auto par = [&] { return " of the parallel at " + t.op->loc.str(); };
    if (a.writer != ParallelAccess::kNone && a.writer != p) {
      if (write)
        fail(op, ErrorKind::ParallelConflict,
             "points " + point_str(a.writer) + " and " + point_str(p) + par() + " both write " + what() +
                 other_site(a.wop, op, "first write"));
      fail(op, ErrorKind::ParallelConflict,
           "point " + point_str(a.writer) + " writes and point " + point_str(p) + " reads " + what() + par() +
               other_site(a.wop, op, "write"));
    }
    if (write) {
      for (int i = 0; i < 2; ++i)
        if (a.reader[i] != ParallelAccess::kNone && a.reader[i] != p)
          fail(op, ErrorKind::ParallelConflict,
               "point " + point_str(a.reader[i]) + " reads and point " + point_str(p) + " writes " + what() + par() +
                   other_site(a.rop[i], op, "read"));
    }
    if (!t.atomic.empty()) {
      auto it = t.atomic.find({v.storage->serial, idx});
      if (it != t.atomic.end()) {
        const ParallelAtomic& x = it->second;
        const char* plain = write ? " plainly writes " : " plainly reads ";
        for (int i = 0; i < 2; ++i)
          if (x.updater[i] != ParallelAccess::kNone && x.updater[i] != p)
            fail(op, ErrorKind::ParallelConflict,
                 "point " + point_str(x.updater[i]) + " atomically updates and point " + point_str(p) + plain + what() +
                     par() + other_site(x.uop[i], op, "atomic update") + kMixed);
        for (int i = 0; write && i < 2; ++i)
          if (x.loader[i] != ParallelAccess::kNone && x.loader[i] != p)
            fail(op, ErrorKind::ParallelConflict,
                 "point " + point_str(x.loader[i]) + " atomically loads and point " + point_str(p) + plain + what() +
                     par() + other_site(x.lop[i], op, "atomic load") + kMixed);
      }
    }
    if (write) {
      a.writer = p;
      a.wop = &op;
    } else {
      remember(a.reader, a.rop, p, op);
    }
  }
}

void Engine::note_atomic_slow(const Operation& op, const ViewV& v, int64_t idx, const Shape& elem, bool update) {
  auto what = [&] { return (v.is_buffer ? "buffer %" : "view %") + v.name + " element " + coord_str(elem); };
  const char* atomic = update ? " atomically updates " : " atomically loads ";
  for (size_t level = parallels.size(); level-- > 0;) {
    ParallelTracker& t = *parallels[level];
    const int64_t p = t.point;
    auto par = [&] { return " of the parallel at " + t.op->loc.str(); };
    if (!t.acc.empty()) {
      auto it = t.acc.find({v.storage->serial, idx});
      if (it != t.acc.end()) {
        const ParallelAccess& a = it->second;
        if (a.writer != ParallelAccess::kNone && a.writer != p)
          fail(op, ErrorKind::ParallelConflict,
               "point " + point_str(a.writer) + " plainly writes and point " + point_str(p) + atomic + what() + par() +
                   other_site(a.wop, op, "plain write") + kMixed);
        for (int i = 0; update && i < 2; ++i)
          if (a.reader[i] != ParallelAccess::kNone && a.reader[i] != p)
            fail(op, ErrorKind::ParallelConflict,
                 "point " + point_str(a.reader[i]) + " plainly reads and point " + point_str(p) + atomic + what() + par() +
                     other_site(a.rop[i], op, "plain read") + kMixed);
      }
    }
    ParallelAtomic& x = t.atomic[{v.storage->serial, idx}];
    if (update) remember(x.updater, x.uop, p, op);
    else remember(x.loader, x.lop, p, op);
  }
}

}  // namespace kir::interp
