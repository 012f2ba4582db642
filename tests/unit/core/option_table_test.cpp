// session/option_table.h: values checked against their declarations when read, defaults from the
// declarations, the usage text made from them.
#include "session/option_table.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace gp {
namespace {

CommandSpec sample() {
  OptionSpec dim{"--dim", OptionType::Text, "NAME=VALUE", "binds a dimension"};
  dim.repeats = true;
  OptionSpec fuse{"--fuse", OptionType::Choice, "", "the fusion"};
  fuse.choices = {"default", "none", "plan"};
  fuse.fallback = "plan";
  OptionSpec budget{"--budget-seconds", OptionType::Number, "S", "wall time", 0, 1e6, "60"};
  budget.aboveMin = true;
  return {"demo",
          {"MODEL --cluster PRESET|FILE [options]"},
          "Simulates a step.",
          {{"--top", OptionType::Count, "N", "moves listed", 1, 1e6, "10"},
           {"--warmup", OptionType::Count, "N", "steps first", 0, 1e6, "3"},
           {"--tasks", OptionType::Count, "N", "stacks", 1, 1024, "48"},
           {"--share", OptionType::Number, "F", "a share", 0, 1, "0.2"},
           {"--lambda", OptionType::Number, "L", "a penalty", 0, 1e9},
           {"--seed", OptionType::Seed, "N", "the seed", 0, 0, "1"},
           budget,
           fuse,
           dim,
           {"--cluster", OptionType::Text, "PRESET|FILE", "the cluster"},
           {"--json", OptionType::Switch, "", "print JSON"}}};
}

std::string why(const std::vector<std::string>& argv) {
  const CommandSpec spec = sample();
  try {
    parseCommandLine(argv, spec);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(OptionTable, WholeNumbersRefuseFractionsAndNameTheFlag) {
  EXPECT_EQ(why({"--top", "1.5"}), "--top needs a positive integer, got '1.5'");
  EXPECT_EQ(why({"--top", "0"}), "--top needs a positive integer, got '0'");
  EXPECT_EQ(why({"--warmup", "-1"}), "--warmup needs a whole number 0 or more, got '-1'");
  EXPECT_EQ(why({"--tasks", "2000"}), "--tasks needs a whole number 1 .. 1024, got '2000'");
  EXPECT_EQ(why({"--seed", "1.5"}), "--seed needs a whole number 0 .. 18446744073709551615, got '1.5'");
  EXPECT_EQ(why({"--seed", "-3"}), "--seed needs a whole number 0 .. 18446744073709551615, got '-3'");
  EXPECT_EQ(why({"--seed", "18446744073709551615"}), "");
  EXPECT_EQ(why({"--top", " 3"}), "--top needs a positive integer, got ' 3'");
}

TEST(OptionTable, NumbersAndChoicesAreCheckedAgainstTheirDeclaration) {
  EXPECT_EQ(why({"--share", "1.5"}), "--share needs a number 0 .. 1, got '1.5'");
  EXPECT_EQ(why({"--share", "nan"}), "--share needs a number 0 .. 1, got 'nan'");
  EXPECT_EQ(why({"--lambda", "-1"}), "--lambda needs a number >= 0, got '-1'");
  EXPECT_EQ(why({"--budget-seconds", "0"}), "--budget-seconds wants a positive number, got '0'");
  EXPECT_EQ(why({"--budget-seconds", "-1"}), "--budget-seconds wants a positive number, got '-1'");
  EXPECT_EQ(why({"--fuse", "all"}), "--fuse wants default, none or plan, got 'all'");
  EXPECT_EQ(why({"--share", "0.5", "--budget-seconds=2.5", "--fuse", "none"}), "");
}

TEST(OptionTable, UnknownOptionsMissingValuesAndSwitchValuesAreOneLine) {
  EXPECT_EQ(why({"--nope"}), "unknown option --nope");
  EXPECT_EQ(why({"--top"}), "--top needs a value");
  EXPECT_EQ(why({"--json=1"}), "--json takes no value");
}

TEST(OptionTable, DefaultsComeFromTheDeclaration) {
  const CommandSpec spec = sample();
  const CommandLine none = parseCommandLine({"zoo:gnmt"}, spec);
  EXPECT_EQ(none.positional, std::vector<std::string>{"zoo:gnmt"});
  EXPECT_EQ(none.integer("--top"), 10);
  EXPECT_EQ(none.integer("--warmup"), 3);
  EXPECT_DOUBLE_EQ(none.number("--share"), 0.2);
  EXPECT_DOUBLE_EQ(none.number("--budget-seconds"), 60);
  EXPECT_EQ(none.seed("--seed"), 1u);
  EXPECT_EQ(none.text("--fuse"), "plan");
  EXPECT_FALSE(none.has("--top"));
  EXPECT_FALSE(none.value("--top"));
  EXPECT_EQ(none.integer("--top", 99), 99);  // a fallback the command computes
  EXPECT_THROW(none.text("--cluster"), std::logic_error);   // declared without a default
  EXPECT_THROW(none.integer("--nope"), std::logic_error);   // not declared: the program's error

  const CommandLine given = parseCommandLine(
      {"--top", "4", "--seed=7", "--fuse", "none", "--dim", "a=1", "--dim", "b=2", "--json", "m", "--"}, spec);
  EXPECT_EQ(given.integer("--top"), 4);
  EXPECT_EQ(given.seed("--seed"), 7u);
  EXPECT_EQ(given.text("--fuse"), "none");
  EXPECT_EQ(given.value("--dim"), "a=1,b=2");
  EXPECT_TRUE(given.has("--json"));
  EXPECT_FALSE(given.value("--json"));
  EXPECT_EQ(given.positional, (std::vector<std::string>{"m", "--"}));
}

TEST(OptionTable, UsageListsFormsOptionsAndDefaults) {
  const std::string u = commandUsage("prog", sample());
  EXPECT_EQ(u.rfind("  prog demo MODEL --cluster PRESET|FILE [options]\n      Simulates a step.\n", 0), 0u) << u;
  EXPECT_NE(u.find("      --top N"), std::string::npos) << u;
  EXPECT_NE(u.find("moves listed (default 10)"), std::string::npos) << u;
  EXPECT_NE(u.find("      --fuse default|none|plan"), std::string::npos) << u;
  EXPECT_NE(u.find("      --json" + std::string(28, ' ') + "print JSON\n"), std::string::npos) << u;
  for (size_t at = 0, next; at < u.size(); at = next + 1) {
    next = u.find('\n', at);
    EXPECT_LE(next - at, 100u) << u.substr(at, next - at);
  }
}

TEST(OptionTable, ALaterDeclarationNarrowsASharedOne) {
  const std::vector<OptionSpec> joined =
      joinOptions({{{"--layers", OptionType::Count, "N", "depth", 1, 1e6}, {"--json", OptionType::Switch}},
                   {{"--layers", OptionType::Count, "N", "GNN layers", 0, 1e6, "3"}}});
  ASSERT_EQ(joined.size(), 2u);
  EXPECT_EQ(joined[0].help, "GNN layers");
  EXPECT_EQ(joined[0].min, 0);
}

}  // namespace
}  // namespace gp
