#include "paddle/framework/tensor_io.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <vector>

#include "paddle/framework/proto_data_type.h"
#include "paddle/memory/memcpy.h"
#include "proto/framework.pb.h"

// One record, as PaddlePaddle writes it (paddle/phi/core/framework/lod_tensor_serialize.cc):
//   u32 version = 0
//   u64 lod_level, then for each level: u64 nbytes and nbytes of size_t offsets
//   u32 version = 0
//   i32 desc_size, then desc_size bytes of a serialized proto::VarType::TensorDesc
//   numel * sizeof(dtype) bytes of row-major data (the size is implied by the TensorDesc)
// Paddle writes integers and data in the host's byte order and never converts them, so every file
// in existence is little-endian.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the tensor record format is only defined for little-endian hosts");

namespace paddle::framework {

namespace {

constexpr uint32_t kTensorVersion = 0;
// A TensorDesc is a type and at most DDim::kMaxRank dims, well under 100 bytes; the bound keeps a
// corrupt size from allocating.
constexpr int32_t kMaxDescSize = 1 << 20;

// Runs `fn`, prefixing `context` to the message of any typed error it raises.
template <typename Fn>
auto WithContext(const std::string& context, Fn&& fn) {
  try {
    return fn();
  } catch (const Error& e) {
    throw Error(e.code(), context + ": " + e.what());
  }
}

template <typename T>
void WritePod(std::ostream& out, T value) {
  out.write(reinterpret_cast<const char*>(&value), sizeof(T));
}

// Bytes between the read position and the end, or nullopt when the stream cannot seek (a pipe).
std::optional<uint64_t> RemainingBytes(std::istream& in) {
  std::streampos here = in.tellg();
  if (here == std::streampos(-1)) return std::nullopt;
  in.seekg(0, std::ios::end);
  std::streampos end = in.tellg();
  in.clear();
  in.seekg(here);
  if (end == std::streampos(-1)) return std::nullopt;
  return static_cast<uint64_t>(end - here);
}

// Reads the fields of one record, checking before each read (and so before each allocation) that
// the stream still holds the bytes the field needs, when the stream can tell.
class RecordReader {
 public:
  RecordReader(std::istream& in, const std::string& what)
      : in_(in), what_(what), remaining_(RemainingBytes(in)) {}

  void CheckAvailable(uint64_t size, const char* field) const {
    PD_CHECK(!remaining_ || size <= *remaining_,
             errors::InvalidArgument(what_, ": the record is truncated: ", field, " needs ", size,
                                     " bytes but only ", *remaining_, " remain"));
  }

  void Read(void* dst, uint64_t size, const char* field) {
    CheckAvailable(size, field);
    in_.read(static_cast<char*>(dst), static_cast<std::streamsize>(size));
    auto got = static_cast<uint64_t>(in_.gcount());
    PD_CHECK(got == size,
             errors::InvalidArgument(what_, ": the record is truncated: ", field, " needs ", size,
                                     " bytes but only ", got, " could be read"));
    if (remaining_) *remaining_ -= size;
  }

  template <typename T>
  T ReadPod(const char* field) {
    T value;
    Read(&value, sizeof(T), field);
    return value;
  }

  void Skip(uint64_t size, const char* field) {
    if (remaining_) {
      CheckAvailable(size, field);
      in_.seekg(static_cast<std::streamoff>(size), std::ios::cur);
      *remaining_ -= size;
      return;
    }
    char buffer[1 << 14];
    while (size > 0) {
      uint64_t chunk = std::min<uint64_t>(size, sizeof(buffer));
      Read(buffer, chunk, field);
      size -= chunk;
    }
  }

 private:
  std::istream& in_;
  const std::string& what_;
  std::optional<uint64_t> remaining_;
};

std::ifstream OpenForReading(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) {
    int error = errno;
    PD_CHECK(error != ENOENT, errors::NotFound("file '", path, "' does not exist"));
    PD_THROW(errors::PreconditionNotMet("cannot open file '", path, "': ", std::strerror(error)));
  }
  return in;
}

// Paddle's loaders reject bytes after the last expected record: they mean the file was written
// for a different model (more variables, or larger ones).
// `source` names the file ("file 'x.pdiparams'") or the bytes read.
void CheckAtEnd(std::istream& in, const std::string& source, const std::string& after) {
  if (in.peek() == std::char_traits<char>::eof()) return;
  std::optional<uint64_t> extra = RemainingBytes(in);
  PD_THROW(errors::InvalidArgument(
      source, " has ", extra ? std::to_string(*extra) : std::string("more"), " extra bytes after ",
      after, "; it does not match the model it is loaded for"));
}

// Writes through `write` into a temporary file beside `path` and renames it onto `path` once it
// is complete: a rename within a directory is atomic, so `path` is always either the old file or
// the whole new one.
template <typename WriteFn>
void WriteFileAtomically(const std::string& path, WriteFn&& write) {
  // Unique per process and call, so concurrent saves of one path never share a temporary.
  static std::atomic<uint64_t> counter{0};
  std::string tmp = errors::Concat(path, ".tmp.", getpid(), ".", counter++);
  WithContext(errors::Concat("cannot save file '", path, "'"), [&] {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    PD_CHECK(out.is_open(), errors::PreconditionNotMet("cannot create the temporary file '", tmp,
                                                       "': ", std::strerror(errno)));
    try {
      write(out);
      out.close();  // flushes; a full disk shows up here
      PD_CHECK(!out.fail(), errors::PreconditionNotMet("writing the temporary file '", tmp,
                                                       "' failed: ", std::strerror(errno)));
      PD_CHECK(std::rename(tmp.c_str(), path.c_str()) == 0,
               errors::PreconditionNotMet("renaming the temporary file '", tmp,
                                          "' onto it failed: ", std::strerror(errno)));
    } catch (...) {
      out.close();
      std::remove(tmp.c_str());
      throw;
    }
  });
}

}  // namespace

void SerializeDenseTensor(const DenseTensor& t, std::ostream& out) {
  proto::VarType::TensorDesc desc;
  desc.set_data_type(ToProtoDataType(t.dtype()));
  for (int i = 0; i < t.dims().size(); ++i) desc.add_dims(t.dims()[i]);
  std::string desc_bytes = desc.SerializeAsString();

  // Fetched before anything is written, so a tensor without data fails without a partial record.
  const void* data = t.raw_data();
  std::vector<char> host;
  if (t.place().is_gpu()) {
    host.resize(t.nbytes());
    memory::Copy(CPUPlace(), host.data(), t.place(), data, t.nbytes());
    data = host.data();
  }

  WritePod(out, kTensorVersion);
  WritePod(out, uint64_t{0});  // LoD levels: DenseTensor has none
  WritePod(out, kTensorVersion);
  WritePod(out, static_cast<int32_t>(desc_bytes.size()));
  out.write(desc_bytes.data(), static_cast<std::streamsize>(desc_bytes.size()));
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(t.nbytes()));
  PD_CHECK(out.good(), errors::PreconditionNotMet("writing a tensor of shape ", t.dims().ToString(),
                                                  " to the stream failed"));
}

DenseTensor DeserializeDenseTensor(std::istream& in, const std::string& what) {
  RecordReader reader(in, what);
  auto version = reader.ReadPod<uint32_t>("the tensor version");
  PD_CHECK(version == kTensorVersion,
           errors::InvalidArgument(what, ": unsupported tensor version ", version, ", expected ",
                                   kTensorVersion));
  auto lod_levels = reader.ReadPod<uint64_t>("the LoD level count");
  // No bound on the count is needed: each level consumes at least 8 bytes of the stream.
  for (uint64_t level = 0; level < lod_levels; ++level) {
    auto level_bytes = reader.ReadPod<uint64_t>("the size of a LoD level");
    PD_CHECK(level_bytes % sizeof(uint64_t) == 0,
             errors::InvalidArgument(what, ": LoD level ", level, " has ", level_bytes,
                                     " bytes, not a whole number of 8-byte offsets"));
    reader.Skip(level_bytes, "a LoD level");
  }

  version = reader.ReadPod<uint32_t>("the tensor data version");
  PD_CHECK(version == kTensorVersion,
           errors::InvalidArgument(what, ": unsupported tensor data version ", version,
                                   ", expected ", kTensorVersion));
  auto desc_size = reader.ReadPod<int32_t>("the TensorDesc size");
  PD_CHECK(desc_size >= 0 && desc_size <= kMaxDescSize,
           errors::InvalidArgument(what, ": the TensorDesc size ", desc_size, " is outside [0, ",
                                   kMaxDescSize, "]"));
  std::string desc_bytes(static_cast<size_t>(desc_size), '\0');
  reader.Read(desc_bytes.data(), desc_bytes.size(), "the TensorDesc");
  proto::VarType::TensorDesc desc;
  // Parsed partially so a missing field is reported here rather than logged by protobuf.
  PD_CHECK(desc.ParsePartialFromString(desc_bytes),
           errors::InvalidArgument(what, ": the TensorDesc (", desc_size,
                                   " bytes) is not a valid framework.proto TensorDesc"));
  PD_CHECK(desc.has_data_type(),
           errors::InvalidArgument(what, ": the TensorDesc has no data_type, or one that ",
                                   "framework.proto does not define"));

  DataType dtype = WithContext(what, [&] { return FromProtoDataType(desc.data_type()); });
  PD_CHECK(desc.dims_size() <= DDim::kMaxRank,
           errors::InvalidArgument(what, ": the tensor has ", desc.dims_size(),
                                   " dimensions, more than the supported ", DDim::kMaxRank));
  std::vector<int64_t> dims(desc.dims().begin(), desc.dims().end());
  uint64_t numel = 1;
  for (int64_t d : dims) {
    PD_CHECK(d >= 0, errors::InvalidArgument(what, ": the tensor has a negative dimension in ",
                                             DDim(dims).ToString()));
    PD_CHECK(!__builtin_mul_overflow(numel, static_cast<uint64_t>(d), &numel),
             errors::InvalidArgument(what, ": the element count of shape ", DDim(dims).ToString(),
                                     " overflows"));
  }
  uint64_t nbytes = 0;
  PD_CHECK(!__builtin_mul_overflow(numel, SizeOf(dtype), &nbytes) &&
               nbytes <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()),
           errors::InvalidArgument(what, ": the byte size of a ", DataTypeName(dtype),
                                   " tensor of shape ", DDim(dims).ToString(), " overflows"));

  reader.CheckAvailable(nbytes, "the tensor data");
  DenseTensor t(TensorMeta{DDim(dims), dtype, DataLayout::NCHW});
  void* data = t.AllocateStorage(CPUPlace());
  reader.Read(data, nbytes, "the tensor data");
  return t;
}

void SaveCombine(const std::string& path,
                 const std::vector<std::pair<std::string, const DenseTensor*>>& vars) {
  WriteFileAtomically(path, [&](std::ostream& out) {
    for (const auto& [name, tensor] : vars) {
      WithContext(errors::Concat("variable '", name, "'"), [&] {
        PD_CHECK(tensor != nullptr, errors::InvalidArgument("no tensor was given"));
        SerializeDenseTensor(*tensor, out);
      });
    }
  });
}

std::vector<DenseTensor> DeserializeCombine(std::istream& in, const std::vector<std::string>& names,
                                            const std::string& source) {
  std::vector<DenseTensor> tensors;
  tensors.reserve(names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    tensors.push_back(DeserializeDenseTensor(
        in,
        errors::Concat(source, ", variable '", names[i], "' (", i + 1, " of ", names.size(), ")")));
  }
  CheckAtEnd(in, source, errors::Concat("the last of the ", names.size(), " variables"));
  return tensors;
}

std::vector<DenseTensor> LoadCombine(const std::string& path,
                                     const std::vector<std::string>& names) {
  std::ifstream in = OpenForReading(path);
  return DeserializeCombine(in, names, errors::Concat("file '", path, "'"));
}

void SaveDenseTensor(const std::string& path, const DenseTensor& t) {
  WriteFileAtomically(path, [&](std::ostream& out) { SerializeDenseTensor(t, out); });
}

DenseTensor LoadDenseTensor(const std::string& path) {
  std::ifstream in = OpenForReading(path);
  std::string source = errors::Concat("file '", path, "'");
  DenseTensor t = DeserializeDenseTensor(in, source);
  CheckAtEnd(in, source, "the tensor");
  return t;
}

}  // namespace paddle::framework
