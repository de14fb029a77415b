// The SVG writer of the HTML report's plots (see svg.h).
#include "report/render/svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/render/format.h"

namespace kir::report::svg {

double Frame::px(double x) const {
  double span = x_hi - x_lo;
  double t = span > 0 ? (x - x_lo) / span : 0.5;
  return left + t * plot_width();
}

double Frame::py(double y) const {
  double span = y_hi - y_lo;
  double t = span > 0 ? (y - y_lo) / span : 0.0;
  return top + (1.0 - t) * plot_height();
}

std::string num(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

std::vector<Tick> linear_ticks(double lo, double hi, int max_count, bool integers) {
  std::vector<Tick> ticks;
  if (!(hi > lo) || max_count < 1) {
    ticks.push_back({lo, format_number(lo)});
    return ticks;
  }
  double raw = (hi - lo) / max_count;
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * mag;
    if (step >= raw) break;
  }
  if (integers) step = std::max(1.0, std::ceil(step));
  for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) {
    double r = std::fabs(v) < step * 1e-9 ? 0.0 : v;
    ticks.push_back({r, format_number(std::round(r * 1e6) / 1e6)});
  }
  return ticks;
}

double log2p1(double u) { return std::log2(1.0 + std::max(0.0, u)); }

std::vector<Tick> log2p1_ticks(double max_u) {
  std::vector<Tick> ticks{{0.0, "0"}};
  int top = max_u >= 1 ? static_cast<int>(std::ceil(std::log2(max_u))) : 0;
  int stride = top > 24 ? 8 : top > 12 ? 4 : top > 6 ? 2 : 1;
  for (int k = 0; k <= top; k += stride) {
    double u = std::ldexp(1.0, k);
    std::string label = k < 20 ? format_number(u) : "2^" + std::to_string(k);
    ticks.push_back({log2p1(u), label});
  }
  return ticks;
}

double log10p1(double n) { return std::log10(1.0 + std::max(0.0, n)); }

std::vector<Tick> log10p1_ticks(double max_n) {
  std::vector<Tick> ticks{{0.0, "0"}};
  for (int k = 0; k <= 15; ++k) {
    double n = std::pow(10.0, k);
    if (n > std::max(1.0, max_n) * 1.0000001) break;
    std::string label = k < 4 ? format_number(n) : k < 6 ? format_number(n / 1e3) + "k" : "1e" + std::to_string(k);
    ticks.push_back({log10p1(n), label});
  }
  return ticks;
}

std::string begin(const Frame& f, std::string_view css_class, std::string_view title) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"" + html_escape(css_class) + "\" width=\"" +
         num(f.width) + "\" height=\"" + num(f.height) + "\" viewBox=\"0 0 " + num(f.width) + " " +
         num(f.height) + "\" role=\"img\"><title>" + html_escape(title) + "</title>";
}

std::string end() { return "</svg>"; }

std::string axes(const Frame& f, const std::vector<Tick>& x_ticks, const std::vector<Tick>& y_ticks,
                 std::string_view x_label, std::string_view y_label) {
  std::string out;
  double x0 = f.left, x1 = f.width - f.right, y0 = f.height - f.bottom, y1 = f.top;
  for (const auto& t : y_ticks) {
    double y = f.py(t.at);
    out += line(x0, y, x1, y, "grid");
    out += line(x0 - 4, y, x0, y, "tick");
    out += text(x0 - 7, y + 3.5, t.label, "tick-label", "end");
  }
  for (const auto& t : x_ticks) {
    double x = f.px(t.at);
    out += line(x, y0, x, y0 + 4, "tick");
    out += text(x, y0 + 15, t.label, "tick-label", "middle");
  }
  out += line(x0, y0, x1, y0, "axis");
  out += line(x0, y0, x0, y1, "axis");
  out += text((x0 + x1) / 2, f.height - 6, x_label, "axis-label", "middle");
  double ym = (y0 + y1) / 2;
  out += "<text class=\"axis-label\" text-anchor=\"middle\" transform=\"translate(12 " + num(ym) +
         ") rotate(-90)\">" + html_escape(y_label) + "</text>";
  return out;
}

std::string rect(double x, double y, double w, double h, std::string_view css_class, std::string_view tooltip) {
  std::string out = "<rect class=\"" + html_escape(css_class) + "\" x=\"" + num(x) + "\" y=\"" + num(y) +
                    "\" width=\"" + num(std::max(0.0, w)) + "\" height=\"" + num(std::max(0.0, h)) + "\"";
  if (tooltip.empty()) return out + "/>";
  return out + "><title>" + html_escape(tooltip) + "</title></rect>";
}

std::string circle(double cx, double cy, double r, std::string_view css_class) {
  return "<circle class=\"" + html_escape(css_class) + "\" cx=\"" + num(cx) + "\" cy=\"" + num(cy) +
         "\" r=\"" + num(r) + "\"/>";
}

std::string line(double x1, double y1, double x2, double y2, std::string_view css_class) {
  return "<line class=\"" + html_escape(css_class) + "\" x1=\"" + num(x1) + "\" y1=\"" + num(y1) +
         "\" x2=\"" + num(x2) + "\" y2=\"" + num(y2) + "\"/>";
}

std::string text(double x, double y, std::string_view content, std::string_view css_class, std::string_view anchor) {
  return "<text class=\"" + html_escape(css_class) + "\" x=\"" + num(x) + "\" y=\"" + num(y) +
         "\" text-anchor=\"" + html_escape(anchor) + "\">" + html_escape(content) + "</text>";
}

}  // namespace kir::report::svg
