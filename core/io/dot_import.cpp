// Graphviz DOT import via cgraph.
//
// Every node is one op named exactly as the node (so a graph written by our DOT exporter
// comes back with the same names); its type is the node attribute `op` ("Op" when absent;
// `label` is display text and is ignored). Each op has one output tensor "<node>:0"; an edge
// u -> v makes v read u's output (several u -> v edges count once). Optional node attributes:
// `flops` (number, e/E notation allowed), `bytes` (bytes of the node's output tensor) and
// `device` (the device the file asks for). Defaults set with `node [op=...]` apply as DOT
// defines them. Subgraphs and clusters are flattened: their nodes are ordinary ops and the
// cluster structure is not used (op names are the node names, unprefixed). Edge and graph
// attributes are ignored; a file holding several graphs gives its first.
//
// Rejected with one line naming the problem: syntax errors (with cgraph's own message and
// line), undirected graphs, self loops, bad `flops` / `bytes` values, graphs without nodes,
// and cycles (reported by GraphBuilder).
#include "io/dot_import.h"

#include <graphviz/cgraph.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <mutex>
#include <sstream>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "base/error.h"
#include "base/input_limits.h"
#include "graph/graph_builder.h"
#include "base/file_text.h"

namespace gp {
namespace {

// cgraph keeps its parser and error state in globals: one DOT import at a time.
std::mutex& cgraphMutex() {
  static std::mutex m;
  return m;
}

// cgraph hands every message (errors and warnings) here in pieces while a parse runs.
std::string* capturedMessages = nullptr;
int captureMessage(char* piece) {
  if (capturedMessages && piece) capturedMessages->append(piece);
  return 0;
}

// Parses `text` with cgraph (the caller holds cgraphMutex); messages go to `messages`
// instead of stderr.
Agraph_t* parseDot(const std::string& text, std::string& messages) {
  capturedMessages = &messages;
  agusererrf previous = agseterrf(captureMessage);
  agerrlevel_t previousLevel = agseterr(AGWARN);
  agsetfile(nullptr);  // no file prefix in messages; line numbers from 1
  agreadline(1);
  Agraph_t* g = agmemread(text.c_str());
  // cgraph's lexer keeps what it has not consumed (a second graph in the text, or the rest
  // after a "memory exhausted" abort) and would hand it to the next parse. Read it to the end
  // now; an empty read or an error flushes the lexer.
  std::string ignored;
  capturedMessages = &ignored;
  for (int i = 0; i < 10000; ++i) {
    Agraph_t* rest = agmemread("");
    if (!rest) break;
    agclose(rest);
  }
  agseterr(previousLevel);
  agseterrf(previous);
  capturedMessages = nullptr;
  return g;
}

struct GraphCloser {
  void operator()(Agraph_t* g) const { agclose(g); }
};

bool validUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > s.size()) return false;
    for (size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return false;
    i += len;
  }
  return true;
}

// cgraph quotes the offending input: binary garbage becomes \xNN so the message stays one
// readable line.
std::string printable(const std::string& s) {
  const bool utf8 = validUtf8(s);
  std::string out;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\n' || (c >= 0x20 && c != 0x7f && (c < 0x80 || utf8))) {
      out += ch;
    } else {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 0xf];
    }
  }
  return out;
}

// cgraph's messages, split into errors and warnings, without their "Error: " prefixes.
struct CgraphMessages {
  std::vector<std::string> errors, warnings;
};
CgraphMessages splitMessages(const std::string& raw) {
  CgraphMessages m;
  std::istringstream in(printable(raw));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Error: ", 0) == 0)
      m.errors.push_back(line.substr(7));
    else if (line.rfind("Warning: ", 0) == 0)
      m.warnings.push_back(line.substr(9));
    else if (!line.empty())
      (m.errors.empty() ? m.warnings : m.errors).push_back(line);
  }
  return m;
}

// "syntax error near line N: cgraph says \"...\"" when cgraph names a line; a warning that
// came first (such as "badly delimited number") is added since it usually is the cause.
std::string describeParseFailure(const std::string& messages, const std::string& text) {
  const CgraphMessages m = splitMessages(messages);
  if (m.errors.empty() && m.warnings.empty()) {
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) return "empty file: no DOT graph in it";
    return "not a DOT graph (cgraph read nothing)";
  }
  const std::string& what = m.errors.empty() ? m.warnings.front() : m.errors.front();
  std::string said = "cgraph says \"" + what + "\"";
  if (!m.errors.empty() && !m.warnings.empty()) said += " after warning \"" + m.warnings.front() + "\"";
  auto at = what.find("line ");
  if (at != std::string::npos) {
    int line = 0;
    const char* p = what.c_str() + at + 5;
    if (std::from_chars(p, what.c_str() + what.size(), line).ec == std::errc()) {
      const bool syntax = what.find("syntax error") != std::string::npos;
      return (syntax ? "syntax error near line " : "cannot parse DOT near line ") + std::to_string(line) +
             ": " + said;
    }
  }
  return "cannot parse DOT: " + said;
}

std::string attr(void* obj, const char* name) {
  const char* v = agget(obj, const_cast<char*>(name));
  return v ? std::string(v) : std::string();
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// A finite, non-negative number ("1.5e9", "2E6", "100"); nullopt-like -1 on garbage.
double parseNonNegative(std::string_view text) {
  text = trim(text);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v < 0)
    return -1;
  return v;
}

class DotGraphReader {
 public:
  DotGraphReader(Agraph_t* g, const std::string& source) : g_(g), source_(source), b_(source) {}

  Graph read() {
    if (!agisdirected(g_)) fail("undirected graph; graphplace needs a digraph");
    for (Agnode_t* n = agfstnode(g_); n; n = agnxtnode(g_, n)) addNode(n);
    if (b_.numOps() == 0) fail("no nodes");
    std::string name = agnameof(g_) ? agnameof(g_) : "";
    if (name.empty() || name.front() == '%') name = std::filesystem::path(source_).stem().string();
    return std::move(b_).build(name);
  }

 private:
  [[noreturn]] void fail(const std::string& problem) const { throw Error(source_, problem); }

  void addNode(Agnode_t* n) {
    const std::string name = agnameof(n);
    OpDesc op;
    op.name = name;
    op.type = attr(n, "op");
    if (trim(op.type).empty()) op.type = "Op";
    op.device = std::string(trim(attr(n, "device")));
    if (std::string f = attr(n, "flops"); !trim(f).empty()) {
      op.flops = parseNonNegative(f);
      if (op.flops < 0) fail("node '" + name + "': flops \"" + f + "\" is not a non-negative number");
    }
    TensorDesc out;
    out.shapeKnown = false;
    out.dtype = DType::Unknown;
    out.bytes = 0;
    if (std::string bytes = attr(n, "bytes"); !trim(bytes).empty()) {
      const double v = parseNonNegative(bytes);
      if (v < 0 || v != std::floor(v) || v >= 9.2e18)
        fail("node '" + name + "': bytes \"" + bytes + "\" is not a non-negative whole number");
      out.bytes = static_cast<int64_t>(v);
    }
    op.outputs.push_back(std::move(out));
    std::unordered_set<std::string> seen;
    for (Agedge_t* e = agfstin(g_, n); e; e = agnxtin(g_, e)) {
      Agnode_t* tail = agtail(e);
      if (tail == n) fail("self loop on node '" + name + "'");
      std::string producer = agnameof(tail);
      if (seen.insert(producer).second) op.inputs.push_back(b_.tensorRef(producer + ":0"));
    }
    b_.addOp(std::move(op));
  }

  Agraph_t* g_;
  const std::string& source_;
  GraphBuilder b_;
};

// Refuses a text that names more distinct nodes than a model may have ops, or holds more than
// four edge operators per op (base/input_limits.h), before cgraph builds it: cgraph's memory
// grows with both. A light lexer of DOT's tokens (IDs, quoted and HTML strings, comments); an ID
// that is a keyword, an attribute name or value (next to '=') or a port (after ':') is not a
// node. Subgraph names and a name written both quoted and bare only make the count larger, so the
// bound never lets a larger graph through.
void checkDotSize(const std::string& text, const std::string& source) {
  const int64_t maxNodes = maxModelOps();
  std::unordered_set<std::string_view> names;
  int64_t edgeOps = 0;
  const size_t n = text.size();
  size_t i = 0;
  char previous = 0;  // the last punctuation seen, or 'I' after an ID
  auto isIdChar = [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '.' || c >= 0x80; };
  auto keyword = [](std::string_view w) {
    for (const char* k : {"graph", "digraph", "subgraph", "node", "edge", "strict"}) {
      if (w.size() != std::strlen(k)) continue;
      bool same = true;
      for (size_t j = 0; j < w.size() && same; ++j) same = std::tolower(static_cast<unsigned char>(w[j])) == k[j];
      if (same) return true;
    }
    return false;
  };
  auto nextSignificant = [&](size_t j) {
    while (j < n && std::isspace(static_cast<unsigned char>(text[j]))) ++j;
    return j < n ? text[j] : '\0';
  };
  while (i < n) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '/' && i + 1 < n && text[i + 1] == '/') {
      while (i < n && text[i] != '\n') ++i;
    } else if (c == '#' && (i == 0 || text[i - 1] == '\n')) {
      while (i < n && text[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < n && text[i + 1] == '*') {
      const size_t end = text.find("*/", i + 2);
      i = end == std::string::npos ? n : end + 2;
    } else if (c == '-' && i + 1 < n && (text[i + 1] == '>' || text[i + 1] == '-')) {
      if (++edgeOps > 4 * maxNodes)
        throw Error(source, "more than " + std::to_string(4 * maxNodes) + " edge operators, over the limit (" +
                                maxOpsHint() + ")");
      i += 2;
      previous = '>';
    } else if (c == '"' || c == '<' || isIdChar(static_cast<unsigned char>(c)) || c == '-') {
      const size_t start = i;
      if (c == '"') {
        for (++i; i < n && text[i] != '"'; ++i)
          if (text[i] == '\\') ++i;
        i = std::min(n, i + 1);
      } else if (c == '<') {
        int depth = 0;
        for (; i < n; ++i) {
          if (text[i] == '<') ++depth;
          if (text[i] == '>' && --depth == 0) break;
        }
        i = std::min(n, i + 1);
      } else {
        for (++i; i < n && isIdChar(static_cast<unsigned char>(text[i])); ++i) {
        }
      }
      const std::string_view id(text.data() + start, i - start);
      const bool node = previous != '=' && previous != ':' && nextSignificant(i) != '=' && !keyword(id);
      if (node && names.insert(id).second && static_cast<int64_t>(names.size()) > maxNodes)
        throw Error(source, "more than " + std::to_string(maxNodes) + " nodes, over the limit (" + maxOpsHint() + ")");
      previous = 'I';
    } else {
      previous = c;
      ++i;
    }
  }
}

}  // namespace

Graph importDotString(const std::string& text, const std::string& sourceName) {
  checkDotSize(text, sourceName);
  std::string messages;
  std::lock_guard lock(cgraphMutex());
  std::unique_ptr<Agraph_t, GraphCloser> g(parseDot(text, messages));
  // cgraph may return a partial graph after an error (e.g. "memory exhausted" on deep nesting).
  if (!g || !splitMessages(messages).errors.empty())
    throw Error(sourceName, describeParseFailure(messages, text));
  return DotGraphReader(g.get(), sourceName).read();
}

Graph importDot(const std::string& path) { return importDotString(readFileText(path, "a DOT file"), path); }

}  // namespace gp
