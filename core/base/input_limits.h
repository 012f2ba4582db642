// How much of a file graphplace reads before it refuses it: the bounds that keep a hostile or
// broken file (a claim of ten million ops, 50,000-deep nesting, a 40 GB text) from exhausting
// memory or time. Every refusal is a one-line gp::Error naming the file and the limit.
//
// One knob moves them: the environment variable GRAPHPLACE_MAX_OPS (default 2,000,000), the most
// ops a model may have. The others follow from it: a text file (JSON, DOT) may hold 512 bytes
// per op, a JSON document 64 values per op and a DOT file 4 edge operators per op. JSON
// nesting is limited to kMaxJsonDepth.
//
// A TorchScript file is code: importing one runs its forward (and any __setstate__) in a child
// process that may take GRAPHPLACE_TORCHSCRIPT_SECONDS (default 300) and grow by
// GRAPHPLACE_TORCHSCRIPT_MEMORY_MB of resident memory (default half of the machine's memory).
#pragma once
#include <cstdint>
#include <string>

namespace gp {

inline constexpr int64_t kDefaultMaxOps = 2'000'000;
inline constexpr int kMaxJsonDepth = 512;
inline constexpr const char* kMaxOpsVariable = "GRAPHPLACE_MAX_OPS";

inline constexpr const char* kTorchScriptSecondsVariable = "GRAPHPLACE_TORCHSCRIPT_SECONDS";
inline constexpr const char* kTorchScriptMemoryVariable = "GRAPHPLACE_TORCHSCRIPT_MEMORY_MB";
inline constexpr int kDefaultTorchScriptSeconds = 300;

// GRAPHPLACE_MAX_OPS when it holds a positive whole number, else kDefaultMaxOps.
int64_t maxModelOps();
int64_t maxTextFileBytes();   // 512 * maxModelOps()
int64_t maxJsonValues();      // 64 * maxModelOps()

// Throws gp::Error(source, "<count> <what>, over the limit of <max> (GRAPHPLACE_MAX_OPS ...)")
// when count > maxModelOps(). `what`: "ops", "nodes", ...
void checkModelOps(const std::string& source, int64_t count, const std::string& what);

// "set GRAPHPLACE_MAX_OPS above 2000000 ops to allow more" — for messages.
std::string maxOpsHint();

// The TorchScript import's bounds: the variables above when they hold a positive whole number
// (seconds up to a day), else the defaults; 4 GiB when the machine's memory is unknown.
int torchScriptSeconds();
int64_t torchScriptMemoryBytes();

}  // namespace gp
