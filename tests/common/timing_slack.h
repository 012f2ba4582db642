// How many times longer the code under test may take in this build than in a release build.
// ThreadSanitizer instruments every memory access of graphplace's code: 5-15 times slower as a
// rule, about 30 for the simulator, which allocates a lot (one simulation of GNMT's 64k ops:
// about 15 ms in the release build, 0.5 s under TSan on the 2-core VM). Tests that bound how
// quickly something happens (a cancel's latency) multiply their bound by kTimingSlack: under
// TSan they still check that it happens promptly for the build, while the release build keeps
// the real bound.
#pragma once

namespace gptest {

#if defined(__SANITIZE_THREAD__)
inline constexpr double kTimingSlack = 20.0;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
inline constexpr double kTimingSlack = 20.0;
#else
inline constexpr double kTimingSlack = 1.0;
#endif
#else
inline constexpr double kTimingSlack = 1.0;
#endif

}  // namespace gptest
