// Conflict detection between the points of a `parallel` (issue 4 item 2, checklist L5.1): every
// plain view/buffer load and store executed inside a parallel is recorded per element against each
// executing parallel (innermost first, so a nested parallel reports its own points and the
// accesses count for the enclosing point of every outer parallel). A write by one point and a
// write or read of the same element by another point is an error naming the op, both points, the
// element and the source locations. Atomics and scatter_reduce are not recorded: they are the
// legal way for points to combine. Cost: one hash-map update per touched element and level.
#include "interp/engine.h"

namespace kir::interp {
namespace {

std::string point_str(int64_t p) { return coord_str(Shape{p}); }

std::string other_site(const Operation* other, const Operation& op, const char* verb) {
  if (!other || other == &op) return "";
  return " (the " + std::string(verb) + " is op '" + other->name + "' at " + other->loc.str() + ")";
}

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
      a.writer = p;
      a.wop = &op;
    } else if (a.reader[0] == ParallelAccess::kNone) {
      a.reader[0] = p;
      a.rop[0] = &op;
    } else if (a.reader[0] != p && a.reader[1] == ParallelAccess::kNone) {
      a.reader[1] = p;
      a.rop[1] = &op;
    }
  }
}

}  // namespace kir::interp
