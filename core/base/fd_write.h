// Writing a whole buffer to a POSIX file descriptor (a pipe from a child process), retrying
// short writes and EINTR.
#pragma once
#include <unistd.h>

#include <cerrno>
#include <string>

namespace gp {

inline bool writeAll(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace gp
