#include "launch/launch_precision.h"

#include <nlohmann/json.hpp>
#include <toml++/toml.h>
#include <yaml-cpp/yaml.h>

#include "base/error.h"
#include "launch/launch_config.h"
#include "launch/launch_formats.h"

namespace gp {

namespace {

LaunchPrecision torchtitanParam(const std::string& value, const std::string& source, const std::string& key) {
  if (value == "bfloat16") return {Precision::BF16, key + " = \"bfloat16\""};
  if (value == "float32") return {Precision::FP32, key + " = \"float32\""};
  throw Error(source, key + " must be \"bfloat16\" or \"float32\", got \"" + value + "\"");
}

}  // namespace

std::optional<LaunchPrecision> megatronPrecision(const std::string& text, const std::string& /*source*/) {
  bool bf16 = false, fp16 = false;
  for (const std::string& w : shellWords(text)) bf16 = bf16 || w == "--bf16", fp16 = fp16 || w == "--fp16";
  if (bf16) return LaunchPrecision{Precision::BF16, "--bf16"};
  if (fp16) return LaunchPrecision{Precision::FP16, "--fp16"};
  return LaunchPrecision{Precision::FP32, "no --bf16 or --fp16"};
}

std::optional<LaunchPrecision> deepspeedPrecision(const std::string& text, const std::string& source) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object()) throw Error(source, "not a JSON object");
  auto enabled = [&](const char* key) {
    if (!j.contains(key)) return false;
    const nlohmann::json& e = j[key].is_object() && j[key].contains("enabled") ? j[key]["enabled"] : nlohmann::json();
    if (e.is_boolean()) return e.get<bool>();
    if (e.is_string() && e.get<std::string>() == "auto")
      throw Error(source, std::string(key) + ".enabled is \"auto\" (Hugging Face's Trainer fills it in): say true or false");
    return false;
  };
  if (enabled("bf16")) return LaunchPrecision{Precision::BF16, "bf16.enabled: true"};
  if (enabled("fp16")) return LaunchPrecision{Precision::FP16, "fp16.enabled: true"};
  return LaunchPrecision{Precision::FP32, "neither bf16 nor fp16 enabled"};
}

std::optional<LaunchPrecision> torchtitanPrecision(const std::string& text, const std::string& source) {
  toml::table cfg;
  try {
    cfg = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    throw Error(source, std::string(e.description()));
  }
  if (auto v = cfg["training"]["mixed_precision_param"].value<std::string>())
    return torchtitanParam(*v, source, "mixed_precision_param");
  return LaunchPrecision{Precision::BF16, "no mixed_precision_param (torchtitan's default bfloat16)"};
}

std::optional<LaunchPrecision> torchtitanPythonPrecision(const std::string& text, const std::string& source) {
  const auto v = pythonAssignments(text, "config.");
  if (auto it = v.find("training.mixed_precision_param"); it != v.end())
    return torchtitanParam(unquoted(it->second), source, "training.mixed_precision_param");
  return LaunchPrecision{Precision::BF16, "no training.mixed_precision_param (torchtitan's default bfloat16)"};
}

std::optional<LaunchPrecision> nemoPrecision(const std::string& text, const std::string& /*source*/) {
  const auto v = pythonAssignments(text, "recipe.");
  auto it = v.find("trainer.plugins");
  if (it == v.end()) return std::nullopt;
  if (it->second.find("bf16") != std::string::npos) return LaunchPrecision{Precision::BF16, "trainer.plugins = " + it->second};
  if (it->second.find("fp16") != std::string::npos) return LaunchPrecision{Precision::FP16, "trainer.plugins = " + it->second};
  return std::nullopt;
}

std::optional<LaunchPrecision> nemo1Precision(const std::string& text, const std::string& source) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw Error(source, e.msg);
  }
  const YAML::Node p = root["trainer"] ? root["trainer"]["precision"] : YAML::Node();
  if (!p || !p.IsScalar()) return LaunchPrecision{Precision::FP32, "no trainer.precision (Lightning's default 32)"};
  const std::string v = p.as<std::string>();
  const std::string said = "trainer.precision: " + v;
  if (v.starts_with("bf16")) return LaunchPrecision{Precision::BF16, said};
  if (v == "16" || v.starts_with("16-")) return LaunchPrecision{Precision::FP16, said};
  if (v == "32" || v.starts_with("32-")) return LaunchPrecision{Precision::FP32, said};
  throw Error(source, "trainer.precision must be bf16, 16 or 32 (with -mixed or -true), got " + v);
}

std::optional<LaunchPrecision> launchConfigPrecision(const std::string& text, const std::string& source) {
  return launchFormat(launchFormatOf(text)).precision(text, source);
}

}  // namespace gp
