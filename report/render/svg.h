// A small SVG writer for the HTML report's plots: a plot frame mapping data to pixels, "nice" axis
// ticks (linear, and log2(1 + ulps) for errors that span decades), axes with labels, and the
// elements the charts draw. Every text it writes is HTML-escaped; the charts style it by CSS class
// (report.css), so the SVG carries no colours of its own.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kir::report::svg {

struct Tick {
  double at;          // data coordinate
  std::string label;  // shown text
};

// The drawing area: a width x height picture with margins for the axes, showing
// [x_lo, x_hi] x [y_lo, y_hi].
struct Frame {
  double width = 380, height = 210;
  double left = 52, right = 14, top = 14, bottom = 40;
  double x_lo = 0, x_hi = 1, y_lo = 0, y_hi = 1;
  double px(double x) const;  // pixel column of data x
  double py(double y) const;  // pixel row of data y
  double plot_width() const { return width - left - right; }
  double plot_height() const { return height - top - bottom; }
};

// A coordinate as SVG text: at most two decimals, no trailing zeros.
std::string num(double v);

// Ticks at multiples of a 1/2/5 x 10^k step covering [lo, hi], at most about `max_count`; integer
// steps only when `integers`.
std::vector<Tick> linear_ticks(double lo, double hi, int max_count, bool integers);

// The transform of the error axes: y = log2(1 + u).
double log2p1(double u);

// Ticks for a log2(1 + u) axis up to u = max_u: at u = 0, 1, 2, 4, 8, ... (every other or fourth
// power when many), labelled with u.
std::vector<Tick> log2p1_ticks(double max_u);

// The same for counts on a log10(1 + n) axis: 0, 1, 10, 100, ...
double log10p1(double n);
std::vector<Tick> log10p1_ticks(double max_n);

// <svg ...> with a viewBox, role="img", class and an escaped <title>; close with end().
std::string begin(const Frame& f, std::string_view css_class, std::string_view title);
std::string end();

// Grid lines, the two axes, tick marks and labels, and the axis titles.
std::string axes(const Frame& f, const std::vector<Tick>& x_ticks, const std::vector<Tick>& y_ticks,
                 std::string_view x_label, std::string_view y_label);

std::string rect(double x, double y, double w, double h, std::string_view css_class, std::string_view tooltip);
std::string circle(double cx, double cy, double r, std::string_view css_class);
std::string line(double x1, double y1, double x2, double y2, std::string_view css_class);
// anchor: "start", "middle" or "end".
std::string text(double x, double y, std::string_view content, std::string_view css_class,
                 std::string_view anchor = "middle");

}  // namespace kir::report::svg
