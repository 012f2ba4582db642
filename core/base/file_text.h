// Reading a whole input file, with the one-line errors every importer gives, and writing one
// atomically.
#pragma once
#include <string>

namespace gp {

// The file's bytes. Throws gp::Error(path, ...) when it is missing, a directory, or unreadable;
// `kind` names what the file should be ("a DOT file") in the messages. A file over
// maxTextFileBytes() (base/input_limits.h) is refused before it is read.
std::string readFileText(const std::string& path, const std::string& kind);

// Writes text to path through a temporary file (path + ".tmp") and a rename, so a reader never
// sees half a file. Throws gp::Error(path, ...).
void writeTextFileAtomically(const std::string& path, const std::string& text);

}  // namespace gp
