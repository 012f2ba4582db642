// A plugin of products for the plugin loader's tests (plugin_products_test.cpp): product A
// was built from these headers (ABI 11), product B from others (its ABI says 22, the test's
// headers expect 23), product C lacks its entry.
#include <cstdint>

extern "C" uint64_t product_a_abi() { return 11; }
extern "C" int product_a_entry() { return 1; }
extern "C" uint64_t product_b_abi() { return 22; }
extern "C" int product_b_entry() { return 2; }
extern "C" uint64_t product_c_abi() { return 33; }
