// See comments.h.
#include "kir/text/comments.h"

namespace kir {

std::vector<Comment> collect_comments(std::string_view src) {
  std::vector<Comment> out;
  int line = 1;
  bool code = false;  // something other than blanks precedes on this line
  for (size_t i = 0; i < src.size(); ++i) {
    const char c = src[i];
    if (c == '\n') {
      ++line;
      code = false;
    } else if (c == '"') {  // a string literal (loc file names, attribute strings): skip it
      code = true;
      for (++i; i < src.size() && src[i] != '"' && src[i] != '\n'; ++i)
        if (src[i] == '\\') ++i;
      if (i < src.size() && src[i] == '\n') {
        ++line;
        code = false;
      }
    } else if (c == '/' && i + 1 < src.size() && src[i + 1] == '/') {
      size_t end = src.find('\n', i);
      if (end == std::string_view::npos) end = src.size();
      std::string text(src.substr(i, end - i));
      while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.pop_back();
      out.push_back({line, text, code});
      i = end - 1;  // the newline is counted by the loop
    } else if (c != ' ' && c != '\t' && c != '\r') {
      code = true;
    }
  }
  return out;
}

}  // namespace kir
