// graphplace-cli's option tables (app/cli/cli_option_tables.h): every declared option parses with
// a value of its type and is in the usage text; every flag the README and docs/ show on a
// graphplace-cli command line is declared for that command; bad values are one line naming the flag.
#include "cli/cli_option_tables.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "cli_runner.h"
#include "optimize/optimize.h"

namespace gp::cli {
namespace {

std::string sampleValue(const OptionSpec& o) {
  switch (o.type) {
    case OptionType::Count: return std::to_string(static_cast<int64_t>(o.min));
    case OptionType::Number: return o.aboveMin ? std::to_string(o.min + 0.5) : std::to_string(o.min);
    case OptionType::Seed: return "7";
    case OptionType::Choice: return o.choices.back();
    default: return "x";
  }
}

TEST(CliOptionTables, EveryDeclaredOptionParsesAndReadsBack) {
  for (const CommandSpec& spec : commandSpecs())
    for (const OptionSpec& o : spec.options) {
      std::vector<std::string> argv{o.name};
      if (o.type != OptionType::Switch) argv.push_back(sampleValue(o));
      CommandLine a;
      ASSERT_NO_THROW(a = parseCommandLine(argv, spec)) << spec.name << " " << o.name;
      EXPECT_TRUE(a.has(o.name)) << spec.name << " " << o.name;
      if (o.type == OptionType::Count) {
        EXPECT_EQ(a.integer(o.name), static_cast<int64_t>(o.min));
        EXPECT_THROW(parseCommandLine({o.name, "1.5"}, spec), std::invalid_argument) << spec.name << " " << o.name;
      }
      // A declared default is a value the declaration accepts.
      if (!o.fallback.empty() && o.type != OptionType::Text) {
        std::string why;
        if (o.type == OptionType::Count || o.type == OptionType::Number) {
          const double v = std::stod(o.fallback);  // a default below the range means "none" (--follow 0)
          if (v >= o.min) {
            EXPECT_TRUE(checkOptionValue(o, o.fallback, why)) << spec.name << " " << o.name << ": " << why;
          }
        } else {
          EXPECT_TRUE(checkOptionValue(o, o.fallback, why)) << spec.name << " " << o.name << ": " << why;
        }
      }
    }
}

// The usage's section of each command, from "  graphplace-cli NAME" to the next blank line.
std::map<std::string, std::string> usageSections() {
  std::ostringstream out;
  printUsage(out);
  std::map<std::string, std::string> sections;
  std::istringstream in(out.str());
  std::string current;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("  graphplace-cli ", 0) == 0) {
      const std::string rest = line.substr(17);
      current = rest.substr(0, rest.find(' '));
    } else if (line.empty()) {
      current.clear();
    }
    if (!current.empty()) sections[current] += line + "\n";
  }
  return sections;
}

TEST(CliOptionTables, TheUsageListsEveryOptionUnderItsCommand) {
  const auto sections = usageSections();
  ASSERT_EQ(sections.size(), commandSpecs().size());
  for (const CommandSpec& spec : commandSpecs()) {
    ASSERT_TRUE(sections.count(spec.name)) << spec.name;
    for (const OptionSpec& o : spec.options) {
      const std::string listed = o.group.empty() ? "      " + o.name + (o.type == OptionType::Switch ? "" : " ")
                                                 : "      [" + o.group + "]";
      EXPECT_NE(sections.at(spec.name).find(listed), std::string::npos) << spec.name << " " << o.name;
    }
  std::ostringstream out;
  printUsage(out);
  for (const OptionSpec& o : modelOptionSpecs()) {
    EXPECT_EQ(o.group, "model options");
    EXPECT_NE(out.str().find("\n  " + o.name + " "), std::string::npos) << o.name;
  }
  }
}

TEST(CliOptionTables, TheHelpIsTheTablesUsage) {
  std::ostringstream out;
  printUsage(out);
  const gptest::CliRun r = gptest::runCli("--help");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, out.str());
}

// Every "graphplace-cli COMMAND ... --flag" the README and docs/*.md show: the flag is one of the
// command's.
TEST(CliOptionTables, EveryDocumentedFlagIsDeclared) {
  const std::filesystem::path root = std::filesystem::path(GP_TEST_DATA_DIR).parent_path().parent_path();
  std::vector<std::filesystem::path> files{root / "README.md"};
  for (const auto& e : std::filesystem::directory_iterator(root / "docs"))
    if (e.path().extension() == ".md") files.push_back(e.path());
  const std::regex command(R"(graphplace-cli ([a-z][a-z-]*))");
  const std::regex flagRe(R"((^|[\s\[(|`])(--[a-z][a-z0-9-]*))");
  int checked = 0;
  for (const auto& file : files) {
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      if (!std::regex_search(line, m, command)) continue;
      const std::string name = m[1];
      const auto spec = std::find_if(commandSpecs().begin(), commandSpecs().end(), [&](const CommandSpec& s) { return s.name == name; });
      if (spec == commandSpecs().end()) continue;  // prose ("graphplace-cli is ...")
      // the command line: up to the end of its code span, a shell comment or the line
      std::string rest = m.suffix();
      if (const size_t tick = rest.find('`'); tick != std::string::npos) rest = rest.substr(0, tick);
      if (const size_t comment = rest.find(" #"); comment != std::string::npos) rest = rest.substr(0, comment);
      for (std::sregex_iterator it(rest.begin(), rest.end(), flagRe), end; it != end; ++it) {
        const std::string flag = (*it)[2];
        EXPECT_NE(spec->find(flag), nullptr) << file.filename() << ": " << name << " " << flag << "\n  " << line;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100);
}

TEST(CliOptionTables, DefaultsAreTheCoresOwn) {
  const OptimizeOptions o;
  const CommandSpec& optimize = commandSpec("optimize");
  EXPECT_EQ(optimize.find("--seed")->fallback, std::to_string(o.seed));
  EXPECT_EQ(optimize.find("--samples")->fallback, std::to_string(o.samplesPerIteration));
  EXPECT_EQ(std::stod(optimize.find("--polish-share")->fallback), o.polishShare);
  EXPECT_THROW(commandSpec("nonesuch"), std::logic_error);
}

TEST(CliOptionTables, BadValuesAreOneLineNamingTheFlag) {
  gptest::expectCliError("optimize zoo:rnnlm --cluster 4xP100-PCIe --seed 1.5", "--seed needs a whole number");
  gptest::expectCliError("pretrain --out /tmp/p.pt --seed 2.5", "--seed needs a whole number");
  gptest::expectCliError("costmodel train x --out y --seed 1e3", "--seed needs a whole number");
  gptest::expectCliError("optimize zoo:rnnlm --cluster 4xP100-PCIe --iterations 2.5", "--iterations needs a whole number");
  gptest::expectCliError("optimize zoo:rnnlm --cluster 4xP100-PCIe --polish-share 2", "--polish-share needs a number 0 .. 1");
  gptest::expectCliError("optimize zoo:rnnlm --cluster 4xP100-PCIe --fuse all", "--fuse wants default, none or plan");
  gptest::expectCliError("pretrain --out /tmp/p.pt --fuse plan", "--fuse wants none or default");
  gptest::expectCliError("pretrain-parallel --out /tmp/q.pt --tasks 2000", "--tasks needs a whole number 1 .. 1024");
  gptest::expectCliError("parallelize zoo:gpt_1_3b --cluster 2x8xH100-IB --global-batch 8 --mode training",
                         "unknown option --mode");
}

}  // namespace
}  // namespace gp::cli
