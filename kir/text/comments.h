// The `//` comments of a KIR text, for `kir fmt`, which prints them back where they were: a
// comment on a line of its own goes before the op, function or enum that follows it (at that
// op's indentation); a comment after code on the same line stays at the end of that op's line.
// The parser skips comments; this scan finds them (outside string literals) with their lines.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace kir {

struct Comment {
  int line = 0;
  std::string text;       // from "//" to the end of the line, trailing spaces removed
  bool trailing = false;  // code precedes it on its line
};

std::vector<Comment> collect_comments(std::string_view source);

}  // namespace kir
