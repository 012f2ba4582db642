#include "launch/launch_config.h"

#include <algorithm>
#include <charconv>
#include <cctype>
#include <cstdio>
#include <string_view>

#include "base/error.h"

namespace gp {

int64_t launchCount(const std::string& text, const std::string& source, const std::string& what) {
  int64_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n < 1 || n > kMaxLaunchCount)
    throw Error(source, what + " must be a whole number 1 .. 2^20, got '" + text + "'");
  return n;
}

std::string launchHeader(const ParallelPlan& p, const LaunchContext& ctx, const std::string& title, const std::string& names,
                         const std::string& target, const std::vector<std::string>& inexact) {
  char line[512];
  std::snprintf(line, sizeof line, "# %s from graphplace: %s on %s, global batch %lld,\n", title.c_str(), ctx.model.c_str(),
                ctx.cluster.c_str(), static_cast<long long>(ctx.globalBatch));
  std::string t = line;
  std::snprintf(line, sizeof line, "# dp %d x cp %d x tp %d x pp %d (%d GPUs)", p.dp, p.cp, p.tp, p.pp, p.devicesUsed());
  t += line;
  if (ctx.stepSeconds > 0) {
    std::snprintf(line, sizeof line, "; simulated step %.3f s, peak %.1f GiB per GPU", ctx.stepSeconds, ctx.peakGiB);
    t += line;
  }
  t += ".\n# " + names + "\n";
  if (!inexact.empty()) {
    t += "# Not exactly expressible in " + target + ":\n";
    for (const std::string& n : inexact) t += "#   - " + n + "\n";
  }
  return t;
}

std::vector<std::string> shellWords(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;
  char quote = 0;
  auto finish = [&] {
    if (!inWord) return;
    // A bash array's brackets: "ARGS=(" starts it, ")" ends it.
    if (word == "(" || word == ")" || (word.size() > 2 && word.ends_with("=("))) word.clear();
    else if (word.size() > 1 && word.ends_with(")") && word.find('(') == std::string::npos) word.pop_back();
    if (!word.empty()) words.push_back(word);
    word.clear();
    inWord = false;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (quote) {
      if (ch == quote) quote = 0;
      else word += ch;
      continue;
    }
    if (ch == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {  // a continued line
      ++i;
      continue;
    }
    if (ch == '\'' || ch == '"') {
      quote = ch, inWord = true;
      continue;
    }
    if (ch == '#' && !inWord) {  // a comment to the end of the line
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == ';') {
      finish();
      continue;
    }
    word += ch, inWord = true;
  }
  finish();
  return words;
}

std::map<std::string, std::string> pythonAssignments(const std::string& text, const std::string& prefix) {
  std::map<std::string, std::string> values;
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line(text.data() + at, end - at);
    at = end + 1;
    const size_t start = line.find_first_not_of(" \t");
    if (start == std::string_view::npos || !line.substr(start).starts_with(prefix)) continue;
    line.remove_prefix(start + prefix.size());
    size_t k = 0;
    while (k < line.size() && (std::isalnum(static_cast<unsigned char>(line[k])) || line[k] == '_' || line[k] == '.')) ++k;
    const std::string key(line.substr(0, k));
    line.remove_prefix(k);
    const size_t eq = line.find_first_not_of(" \t");
    if (key.empty() || eq == std::string_view::npos || line[eq] != '=' || (eq + 1 < line.size() && line[eq + 1] == '=')) continue;
    line.remove_prefix(eq + 1);
    char quote = 0;
    size_t stop = 0;
    for (; stop < line.size(); ++stop) {
      const char c = line[stop];
      if (quote) quote = c == quote ? 0 : quote;
      else if (c == '"' || c == '\'') quote = c;
      else if (c == '#') break;
    }
    std::string_view value = line.substr(0, stop);
    const size_t a = value.find_first_not_of(" \t\r"), b = value.find_last_not_of(" \t\r");
    values[key] = a == std::string_view::npos ? "" : std::string(value.substr(a, b - a + 1));
  }
  return values;
}

std::string unquoted(std::string v) {
  v.erase(0, v.find_first_not_of(" \t\"'"));
  v.erase(v.find_last_not_of(" \t\r\"'") + 1);
  return v;
}

int64_t positiveOrZero(const std::string& v) {
  int64_t n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  return ec == std::errc() && end == v.data() + v.size() && n > 0 ? n : 0;
}

}  // namespace gp
