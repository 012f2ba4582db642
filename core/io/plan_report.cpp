// The plan report as HTML with inline SVG: see plan_report.h.
#include "io/plan_report.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <numeric>
#include <sstream>

#include "base/device_palette.h"
#include "base/error.h"

namespace gp {

namespace {

std::string esc(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char ch : s) switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  return out;
}

std::string num(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string ms(double seconds) { return num("%.3f", seconds * 1e3); }

// Bars of one timeline row at pixel scale: touching or sub-pixel-apart bars of one colour merge.
struct Bar {
  double x0, x1;
  std::string fill;
};
void merged(std::vector<Bar>& bars) {
  std::sort(bars.begin(), bars.end(), [](const Bar& a, const Bar& b) { return a.x0 < b.x0; });
  std::vector<Bar> out;
  for (const Bar& b : bars) {
    if (!out.empty() && out.back().fill == b.fill && b.x0 - out.back().x1 < 0.5) {
      out.back().x1 = std::max(out.back().x1, b.x1);
      continue;
    }
    out.push_back(b);
  }
  bars.swap(out);
}

// A row per device, then per channel that carried data; the critical path outlined.
std::string timelineSvg(const PlanReportInput& in) {
  const Cluster& c = in.cluster;
  const Measurement& m = in.measurement;
  const double width = 1000, label = 130, rowH = 18, axis = 22;
  std::vector<int> rowOfChannel(static_cast<size_t>(c.numChannels()), -1);
  std::vector<std::string> rowNames;
  for (int d = 0; d < c.numDevices(); ++d) rowNames.push_back(c.device(d).name);
  for (int ch = 0; ch < c.numChannels(); ++ch)
    if (ch < static_cast<int>(m.channelBytes.size()) && m.channelBytes[ch] > 0) {
      rowOfChannel[ch] = static_cast<int>(rowNames.size());
      rowNames.push_back(c.channel(ch).name);
    }
  const double step = std::max(m.stepTime, 1e-12);
  auto x = [&](double t) { return label + width * t / step; };
  std::vector<std::vector<Bar>> bars(rowNames.size()), path(rowNames.size());
  auto transferRows = [&](int src, int dst, const std::function<void(int)>& at) {
    for (int ch : c.route(src, dst))
      if (rowOfChannel[ch] >= 0) at(rowOfChannel[ch]);
  };
  for (const TimelineEvent& e : m.timeline) {
    if (e.kind == TimelineEvent::Kind::Op) {
      bars[e.resource].push_back({x(e.start), x(e.end), deviceColorHex(e.resource)});
    } else if (e.resource >= 0) {
      const int src = c.channel(e.resource).from;
      transferRows(src, e.dst, [&](int row) { bars[row].push_back({x(e.start), x(e.end), deviceColorHex(e.dst)}); });
    }
  }
  for (const PathStep& s : in.analysis.path) {
    if (s.kind == PathStep::Kind::Kernel)
      path[s.device].push_back({x(s.start), x(s.end), "path"});
    else
      transferRows(s.device, s.dst, [&](int row) { path[row].push_back({x(s.start), x(s.end), "path"}); });
  }
  const double height = axis + rowH * static_cast<double>(rowNames.size()) + 4;
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << label + width + 30 << "\" height=\"" << height
    << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  for (int i = 0; i <= 10; ++i) {  // the time axis, in tenths of the step
    const double tx = label + width * i / 10.0;
    o << "<line x1=\"" << tx << "\" y1=\"" << axis - 4 << "\" x2=\"" << tx << "\" y2=\"" << height
      << "\" stroke=\"#ddd\"/><text x=\"" << tx << "\" y=\"" << axis - 8 << "\" text-anchor=\"middle\">"
      << ms(step * i / 10.0) << "</text>\n";
  }
  o << "<text x=\"4\" y=\"" << axis - 8 << "\">ms</text>\n";
  for (size_t r = 0; r < rowNames.size(); ++r) {
    const double y = axis + rowH * static_cast<double>(r);
    const bool channel = r >= static_cast<size_t>(c.numDevices());
    o << "<text x=\"4\" y=\"" << y + 13 << "\">" << esc(rowNames[r]) << "</text>\n";
    merged(bars[r]);
    for (const Bar& b : bars[r])
      o << "<rect x=\"" << num("%.2f", b.x0) << "\" y=\"" << y + 2 << "\" width=\"" << num("%.2f", std::max(b.x1 - b.x0, 0.3))
        << "\" height=\"" << rowH - 4 << "\" fill=\"" << b.fill << "\"" << (channel ? " fill-opacity=\"0.55\"" : "")
        << "/>\n";
    merged(path[r]);
    for (const Bar& b : path[r])
      o << "<rect class=\"path\" x=\"" << num("%.2f", b.x0) << "\" y=\"" << y + 1 << "\" width=\""
        << num("%.2f", std::max(b.x1 - b.x0, 0.3)) << "\" height=\"" << rowH - 2
        << "\" fill=\"none\" stroke=\"#d00\" stroke-width=\"1.5\"/>\n";
  }
  o << "</svg>\n";
  return o.str();
}

// Per device: utilization and peak memory against capacity.
std::string devicesSvg(const PlanReportInput& in) {
  const Cluster& c = in.cluster;
  const Measurement& m = in.measurement;
  const double label = 130, barW = 360, gap = 40, rowH = 20, top = 20;
  const double height = top + rowH * c.numDevices() + 6;
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << label + 2 * barW + gap + 90 << "\" height=\"" << height
    << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  o << "<text x=\"" << label << "\" y=\"13\">busy share of the step</text><text x=\"" << label + barW + gap
    << "\" y=\"13\">peak memory / capacity</text>\n";
  for (int d = 0; d < c.numDevices() && d < static_cast<int>(m.devices.size()); ++d) {
    const DeviceStats& s = m.devices[d];
    const double y = top + rowH * d;
    const double mem = s.capacity > 0 ? static_cast<double>(s.peakMemory) / static_cast<double>(s.capacity) : 0;
    o << "<text x=\"4\" y=\"" << y + 14 << "\">" << esc(c.device(d).name) << "</text>\n";
    o << "<rect x=\"" << label << "\" y=\"" << y + 3 << "\" width=\"" << barW << "\" height=\"" << rowH - 6
      << "\" fill=\"#eee\"/><rect x=\"" << label << "\" y=\"" << y + 3 << "\" width=\""
      << num("%.1f", barW * std::clamp(s.utilization, 0.0, 1.0)) << "\" height=\"" << rowH - 6 << "\" fill=\""
      << deviceColorHex(d) << "\"/><text x=\"" << label + barW + 4 << "\" y=\"" << y + 14 << "\">"
      << num("%.0f %%", 100 * s.utilization) << "</text>\n";
    const double mx = label + barW + gap;
    o << "<rect x=\"" << mx << "\" y=\"" << y + 3 << "\" width=\"" << barW << "\" height=\"" << rowH - 6
      << "\" fill=\"#eee\"/><rect x=\"" << mx << "\" y=\"" << y + 3 << "\" width=\""
      << num("%.1f", barW * std::clamp(mem, 0.0, 1.0)) << "\" height=\"" << rowH - 6 << "\" fill=\""
      << (mem > 1 ? "#d00" : "#777") << "\"/><text x=\"" << mx + barW + 4 << "\" y=\"" << y + 14 << "\">"
      << num("%.2f GiB", static_cast<double>(s.peakMemory) / (1024.0 * 1024 * 1024)) << "</text>\n";
  }
  o << "</svg>\n";
  return o.str();
}

template <typename Name>
std::string perResourceRows(const std::vector<double>& seconds, Name name, const std::string& what, double step) {
  std::string out;
  for (size_t i = 0; i < seconds.size(); ++i)
    if (seconds[i] > 0)
      out += "<tr><td>" + esc(what) + "</td><td>" + esc(name(static_cast<int>(i))) + "</td><td class=n>" + ms(seconds[i]) +
             "</td><td class=n>" + num("%.1f %%", 100 * seconds[i] / step) + "</td></tr>\n";
  return out;
}

}  // namespace

std::vector<PathRun> pathRuns(const StepAnalysis& a) {
  std::vector<PathRun> runs;
  auto samePlace = [](const PathStep& x, const PathStep& y) {
    return x.kind == y.kind && x.device == y.device && (x.kind == PathStep::Kind::Kernel || x.dst == y.dst);
  };
  for (size_t i = 0; i < a.path.size();) {
    size_t e = i + 1;
    while (e < a.path.size() && samePlace(a.path[e], a.path[i])) ++e;
    PathRun r{i, e - 1, false};
    for (size_t k = i; k < e; ++k)
      r.waited |= a.path[k].via == PathStep::Via::DeviceQueue || a.path[k].via == PathStep::Via::LinkBusy;
    runs.push_back(r);
    i = e;
  }
  return runs;
}

std::string planReportHtml(const PlanReportInput& in) {
  const Graph& g = in.graph;
  const Cluster& c = in.cluster;
  const Measurement& m = in.measurement;
  const StepAnalysis& a = in.analysis;
  const double step = std::max(m.stepTime, 1e-12);
  auto deviceName = [&](int d) { return c.device(d).name; };
  auto channelName = [&](int ch) { return c.channel(ch).name; };
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Plan report: " << esc(in.model) << "</title>\n"
    << "<style>body{font-family:sans-serif;margin:24px;color:#222}table{border-collapse:collapse;margin:8px 0 18px}"
       "td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px}th{background:#f3f3f3;text-align:left}"
       "td.n{text-align:right;font-variant-numeric:tabular-nums}h2{margin-top:28px}.bad{color:#b00}</style>\n"
    << "</head><body>\n";
  o << "<h1>Plan report</h1>\n<p><b>" << esc(in.model) << "</b> on <b>" << esc(c.name()) << "</b> (" << c.numDevices()
    << " devices), plan: " << esc(in.planName) << "</p>\n";
  o << "<table><tr><th>step time</th><td class=n>" << ms(m.stepTime) << " ms</td></tr><tr><th>lower bound</th><td class=n>"
    << ms(m.lowerBound) << " ms (step / bound " << num("%.2f", m.ratio()) << ")</td></tr><tr><th>feasible</th><td>"
    << (m.feasible ? "yes" : "<span class=bad>no: " + esc(m.problem) + "</span>") << "</td></tr><tr><th>sent between devices</th><td class=n>"
    << num("%.1f MB", static_cast<double>(m.commBytes) / 1e6) << "</td></tr><tr><th>ops</th><td class=n>" << g.numOps()
    << "</td></tr></table>\n";

  o << "<h2>Where the step time goes (critical path)</h2>\n<p>The critical path: the chain of kernels and transfers, "
       "each started by the one before it (its input, or the device or link it waited for), from the start of the step "
       "to its end. "
    << a.path.size() << " steps; compute " << ms(a.computeTime()) << " ms, transfers " << ms(a.transferTime()) << " ms.</p>\n";
  o << "<table><tr><th>part</th><th>where</th><th>ms</th><th>of the step</th></tr>\n"
    << perResourceRows(a.computeByDevice, deviceName, "compute", step)
    << perResourceRows(a.memoryBoundByDevice, deviceName, "of which memory-bound", step)
    << perResourceRows(a.transferByChannel, channelName, "transfer", step)
    << perResourceRows(a.queuedByDevice, deviceName, "wait: queued behind other kernels", step)
    << perResourceRows(a.linkBusyByChannel, channelName, "wait: link busy with other transfers", step) << "</table>\n";

  o << "<h2>Devices</h2>\n" << devicesSvg(in);
  o << "<h2>Timeline</h2>\n<p>Kernels in the device's colour, transfers in the destination's; the critical path outlined in red.</p>\n"
    << timelineSvg(in);

  o << "<h2>The critical path, step by step</h2>\n<table><tr><th>start ms</th><th>end ms</th><th>where</th><th>steps</th>"
       "<th>first .. last</th><th>waited</th></tr>\n";
  for (const PathRun& r : pathRuns(a)) {
    const PathStep& f = a.path[r.first];
    const PathStep& l = a.path[r.last];
    o << "<tr><td class=n>" << ms(f.start) << "</td><td class=n>" << ms(l.end) << "</td><td>" << esc(stepPlace(c, f))
      << "</td><td class=n>" << r.last - r.first + 1 << "</td><td>" << esc(stepName(g, f))
      << (r.last > r.first ? " .. " + esc(stepName(g, l)) : "") << "</td><td>" << (r.waited ? "yes" : "") << "</td></tr>\n";
  }
  o << "</table>\n";

  std::vector<OpId> bySlack(static_cast<size_t>(g.numOps()));
  std::iota(bySlack.begin(), bySlack.end(), 0);
  std::stable_sort(bySlack.begin(), bySlack.end(), [&](OpId x, OpId y) { return a.opSlack[x] < a.opSlack[y]; });
  const double zero = 1e-9 * step;
  const auto none = std::count_if(a.opSlack.begin(), a.opSlack.end(), [&](double s) { return s <= zero; });
  o << "<h2>Slack</h2>\n<p>How much later an op could finish without lengthening the step, every device and link keeping "
       "its order. "
    << none << " of " << g.numOps() << " ops have none.</p>\n";
  auto slackTable = [&](const char* title, auto begin, auto end) {
    o << "<table><tr><th>" << title << "</th><th>device</th><th>slack ms</th></tr>\n";
    int rows = 0;
    for (auto it = begin; it != end && rows < in.slackRows; ++it) {
      if (a.opSlack[*it] <= zero) continue;
      o << "<tr><td>" << esc(g.opName(*it)) << "</td><td>" << esc(deviceName(in.plan.device[*it])) << "</td><td class=n>"
        << ms(a.opSlack[*it]) << "</td></tr>\n";
      ++rows;
    }
    o << "</table>\n";
  };
  slackTable("least slack (nearly critical)", bySlack.begin(), bySlack.end());
  slackTable("most slack", bySlack.rbegin(), bySlack.rend());

  o << "<h2>Suggested moves</h2>\n";
  if (in.suggestions.empty()) o << "<p>None of the moves tried from the critical path shortens the step.</p>\n";
  else {
    o << "<table><tr><th>#</th><th>move</th><th>kind</th><th>ops</th><th>step ms after</th><th>change</th></tr>\n";
    for (size_t i = 0; i < in.suggestions.size(); ++i) {
      const Suggestion& s = in.suggestions[i];
      std::string what = s.move.what;
      if (s.move.kind == PlanMove::Kind::Op || s.move.kind == PlanMove::Kind::Scope) what += " -> " + deviceName(s.move.device);
      o << "<tr><td class=n>" << i + 1 << "</td><td>" << esc(what) << "</td><td>" << moveKindName(s.move.kind)
        << "</td><td class=n>" << s.move.ops.size() << "</td><td class=n>" << ms(s.stepTime) << "</td><td class=n>"
        << num("%+.1f %%", -100 * (1 - s.stepTime / step)) << "</td></tr>\n";
    }
    o << "</table>\n";
  }
  o << "<p style=\"color:#777\">Simulated by graphplace: every figure here is the simulator's, not a measurement.</p>\n"
    << "</body></html>\n";
  return o.str();
}

void writePlanReport(const PlanReportInput& in, const std::string& path) {
  const std::string html = planReportHtml(in);
  std::ofstream f(path, std::ios::binary);
  if (!f || !(f << html) || !f.flush()) throw Error(path, "cannot write the plan report");
}

}  // namespace gp
