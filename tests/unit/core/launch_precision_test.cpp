// The precision a launch configuration trains in, read as each framework reads its own file.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "base/error.h"
#include "launch/launch_precision.h"
#include "test_paths.h"

using namespace gp;

namespace {

std::string golden(const char* name) {
  std::ifstream in(gptest::dataPath(std::string("launch/") + name));
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

Precision precisionOf(const std::string& text) {
  const auto p = launchConfigPrecision(text, "f");
  EXPECT_TRUE(p.has_value());
  return p ? p->precision : Precision::TF32;
}

std::string errorOf(const std::string& text) {
  try {
    launchConfigPrecision(text, "f");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(LaunchPrecision, MegatronTrainsInFp32WithoutBf16OrFp16) {
  const std::string args = golden("megatron.sh");
  ASSERT_NE(args.find("--bf16"), std::string::npos);
  EXPECT_EQ(precisionOf(args), Precision::BF16);
  EXPECT_EQ(precisionOf(replaced(args, "--bf16", "--fp16")), Precision::FP16);
  const auto fp32 = launchConfigPrecision(replaced(args, "--bf16", ""), "f");
  ASSERT_TRUE(fp32);
  EXPECT_EQ(fp32->precision, Precision::FP32);
  EXPECT_EQ(fp32->said, "no --bf16 or --fp16");
}

TEST(LaunchPrecision, DeepSpeedReadsItsEnabledSections) {
  EXPECT_EQ(precisionOf(golden("deepspeed.json")), Precision::BF16);
  EXPECT_EQ(precisionOf(R"({"train_batch_size": 8, "fp16": {"enabled": true, "loss_scale": 0}})"), Precision::FP16);
  EXPECT_EQ(precisionOf(R"({"train_batch_size": 8, "bf16": {"enabled": false}})"), Precision::FP32);
  EXPECT_EQ(errorOf(R"({"train_batch_size": 8, "bf16": {"enabled": "auto"}})"),
            "f: bf16.enabled is \"auto\" (Hugging Face's Trainer fills it in): say true or false");
}

TEST(LaunchPrecision, TorchtitanDefaultsToBfloat16) {
  const std::string toml = golden("torchtitan.toml");
  EXPECT_EQ(precisionOf(toml), Precision::BF16);
  EXPECT_EQ(precisionOf(replaced(toml, "mixed_precision_param = \"bfloat16\"", "mixed_precision_param = \"float32\"")),
            Precision::FP32);
  EXPECT_EQ(precisionOf(replaced(toml, "mixed_precision_param = \"bfloat16\"\n", "")), Precision::BF16);
  EXPECT_EQ(errorOf(replaced(toml, "\"bfloat16\"", "\"float16\"")),
            "f: mixed_precision_param must be \"bfloat16\" or \"float32\", got \"float16\"");
  EXPECT_EQ(precisionOf(golden("torchtitan.py")), Precision::BF16);
}

TEST(LaunchPrecision, NemoReadsItsPluginOrTrainerPrecision) {
  const std::string recipe = golden("nemo.py");
  EXPECT_EQ(precisionOf(recipe), Precision::BF16);
  EXPECT_EQ(precisionOf(replaced(recipe, "= bf16_mixed()", "= fp16_mixed()")), Precision::FP16);
  EXPECT_FALSE(launchConfigPrecision(replaced(recipe, "    recipe.trainer.plugins = bf16_mixed()\n", ""), "f"));
  const std::string yaml = golden("nemo1.yaml");
  EXPECT_EQ(precisionOf(yaml), Precision::BF16);
  EXPECT_EQ(precisionOf(replaced(yaml, "precision: bf16", "precision: 16-mixed")), Precision::FP16);
  EXPECT_EQ(precisionOf(replaced(yaml, "precision: bf16", "precision: 32")), Precision::FP32);
  EXPECT_EQ(errorOf(replaced(yaml, "precision: bf16", "precision: half")),
            "f: trainer.precision must be bf16, 16 or 32 (with -mixed or -true), got half");
}
