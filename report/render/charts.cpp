// The histogram and scatter plots of the HTML report (see charts.h).
#include "report/render/charts.h"

#include <algorithm>
#include <cmath>

#include "report/render/format.h"
#include "report/render/svg.h"

namespace kir::report {
namespace {

std::string bar_class(const std::string& bucket) {
  if (bucket == "0") return "bar bar-zero";
  if (bucket == "NaN mismatch") return "bar bar-nan";
  if (bucket == "1" || bucket == "2") return "bar bar-small";
  return "bar bar-large";
}

std::string empty_chart(svg::Frame f, std::string_view css_class, std::string_view title, std::string_view note) {
  std::string out = svg::begin(f, css_class, title);
  out += svg::rect(f.left, f.top, f.plot_width(), f.plot_height(), "empty-frame", "");
  out += svg::text(f.left + f.plot_width() / 2, f.top + f.plot_height() / 2 + 4, note, "note");
  return out + svg::end();
}

}  // namespace

std::string histogram_chart(const nlohmann::json& histogram, std::string_view css_class, std::string_view title) {
  struct Bar {
    std::string bucket;
    double count;
  };
  std::vector<Bar> bars;
  if (histogram.is_array()) {
    for (const auto& b : histogram) bars.push_back({string_field(b, "bucket"), number_of(field(b, "count")).value_or(0)});
  }
  // Trailing empty buckets dropped (keeping at least 0/1/2); the NaN bucket last, when it has elements.
  std::optional<Bar> nan_bar;
  std::erase_if(bars, [&](const Bar& b) {
    if (b.bucket != "NaN mismatch") return false;
    if (b.count > 0) nan_bar = b;
    return true;
  });
  std::size_t keep = std::min<std::size_t>(bars.size(), 3);
  for (std::size_t i = 0; i < bars.size(); ++i) {
    if (bars[i].count > 0) keep = std::max(keep, i + 1);
  }
  bars.resize(keep);
  if (nan_bar) bars.push_back(*nan_bar);
  std::size_t longest = 0;
  for (const auto& b : bars) longest = std::max(longest, b.bucket.size());

  svg::Frame f;
  double slot_min = std::max(30.0, 6.0 * static_cast<double>(std::min<std::size_t>(longest, 9)) + 6.0);
  f.width = std::max(380.0, f.left + f.right + slot_min * static_cast<double>(bars.size()));
  if (bars.empty()) return empty_chart(f, css_class, title, "no histogram");

  double max_count = 0;
  for (const auto& b : bars) max_count = std::max(max_count, b.count);
  auto y_ticks = svg::log10p1_ticks(max_count);
  f.x_lo = 0;
  f.x_hi = static_cast<double>(bars.size());
  f.y_lo = 0;
  f.y_hi = std::max(y_ticks.back().at, svg::log10p1(max_count)) * 1.12;  // room for the count labels

  std::string out = svg::begin(f, css_class, title);
  std::vector<svg::Tick> no_x_ticks;
  out += svg::axes(f, no_x_ticks, y_ticks, "error (ulps)", "elements (log)");
  double slot = f.plot_width() / static_cast<double>(bars.size());
  double base = f.py(0);
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const Bar& b = bars[i];
    double x = f.px(static_cast<double>(i)) + slot * 0.12;
    double top = f.py(svg::log10p1(b.count));
    out += svg::rect(x, top, slot * 0.76, base - top, bar_class(b.bucket),
                     b.bucket + " ulps: " + format_number(b.count) + " elements");
    double cx = x + slot * 0.38;
    if (b.count > 0) out += svg::text(cx, top - 3, format_number(b.count), "bar-label");
    out += svg::text(cx, base + 14, b.bucket == "NaN mismatch" ? "NaN" : b.bucket, "tick-label");
  }
  return out + svg::end();
}

std::string scatter_chart(const std::vector<ScatterSeries>& series, std::optional<double> bound,
                          std::string_view x_label, std::string_view css_class, std::string_view title) {
  struct Point {
    double x, u;
  };
  std::vector<std::vector<Point>> points(series.size());
  double x_lo = INFINITY, x_hi = -INFINITY, u_max = 0;
  for (std::size_t s = 0; s < series.size(); ++s) {
    if (!series[s].points || !series[s].points->is_array()) continue;
    for (const auto& p : *series[s].points) {
      if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number()) continue;
      double x = p[0].get<double>(), u = p[1].get<double>();
      if (!std::isfinite(x) || !std::isfinite(u)) continue;
      points[s].push_back({x, u});
      x_lo = std::min(x_lo, x);
      x_hi = std::max(x_hi, x);
      u_max = std::max(u_max, u);
    }
  }
  svg::Frame f;
  bool legend = std::any_of(series.begin(), series.end(), [](const ScatterSeries& s) { return !s.legend.empty(); });
  if (legend) f.top = 30;  // the legend goes above the plot, clear of the points
  bool any = x_lo <= x_hi;
  if (!any) return empty_chart(f, css_class, title, "no finite errors sampled");

  if (bound && std::isfinite(*bound)) u_max = std::max(u_max, *bound);
  x_lo = std::floor(x_lo);
  x_hi = std::ceil(x_hi);
  if (x_hi - x_lo < 2) {
    x_lo -= 1;
    x_hi += 1;
  }
  auto x_ticks = svg::linear_ticks(x_lo, x_hi, 6, true);
  auto y_ticks = svg::log2p1_ticks(u_max);
  f.x_lo = x_lo;
  f.x_hi = x_hi;
  f.y_lo = 0;
  f.y_hi = std::max({y_ticks.back().at, svg::log2p1(u_max), 1.0}) * 1.08;

  std::string out = svg::begin(f, css_class, title);
  out += svg::axes(f, x_ticks, y_ticks, x_label, "error (ulps, log)");
  if (bound && std::isfinite(*bound)) {
    double y = f.py(svg::log2p1(*bound));
    out += svg::line(f.left, y, f.width - f.right, y, "bound");
    out += svg::text(f.width - f.right - 3, y - 4, "bound " + format_number(*bound), "bound-label", "end");
  }
  for (std::size_t s = 0; s < series.size(); ++s) {
    for (const auto& p : points[s]) {
      out += svg::circle(f.px(p.x), f.py(svg::log2p1(p.u)), 2.6, "pt " + series[s].css_class);
    }
  }
  // Legend, in one row above the plot.
  double lx = f.left + 4;
  for (const auto& s : series) {
    if (s.legend.empty()) continue;
    out += svg::circle(lx + 4, 14.5, 4, "pt " + s.css_class);
    out += svg::text(lx + 12, 18, s.legend, "legend", "start");
    lx += 22 + 6.5 * static_cast<double>(s.legend.size());
  }
  return out + svg::end();
}

}  // namespace kir::report
