// The canonical printer. Unnamed values (made by passes or the builder) get fresh `%tN` names
// that cannot collide with names already used in the function.
#include "kir/text/printer.h"

#include "kir/text/comments.h"

#include <cstdint>
#include <set>
#include <sstream>
#include <unordered_map>

namespace kir {
namespace {

class Printer {
 public:
  std::ostringstream os;
  const std::vector<Comment>* comments = nullptr;  // kir fmt: source comments to print back

  // The comments on lines before `line`, each on a line of its own at `indent`.
  void comments_before(int line, int indent) {
    while (comments && next_comment_ < comments->size() && (*comments)[next_comment_].line < line) {
      pad(indent);
      os << (*comments)[next_comment_++].text << "\n";
    }
  }
  // A trailing comment on the op's own line, printed after the op's text.
  std::string trailing_comment(int line) {
    if (!comments || next_comment_ >= comments->size()) return "";
    const Comment& c = (*comments)[next_comment_];
    if (!c.trailing || c.line != line) return "";
    ++next_comment_;
    return " " + c.text;
  }
  void remaining_comments() { comments_before(INT32_MAX, 0); }

  void function(const Function& f) {
    names_.clear();
    used_.clear();
    collect(f.body);
    if (!f.loc.explicit_loc) comments_before(static_cast<int>(f.loc.line), 0);
    os << (f.is_kernel() ? "kernel" : "fn") << " @" << f.name << "(";
    for (size_t i = 0; i < f.body.args.size(); ++i) {
      const Value& p = *f.body.args[i];
      if (i) os << ", ";
      if (p.is_constexpr) os << "constexpr ";
      os << name(&p) << ": " << p.type.str();
      if (p.default_value) os << " = " << p.default_value->str();
    }
    os << ")";
    if (!f.is_kernel() || !f.result_types.empty()) {
      os << " -> ";
      types(f.result_types, true);
    }
    if (!f.invocation.empty()) {
      os << " invocation {";
      bool first = true;
      for (const auto& [k, v] : f.invocation) {
        os << (first ? "" : ", ") << k << " = " << v.str();
        first = false;
      }
      os << "}";
    }
    if (!f.fixes.empty()) {
      os << " fixes {";
      for (size_t i = 0; i < f.fixes.size(); ++i) os << (i ? ", " : "") << f.fixes[i].first << " = " << f.fixes[i].second.str();
      os << "}";
    }
    if (f.loc.explicit_loc) os << " " << loc(f.loc);
    os << " {" << (f.loc.explicit_loc ? "" : trailing_comment(static_cast<int>(f.loc.line))) << "\n";
    for (const auto& op : f.body.ops) operation(*op, 1);
    os << "}\n";
  }

  void operation(const Operation& op, int indent) {
    const bool placed = comments && !op.loc.explicit_loc && op.loc.line > 0;
    if (placed) comments_before(static_cast<int>(op.loc.line), indent);
    pad(indent);
    if (!op.results.empty()) {
      for (size_t i = 0; i < op.results.size(); ++i) os << (i ? ", " : "") << name(op.results[i].get());
      os << " = ";
    }
    os << op.name << "(";
    for (size_t i = 0; i < op.operands.size(); ++i) os << (i ? ", " : "") << name(op.operands[i]);
    os << ")";
    if (!op.attrs.empty()) {
      os << " {";
      bool first = true;
      for (const auto& [k, v] : op.attrs) {
        os << (first ? "" : ", ") << k << " = " << v.str();
        first = false;
      }
      os << "}";
    }
    if (!op.results.empty()) {
      os << " : ";
      std::vector<Type> ts;
      for (const auto& r : op.results) ts.push_back(r->type);
      types(ts, false);
    }
    for (const auto& r : op.regions) {
      os << " region(";
      for (size_t i = 0; i < r->args.size(); ++i)
        os << (i ? ", " : "") << name(r->args[i].get()) << ": " << r->args[i]->type.str();
      os << ") {";
      if (placed && &r == &op.regions.front()) os << trailing_comment(static_cast<int>(op.loc.line));
      os << "\n";
      for (const auto& sub : r->ops) operation(*sub, indent + 1);
      pad(indent);
      os << "}";
    }
    if (op.loc.explicit_loc) os << " " << loc(op.loc);
    if (placed && op.regions.empty()) os << trailing_comment(static_cast<int>(op.loc.line));
    os << "\n";
  }

 private:
  size_t next_comment_ = 0;
  std::unordered_map<const Value*, std::string> names_;
  std::set<std::string> used_;
  int next_ = 0;

  void collect(const Region& r) {
    for (const auto& a : r.args) if (!a->name.empty()) used_.insert(a->name);
    for (const auto& op : r.ops) {
      for (const auto& res : op->results) if (!res->name.empty()) used_.insert(res->name);
      for (const auto& sub : op->regions) collect(*sub);
    }
  }
  std::string name(const Value* v) {
    if (!v) return "%<null>";
    if (!v->name.empty()) return "%" + v->name;
    auto it = names_.find(v);
    if (it != names_.end()) return it->second;
    std::string n;
    do n = "t" + std::to_string(next_++);
    while (used_.count(n));
    used_.insert(n);
    return names_[v] = "%" + n;
  }
  void types(const std::vector<Type>& ts, bool parens_for_one) {
    if (ts.size() == 1 && !parens_for_one) { os << ts[0].str(); return; }
    if (ts.size() == 1) { os << ts[0].str(); return; }
    os << "(";
    for (size_t i = 0; i < ts.size(); ++i) os << (i ? ", " : "") << ts[i].str();
    os << ")";
  }
  static std::string loc(const Location& l) {
    std::string f = l.file ? *l.file : "";
    std::string q;
    for (char c : f) {
      if (c == '"' || c == '\\') q += '\\';
      if (c == '\n') { q += "\\n"; continue; }
      if (c == '\t') { q += "\\t"; continue; }
      q += c;
    }
    return "loc(\"" + q + "\":" + std::to_string(l.line) + ":" + std::to_string(l.col) + ")";
  }
  void pad(int indent) { for (int i = 0; i < indent; ++i) os << "  "; }
};

}  // namespace

std::string print_function(const Function& f) {
  Printer p;
  p.function(f);
  return p.os.str();
}

std::string print_module(const Module& m) { return print_module_with_comments(m, {}); }

std::string print_module_with_comments(const Module& m, const std::vector<Comment>& comments) {
  Printer p;
  p.comments = comments.empty() ? nullptr : &comments;
  bool first = true;
  for (const auto& e : m.enums) {
    if (!first) p.os << "\n";
    first = false;
    if (!e.loc.explicit_loc) p.comments_before(static_cast<int>(e.loc.line), 0);
    p.os << "enum @" << e.name << " {";
    for (size_t i = 0; i < e.members.size(); ++i) p.os << (i ? ", " : " ") << e.members[i].first << " = " << e.members[i].second;
    p.os << (e.members.empty() ? "}" : " }") << (e.loc.explicit_loc ? "" : p.trailing_comment(static_cast<int>(e.loc.line))) << "\n";
  }
  for (const auto& f : m.functions) {
    if (!first) p.os << "\n";
    first = false;
    p.function(*f);
  }
  p.remaining_comments();
  return p.os.str();
}

std::string print_op(const Operation& op) {
  Printer p;
  p.operation(op, 0);
  std::string s = p.os.str();
  if (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

}  // namespace kir
