// Rule table, kir's own errors: reading a file, KIR syntax, and a kernel's default invocation.
#include "kir/rules/rule.h"

namespace kir::rules {
namespace {

const Rule kRules[] = {
    {.id = "io",
     .family = Family::Tool,
     .title = "a file cannot be read",
     .text = "kir could not open or read a file named on the command line (or one a manifest or kernel\n"
             "file refers to). The message names the path as kir saw it, relative to the current directory.",
     .fix = "Check the path and its permissions; relative paths are taken from the current directory."},
    {.id = "syntax",
     .family = Family::Tool,
     .title = "KIR text does not parse",
     .text = "The KIR text breaks the grammar (docs/kir-text.md): a token is missing or unexpected. The\n"
             "location is the first token the parser could not accept; the message says what it expected\n"
             "there.",
     .lang = Lang::Kir,
     .example = "fn @f(%a: f32) -> f32 {\n"
                "  %b = add(%a, %a : f32\n"
                "  return(%b)\n"
                "}\n",
     .fix = "Write what the message says is expected at the caret (here the ')' closing the operands).",
     .fixed = "fn @f(%a: f32) -> f32 {\n"
              "  %b = add(%a, %a) : f32\n"
              "  return(%b)\n"
              "}\n"},
    {.id = "invocation",
     .family = Family::Tool,
     .title = "a kernel's default invocation names no extent or gives no extent",
     .text = "A kernel may carry a default invocation, `invocation {M = 4, N = 16}`, which `kir run` uses\n"
             "for extents not given with --dim. Each key must be an extent symbol of one of the kernel's\n"
             "view parameters, and each value an integer extent in [0, 2^31]. Only kernels have an\n"
             "invocation; helpers (`fn`) are called, not invoked.",
     .lang = Lang::Kir,
     .example = "kernel @copy(%x: In<f32[N]>, %y: Out<f32[N]>) invocation {M = 4} {\n"
                "  %zero = const() {value = 0} : index\n"
                "  %n = dim(%x) {axis = 0} : index\n"
                "  %d = domain(%zero, %n) : domain<N>\n"
                "  %i = indices(%d) : index[N]\n"
                "  %rel = relation(%i) : relation<1 -> [N]>\n"
                "  %v = view.load(%x, %rel) : f32[N]\n"
                "  view.store(%y, %rel, %v)\n"
                "}\n",
     .fix = "Name the extent symbols of the parameters' shapes (here N).",
     .fixed = "kernel @copy(%x: In<f32[N]>, %y: Out<f32[N]>) invocation {N = 4} {\n"
              "  %zero = const() {value = 0} : index\n"
              "  %n = dim(%x) {axis = 0} : index\n"
              "  %d = domain(%zero, %n) : domain<N>\n"
              "  %i = indices(%d) : index[N]\n"
              "  %rel = relation(%i) : relation<1 -> [N]>\n"
              "  %v = view.load(%x, %rel) : f32[N]\n"
              "  view.store(%y, %rel, %v)\n"
              "}\n"},
};

}  // namespace

std::span<const Rule> tool_rules() { return kRules; }

}  // namespace kir::rules
