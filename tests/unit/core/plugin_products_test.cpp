// base/plugin_files.h: a plugin of several products checks each product's ABI on its own, so a
// product built from other headers is refused while the others of the same file load.
#include <gtest/gtest.h>

#include "base/plugin_files.h"

namespace gp {
namespace {

TEST(PluginProducts, EachProductsAbiIsCheckedOnItsOwn) {
  const std::string file = GP_TEST_PLUGIN_PRODUCTS;
  const OpenedPlugin a = openPlugin(file, "the test plugin", "product_a_abi", 11, {"product_a_entry"});
  ASSERT_EQ(a.error, "");
  ASSERT_EQ(a.symbols.size(), 1u);
  EXPECT_EQ(reinterpret_cast<int (*)()>(a.symbols[0])(), 1);

  const OpenedPlugin b = openPlugin(file, "the test plugin", "product_b_abi", 23, {"product_b_entry"});
  EXPECT_EQ(b.error, "the test plugin " + file + " was built from another version of graphplace; rebuild it");
  EXPECT_TRUE(b.symbols.empty());

  // Both results are kept: asking again gives the same answers.
  EXPECT_EQ(openPlugin(file, "the test plugin", "product_a_abi", 11, {"product_a_entry"}).symbols, a.symbols);
  EXPECT_EQ(openPlugin(file, "the test plugin", "product_b_abi", 23, {"product_b_entry"}).error, b.error);
}

TEST(PluginProducts, AMissingEntryIsNamed) {
  const std::string file = GP_TEST_PLUGIN_PRODUCTS;
  const OpenedPlugin o = openPlugin(file, "the test plugin", "product_c_abi", 33, {"product_c_entry"});
  EXPECT_EQ(o.error, "the test plugin " + file + " has no product_c_entry");
}

}  // namespace
}  // namespace gp
