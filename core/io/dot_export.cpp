// DOT export (see dot_export.h).
#include "io/dot_export.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "base/device_palette.h"

namespace gp {
namespace {

// cgraph's quoted strings: `\"` is a quote, `\\` stays two backslashes, backslash-newline is
// removed (line continuation), any other backslash is kept. So "s" with its quotes escaped
// reads back as s unless a run of an odd number of backslashes ends at a quote, a newline or
// the end of s.
bool quotable(std::string_view s) {
  size_t run = 0;
  for (char ch : s) {
    if (ch == '\\') {
      ++run;
      continue;
    }
    if ((ch == '"' || ch == '\n') && run % 2 == 1) return false;
    run = 0;
  }
  return run % 2 == 0;
}

// Graphviz HTML strings <...> keep their text as is, as long as its angle brackets nest.
bool anglesNest(std::string_view s) {
  int depth = 0;
  for (char ch : s) {
    if (ch == '<') ++depth;
    if (ch == '>' && --depth < 0) return false;
  }
  return depth == 0;
}

void appendId(std::string& out, std::string_view s) {
  if (quotable(s)) {
    out += '"';
    for (char ch : s) {
      if (ch == '"') out += '\\';
      out += ch;
    }
    out += '"';
  } else if (anglesNest(s)) {
    out += '<';
    out += s;
    out += '>';
  } else {
    throw std::invalid_argument("graphToDot: the name \"" + std::string(s) +
                                "\" cannot be written in DOT (odd backslash run before a quote and "
                                "unbalanced angle brackets)");
  }
}

// Label text for display: backslashes doubled (so Graphviz shows them, not escapes), newlines
// as Graphviz's \n.
std::string labelText(std::string_view s) {
  std::string out;
  for (char ch : s) {
    if (ch == '\\') {
      out += "\\\\";
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch != '\r') {
      out += ch;
    }
  }
  return out;
}

std::string htmlText(std::string_view s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\n':
        out += ' ';
        break;
      default:
        out += ch;
    }
  }
  return out;
}

std::string number(double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::string("0");
}

std::string humanBytes(int64_t bytes) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : (v < 10 ? "%.1f %s" : "%.0f %s"), v, units[u]);
  return buf;
}

// Black text on light fills, white on dark (relative luminance of the sRGB bytes).
const char* textColor(uint32_t rgb) {
  const double r = (rgb >> 16) & 0xff, gr = (rgb >> 8) & 0xff, b = rgb & 0xff;
  return 0.299 * r + 0.587 * gr + 0.114 * b < 140 ? "#ffffff" : "#000000";
}

void appendAttr(std::string& out, bool& first, const char* key, std::string_view value) {
  out += first ? " [" : ", ";
  first = false;
  out += key;
  out += '=';
  appendId(out, value);
}

std::string legend(const Graph& g, const Cluster& c, bool placed) {
  std::string out = "<<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"4\">";
  const int perRow = 8;
  const int cols = placed ? std::min(std::max(c.numDevices(), 1), perRow) : 1;
  out += "<TR><TD BORDER=\"0\" COLSPAN=\"" + std::to_string(cols) + "\"><B>" + htmlText(g.name()) + "</B>";
  if (placed) out += " on " + htmlText(c.name());
  out += "</TD></TR>";
  if (placed) {
    for (int d = 0; d < c.numDevices(); ++d) {
      if (d % perRow == 0) out += "<TR>";
      out += "<TD BGCOLOR=\"" + deviceColorHex(d) + "\"><FONT COLOR=\"" + textColor(deviceColorRgb(d)) + "\">" +
             htmlText(c.device(d).name) + "</FONT></TD>";
      if (d % perRow == perRow - 1 || d + 1 == c.numDevices()) out += "</TR>";
    }
  }
  return out + "</TABLE>>";
}

}  // namespace

std::string graphToDot(const Graph& g, const Plan& plan, const Cluster& c) {
  const bool placed = !plan.device.empty();
  const auto n = static_cast<size_t>(g.numOps());
  if (placed) {
    if (plan.device.size() != n) throw std::invalid_argument("graphToDot: plan.device does not cover the graph");
    for (int32_t d : plan.device)
      if (d < 0 || d >= c.numDevices()) throw std::invalid_argument("graphToDot: plan device out of range");
  }
  const bool hasPriority = placed && plan.priority.size() == n;
  const bool hasFusion = placed && plan.fusionGroup.size() == n;

  std::string out;
  out.reserve(n * 160);
  out += "digraph ";
  appendId(out, g.name());
  out += " {\n  graph [label=" + legend(g, c, placed) + ", labelloc=t, fontname=\"Helvetica\"];\n";
  out += "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10];\n";
  out += "  edge [fontname=\"Helvetica\", fontsize=8];\n";

  for (OpId op = 0; op < g.numOps(); ++op) {
    const std::string& name = g.opName(op);
    const size_t slash = name.find_last_of('/');
    std::string_view shortName = name;
    if (slash != std::string::npos && slash + 1 < name.size()) shortName.remove_prefix(slash + 1);
    int64_t bytes = 0;
    for (TensorId t : g.outputs(op)) bytes += g.tensorBytes(t);

    out += "  ";
    appendId(out, name);
    bool first = true;
    appendAttr(
        out, first, "label",
        shortName == g.opType(op) ? labelText(shortName) : labelText(shortName) + "\\n" + labelText(g.opType(op)));
    appendAttr(out, first, "op", g.opType(op));
    appendAttr(out, first, "flops", number(g.flops(op)));
    if (g.costEstimated(op)) appendAttr(out, first, "cost_estimated", "true");
    appendAttr(out, first, "bytes", std::to_string(bytes));
    if (placed) {
      const int32_t d = plan.device[op];
      appendAttr(out, first, "device", c.device(d).name);
      appendAttr(out, first, "device_index", std::to_string(d));
      if (hasPriority) appendAttr(out, first, "priority", std::to_string(plan.priority[op]));
      if (hasFusion && plan.fusionGroup[op] >= 0)
        appendAttr(out, first, "fusion_group", std::to_string(plan.fusionGroup[op]));
      appendAttr(out, first, "fillcolor", deviceColorHex(d));
      appendAttr(out, first, "fontcolor", textColor(deviceColorRgb(d)));
    } else {
      appendAttr(out, first, "fillcolor", "#eeeeee");
    }
    out += "];\n";
  }

  // Edges: per consumer, its producers in first-read order with the bytes of the distinct
  // tensors it reads from each.
  std::vector<std::pair<OpId, int64_t>> producers;
  std::vector<TensorId> seen;
  for (OpId v = 0; v < g.numOps(); ++v) {
    producers.clear();
    seen.clear();
    for (TensorId t : g.inputs(v)) {
      const OpId u = g.producer(t);
      if (u == kNone || u == v) continue;
      bool dup = false;
      for (TensorId s : seen) dup = dup || s == t;
      if (dup) continue;
      seen.push_back(t);
      auto it = producers.begin();
      while (it != producers.end() && it->first != u) ++it;
      if (it == producers.end())
        producers.emplace_back(u, g.tensorBytes(t));
      else
        it->second += g.tensorBytes(t);
    }
    for (const auto& [u, bytes] : producers) {
      out += "  ";
      appendId(out, g.opName(u));
      out += " -> ";
      appendId(out, g.opName(v));
      bool first = true;
      appendAttr(out, first, "bytes", std::to_string(bytes));
      appendAttr(out, first, "label", humanBytes(bytes));
      out += "];\n";
    }
  }
  out += "}\n";
  return out;
}

}  // namespace gp
