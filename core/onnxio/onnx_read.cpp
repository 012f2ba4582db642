#include "onnxio/onnx_read.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "base/byte_text.h"
#include "base/error.h"
#include "base/input_limits.h"

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#define GP_ONNX_MMAP 1
#endif

namespace gp::onnxio {

namespace {

// Field numbers of onnx.proto3 that the stripping walks through.
constexpr uint32_t kModelGraph = 7;        // ModelProto.graph
constexpr uint32_t kGraphInitializer = 5;  // GraphProto.initializer
constexpr uint32_t kGraphNode = 1;         // GraphProto.node
constexpr uint64_t kKeepTensorBytes = 4096;

// TensorProto data fields: float_data, int32_data, string_data, int64_data, raw_data,
// double_data, uint64_data.
bool isTensorData(uint32_t field) {
  return field == 4 || field == 5 || field == 6 || field == 7 || field == 9 || field == 10 || field == 11;
}

struct Span {
  const uint8_t* p;
  const uint8_t* end;
};

uint64_t varint(Span& s) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (s.p >= s.end) throw std::runtime_error("truncated varint");
    const uint8_t b = *s.p++;
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) return v;
  }
  throw std::runtime_error("varint longer than 10 bytes");
}

void putVarint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

struct Field {
  uint32_t number;
  uint32_t wireType;
  const uint8_t* begin;    // the tag's first byte
  const uint8_t* payload;  // LEN fields: the content
  uint64_t length;         // LEN fields: the content's length
};

// The next field of a message; advances past it.
Field nextField(Span& s) {
  Field f{};
  f.begin = s.p;
  const uint64_t tag = varint(s);
  f.number = static_cast<uint32_t>(tag >> 3);
  f.wireType = static_cast<uint32_t>(tag & 7);
  if (f.number == 0) throw std::runtime_error("field number 0");
  switch (f.wireType) {
    case 0:
      varint(s);
      break;
    case 1:
      if (s.end - s.p < 8) throw std::runtime_error("truncated fixed64");
      s.p += 8;
      break;
    case 5:
      if (s.end - s.p < 4) throw std::runtime_error("truncated fixed32");
      s.p += 4;
      break;
    case 2:
      f.length = varint(s);
      if (f.length > static_cast<uint64_t>(s.end - s.p)) throw std::runtime_error("a field runs past the end");
      f.payload = s.p;
      s.p += f.length;
      break;
    default:
      throw std::runtime_error("unsupported wire type " + std::to_string(f.wireType));
  }
  return f;
}

void putMessage(std::string& out, uint32_t number, const std::string& content) {
  putVarint(out, (static_cast<uint64_t>(number) << 3) | 2);
  putVarint(out, content.size());
  out += content;
}

// Copies a message field by field: the fields `drop` names go; a LEN field numbered `nested`
// becomes `inner` of its content (0: none).
template <class Drop, class Inner>
std::string copyFields(Span s, uint32_t nested, Drop&& drop, Inner&& inner) {
  std::string out;
  while (s.p < s.end) {
    const Field f = nextField(s);
    if (f.number == nested && f.wireType == 2)
      putMessage(out, f.number, inner(Span{f.payload, f.payload + f.length}));
    else if (!drop(f.number))
      out.append(f.begin, s.p);
  }
  return out;
}

const auto kKeepAll = [](uint32_t) { return false; };

std::string strippedTensor(Span s) {
  if (static_cast<uint64_t>(s.end - s.p) <= kKeepTensorBytes) return {s.p, s.end};
  return copyFields(s, 0, isTensorData, [](Span) { return std::string(); });
}

std::string strippedGraph(Span s) {
  return copyFields(s, kGraphInitializer, kKeepAll, strippedTensor);
}

#ifdef GP_ONNX_MMAP
class MappedFile {
 public:
  MappedFile(const std::string& path, uint64_t size) : size_(size) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw Error(path, "cannot open file for reading");
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (p == MAP_FAILED) throw Error(path, "cannot map the file into memory");
    data_ = static_cast<const uint8_t*>(p);
  }
  ~MappedFile() { ::munmap(const_cast<uint8_t*>(data_), size_); }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  const uint8_t* data() const { return data_; }

 private:
  const uint8_t* data_ = nullptr;
  uint64_t size_;
};
#endif

std::string gib(uint64_t bytes) { return gibText(static_cast<double>(bytes), 1); }

// The nodes of the model's graph, counted on the wire (a malformed protobuf counts what precedes
// the damage; the parse then reports it). Refuses a model over the op limit before it is parsed,
// since a parsed node takes far more memory than its bytes.
void checkNodeCount(const std::string& path, const uint8_t* data, uint64_t size) {
  int64_t nodes = 0;
  try {
    Span model{data, data + size};
    while (model.p < model.end) {
      const Field f = nextField(model);
      if (f.number != kModelGraph || f.wireType != 2) continue;
      Span graph{f.payload, f.payload + f.length};
      while (graph.p < graph.end)
        if (const Field n = nextField(graph); n.number == kGraphNode && n.wireType == 2) ++nodes;
    }
  } catch (const std::runtime_error&) {
  }
  checkModelOps(path, nodes, "nodes");
}

}  // namespace

std::string stripInitializerData(const uint8_t* data, uint64_t size) {
  return copyFields(Span{data, data + size}, kModelGraph, kKeepAll, strippedGraph);
}

onnx::ModelProto readOnnxModel(const std::string& path, uint64_t stripAbove) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (!fs::exists(status)) throw Error(path, "file not found");
  if (fs::is_directory(status)) throw Error(path, "is a directory, not an ONNX file");
  const uint64_t size = fs::file_size(path, ec);
  if (ec) throw Error(path, "cannot read file: " + ec.message());
  if (size == 0) throw Error(path, "file is empty (0 bytes), not an ONNX model");
  onnx::ModelProto model;
  if (size > stripAbove) {
#ifdef GP_ONNX_MMAP
    std::string stripped;
    const MappedFile file(path, size);
    checkNodeCount(path, file.data(), size);
    try {
      stripped = stripInitializerData(file.data(), size);
    } catch (const std::runtime_error& e) {
      throw Error(path, "not a valid ONNX model: the protobuf does not parse (" + std::string(e.what()) + ")");
    }
    if (stripped.size() > kProtobufLimit)
      throw Error(path, "ONNX file is " + gib(size) + " and still " + gib(stripped.size()) +
                            " without its initializers' data, over protobuf's 2 GB limit");
    if (!model.ParseFromString(stripped))
      throw Error(path, "not a valid ONNX model: the protobuf does not parse (wrong format or truncated file)");
#else
    throw Error(path, "ONNX file is " + gib(size) + ", over protobuf's 2 GB limit: save the model with its weights "
                      "as external data (onnx.save_model(model, path, save_as_external_data=True)) and import that");
#endif
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path, "cannot open file for reading");
    std::string bytes(size, '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(size));
    if (in.gcount() != static_cast<std::streamsize>(size)) throw Error(path, "cannot read file (short read)");
    checkNodeCount(path, reinterpret_cast<const uint8_t*>(bytes.data()), size);
    if (!model.ParseFromString(bytes))
      throw Error(path, "not a valid ONNX model: the protobuf does not parse (wrong format or truncated file)");
  }
  if (!model.has_graph()) throw Error(path, "not an ONNX model: the protobuf holds no graph (wrong format?)");
  return model;
}

}  // namespace gp::onnxio
