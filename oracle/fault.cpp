// Comparable faults (fault.h).
#include "oracle/fault.h"

#include <cctype>

#include "backends/cpu/driver/compiler.h"
#include "interp/interpreter.h"

namespace kir::oracle {
namespace {

// Every integer written in `s`, in order ("-3" counts as negative).
std::vector<int64_t> ints_in(const std::string& s) {
  std::vector<int64_t> out;
  for (size_t i = 0; i < s.size();) {
    const bool neg = s[i] == '-' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1]));
    if (!neg && !std::isdigit(static_cast<unsigned char>(s[i]))) {
      ++i;
      continue;
    }
    size_t j = i + (neg ? 1 : 0);
    int64_t v = 0;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) v = v * 10 + (s[j++] - '0');
    out.push_back(neg ? -v : v);
    i = j;
  }
  return out;
}

// The integers of the parenthesized group opening at s[open] ('(').
std::vector<int64_t> group_at(const std::string& s, size_t open) {
  const size_t close = s.find(')', open);
  return ints_in(s.substr(open, close == std::string::npos ? std::string::npos : close - open));
}

// "parallel %p = 1, for %t = 2" -> (1, 2).
std::vector<int64_t> loop_coord(const std::string& loops) {
  std::vector<int64_t> out;
  size_t at = 0;
  while ((at = loops.find(" = ", at)) != std::string::npos) {
    at += 3;
    const size_t end = loops.find(", ", at);
    const auto v = ints_in(loops.substr(at, end == std::string::npos ? std::string::npos : end - at));
    if (!v.empty()) out.push_back(v.front());
  }
  return out;
}

// The element of the op's result an interpreter error's coordinate text names: the relation point
// of a memory access ("source coordinate (7) (relation point (0, 1))"), the element of a tensor op
// ("(2, 5)"); nothing for a scalar access ("source coordinate (7)").
std::vector<int64_t> element_coord(const std::string& coords) {
  const std::string rp = "relation point (";
  if (const size_t p = coords.find(rp); p != std::string::npos) return group_at(coords, p + rp.size() - 1);
  if (coords.rfind('(', 0) == 0) return group_at(coords, 0);
  if (coords.find("source coordinate") != std::string::npos) return {};
  return ints_in(coords);
}

// "... (kir explain KIND)" at the end of a message: KIND.
std::string hint_kind(const std::string& m) {
  const std::string h = " (kir explain ";
  const size_t p = m.rfind(h);
  if (p == std::string::npos || m.back() != ')') return "";
  return m.substr(p + h.size(), m.size() - 1 - p - h.size());
}

std::string strip_hint(const std::string& m) {
  const size_t p = m.rfind(" (kir explain ");
  return p == std::string::npos || m.back() != ')' ? m : m.substr(0, p);
}

std::string coord_text(const std::vector<int64_t>& c) {
  std::string s = "(";
  for (size_t i = 0; i < c.size(); ++i) s += (i ? ", " : "") + std::to_string(c[i]);
  return s + ")";
}


}  // namespace

std::string Fault::str() const {
  std::string s = kind.empty() ? "an error" : kind;
  if (!op.empty()) s += " in `" + op + "`";
  if (!location.empty()) s += " at " + location;
  if (!coord.empty()) s += ", coordinate " + coord_text(coord);
  return s;
}

bool same_fault(const Fault& a, const Fault& b) {
  if (a.kind.empty() || b.kind.empty()) return a.message == b.message;
  return a.kind == b.kind && a.coord == b.coord;
}

Fault fault_of(const interp::RuntimeError& e) {
  Fault f;
  f.kind = interp::kind_name(e.kind());
  f.op = e.op();
  f.location = e.location();
  f.coord = loop_coord(e.loops());
  for (int64_t c : element_coord(e.coords())) f.coord.push_back(c);
  f.message = e.what();
  return f;
}

Fault fault_of(const cpu::NativeKernel& kernel, const kir_fault& nf) {
  Fault f;
  f.message = cpu::fault_message(kernel, nf);
  f.kind = cpu::fault_kind(nf.code);
  if (f.kind.empty()) f.kind = hint_kind(f.message);  // a code added after this table
  const auto& ops = kernel.program().ops;
  if (nf.op >= 0 && static_cast<size_t>(nf.op) < ops.size()) {
    f.op = ops[static_cast<size_t>(nf.op)].name;
    f.location = ops[static_cast<size_t>(nf.op)].location;
  }
  for (int64_t i = 0; i < nf.rank && i < KIR_MAX_RANK; ++i) f.coord.push_back(nf.coord[i]);
  return f;
}

Fault host_fault(const std::string& kind, const std::string& message) {
  Fault f;
  f.kind = kind;
  f.message = message;
  return f;
}

Fault fault_from_message(const std::string& message) {
  Fault f;
  f.message = message;
  const std::string body = strip_hint(message);
  if (const size_t p = body.find(": runtime error["); p != std::string::npos) {
    f.location = body.substr(0, p);
    const size_t k0 = p + 16, k1 = body.find(']', k0);
    if (k1 == std::string::npos) return f;
    f.kind = body.substr(k0, k1 - k0);
    std::string rest = body.substr(k1 + 1);
    if (const size_t o = rest.find("op '"); o != std::string::npos) {
      const size_t o1 = rest.find('\'', o + 4);
      if (o1 != std::string::npos) f.op = rest.substr(o + 4, o1 - o - 4);
    }
    std::string loops;
    if (const size_t l = rest.rfind(" (in "); l != std::string::npos && rest.back() == ')') {
      loops = rest.substr(l + 5, rest.size() - l - 6);
      rest = rest.substr(0, l);
    }
    f.coord = loop_coord(loops);
    if (const size_t a = rest.rfind(" at "); a != std::string::npos)
      for (int64_t c : element_coord(rest.substr(a + 4))) f.coord.push_back(c);
    return f;
  }
  if (const size_t p = body.find(": error[backend]: "); p != std::string::npos) {
    f.location = body.substr(0, p);
    f.kind = hint_kind(message);
    if (const size_t o = body.find(" in `", p); o != std::string::npos) {
      const size_t o1 = body.find('`', o + 5);
      if (o1 != std::string::npos) f.op = body.substr(o + 5, o1 - o - 5);
      if (const size_t a = body.find(" at (", o); a != std::string::npos) f.coord = group_at(body, a + 4);
    }
  }
  return f;
}

Fault current_fault(const std::exception& e) {
  if (const auto* r = dynamic_cast<const interp::RuntimeError*>(&e)) return fault_of(*r);
  if (const auto* n = dynamic_cast<const FaultError*>(&e)) return n->fault();
  Fault f = fault_from_message(e.what());
  if (f.message.empty()) f.message = "an error without a message";  // still an error
  return f;
}

}  // namespace kir::oracle
