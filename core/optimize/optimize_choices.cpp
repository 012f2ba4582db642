#include "optimize/optimize_choices.h"

#include <array>
#include <utility>

namespace gp {
namespace {

// An enum's words, in one table per enum: parse and toString read the same one.
template <class E, size_t N>
std::optional<E> find(const std::array<std::pair<E, const char*>, N>& words, const std::string& text) {
  for (const auto& [value, word] : words)
    if (text == word) return value;
  return std::nullopt;
}

template <class E, size_t N>
std::string wordOf(const std::array<std::pair<E, const char*>, N>& words, E value) {
  for (const auto& [v, word] : words)
    if (v == value) return word;
  return {};
}

constexpr std::array<std::pair<PolicyKind, const char*>, 4> kPolicyWords{{{PolicyKind::Search, "search"},
                                                                         {PolicyKind::Pretrained, "pretrained"},
                                                                         {PolicyKind::Scratch, "scratch"},
                                                                         {PolicyKind::ColocRL, "colocrl"}}};
constexpr std::array<std::pair<FuseMode, const char*>, 3> kFuseWords{
    {{FuseMode::None, "none"}, {FuseMode::Default, "default"}, {FuseMode::Plan, "plan"}}};
constexpr std::array<std::pair<StopReason, const char*>, 5> kStopWords{{{StopReason::Iterations, "iterations"},
                                                                       {StopReason::Budget, "budget"},
                                                                       {StopReason::Converged, "converged"},
                                                                       {StopReason::Cancelled, "cancelled"},
                                                                       {StopReason::ZeroShot, "zero-shot"}}};
constexpr std::array<std::pair<PretrainMethod, const char*>, 2> kMethodWords{
    {{PretrainMethod::Expert, "expert"}, {PretrainMethod::Ppo, "ppo"}}};

}  // namespace

PolicyChoice parsePolicy(const std::string& text) {
  if (text.empty() || text == "default") return {};
  if (std::optional<PolicyKind> kind = find(kPolicyWords, text)) return {*kind, {}};
  return {PolicyKind::File, text};
}

std::string toString(const PolicyChoice& policy) {
  return policy.kind == PolicyKind::File ? policy.path : wordOf(kPolicyWords, policy.kind);
}

std::optional<FuseMode> parseFuse(const std::string& text) { return find(kFuseWords, text); }
std::string toString(FuseMode fuse) { return wordOf(kFuseWords, fuse); }

std::optional<StopReason> parseStopReason(const std::string& text) { return find(kStopWords, text); }
std::string toString(StopReason reason) { return wordOf(kStopWords, reason); }

std::optional<PretrainMethod> parsePretrainMethod(const std::string& text) { return find(kMethodWords, text); }
std::string toString(PretrainMethod method) { return wordOf(kMethodWords, method); }

}  // namespace gp
