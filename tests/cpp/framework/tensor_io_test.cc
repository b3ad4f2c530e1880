// Paddle's tensor record: exact bytes, round trips, rejection of every malformation with a typed
// error, and files that are replaced atomically.
#include "paddle/framework/tensor_io.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <system_error>

#include "paddle/core/device_context.h"
#include "paddle/memory/memcpy.h"
#include "proto/framework.pb.h"

namespace paddle::framework {
namespace {

namespace fs = std::filesystem;
using namespace std::string_literals;

// A tensor of `dtype` whose bytes follow a pattern (0/1 for bool, so every value stays valid).
DenseTensor PatternTensor(const DDim& dims, DataType dtype) {
  DenseTensor t(TensorMeta{dims, dtype});
  auto* bytes = static_cast<uint8_t*>(t.AllocateStorage(CPUPlace()));
  for (size_t i = 0; i < t.nbytes(); ++i) {
    bytes[i] = dtype == DataType::BOOL ? i % 2 : static_cast<uint8_t>(i * 37 + 11);
  }
  return t;
}

template <typename T>
DenseTensor MakeTensor(const DDim& dims, std::initializer_list<T> values) {
  DenseTensor t(TensorMeta{dims, kDataTypeOf<T>});
  std::copy(values.begin(), values.end(), static_cast<T*>(t.AllocateStorage(CPUPlace())));
  return t;
}

void ExpectSameTensor(const DenseTensor& actual, const DenseTensor& expected) {
  EXPECT_EQ(actual.dtype(), expected.dtype());
  EXPECT_EQ(actual.dims(), expected.dims());
  EXPECT_TRUE(actual.place().is_cpu());
  ASSERT_EQ(actual.nbytes(), expected.nbytes());
  if (expected.nbytes() > 0) {
    EXPECT_EQ(std::memcmp(actual.raw_data(), expected.raw_data(), expected.nbytes()), 0);
  }
}

std::string Serialize(const DenseTensor& t) {
  std::ostringstream out;
  SerializeDenseTensor(t, out);
  return out.str();
}

DenseTensor Deserialize(const std::string& bytes) {
  std::istringstream in(bytes);
  return DeserializeDenseTensor(in, "record 'r'");
}

template <typename T>
void Put(std::string* bytes, T value) {
  bytes->append(reinterpret_cast<const char*>(&value), sizeof(T));
}

std::string Desc(int data_type, std::initializer_list<int64_t> dims) {
  proto::VarType::TensorDesc desc;
  desc.set_data_type(static_cast<proto::VarType::Type>(data_type));
  for (int64_t d : dims) desc.add_dims(d);
  return desc.SerializeAsString();
}

// A record assembled field by field, so each field can be made wrong on its own.
struct Record {
  uint32_t version = 0;
  std::vector<std::vector<uint64_t>> lod;
  uint32_t data_version = 0;
  std::string desc = Desc(proto::VarType::FP32, {2});
  int32_t desc_size = -2;  // -2: the size of `desc`
  std::string data = std::string(8, '\x01');

  std::string Bytes() const {
    std::string bytes;
    Put(&bytes, version);
    Put(&bytes, static_cast<uint64_t>(lod.size()));
    for (const auto& level : lod) {
      Put(&bytes, static_cast<uint64_t>(level.size() * sizeof(uint64_t)));
      for (uint64_t offset : level) Put(&bytes, offset);
    }
    Put(&bytes, data_version);
    Put(&bytes, desc_size == -2 ? static_cast<int32_t>(desc.size()) : desc_size);
    return bytes + desc + data;
  }
};

bool Contains(const char* text, const std::string& part) {
  return std::string(text).find(part) != std::string::npos;
}

// The error that reading `bytes` raises; fails the test when none is raised.
Error DeserializeError(const std::string& bytes) {
  try {
    Deserialize(bytes);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "the malformed record was accepted";
  return Error(ErrorCode::kInternal, "");
}

void ExpectMalformed(const std::string& bytes, const std::string& reason) {
  Error e = DeserializeError(bytes);
  EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument) << e.what();
  EXPECT_TRUE(Contains(e.what(), "record 'r'")) << e.what();
  EXPECT_TRUE(Contains(e.what(), reason)) << e.what();
}

class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "tensor_io_test.XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      throw std::system_error(errno, std::generic_category(), "mkdtemp");
    }
    path_ = pattern;
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string File(const std::string& name) const { return (path_ / name).string(); }
  std::vector<std::string> Entries() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(path_)) {
      names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  fs::path path_;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

TEST(TensorIOTest, WritesPaddlesExactBytes) {
  // As PaddlePaddle 3.3's save_dense_tensor_to_memory writes them: version 0, no LoD levels,
  // version 0, then desc_size, the TensorDesc (0x08 data_type, 0x10 each dim) and the data.
  const std::string header(16, '\0');
  EXPECT_EQ(Serialize(MakeTensor<float>(DDim({2}), {1.0f, 2.0f})),
            header + "\x04\0\0\0\x08\x05\x10\x02\0\0\x80\x3f\0\0\0\x40"s);
  EXPECT_EQ(Serialize(MakeTensor<int32_t>(DDim({1, 3}), {1, 2, 3})),
            header + "\x06\0\0\0\x08\x02\x10\x01\x10\x03\x01\0\0\0\x02\0\0\0\x03\0\0\0"s);
  // A 0-d tensor has no dims.
  EXPECT_EQ(Serialize(MakeTensor<int64_t>(DDim(std::vector<int64_t>{}), {3})),
            header + "\x02\0\0\0\x08\x03\x03\0\0\0\0\0\0\0"s);
  EXPECT_EQ(Serialize(MakeTensor<bool>(DDim({1, 2}), {true, false})),
            header + "\x06\0\0\0\x08\x00\x10\x01\x10\x02\x01\x00"s);
  EXPECT_EQ(Serialize(MakeTensor<float16>(DDim({1}), {float16(1.5f)})),
            header + "\x04\0\0\0\x08\x04\x10\x01\x00\x3e"s);
}

TEST(TensorIOTest, RoundTripsEveryDtypeAndShape) {
  const DataType dtypes[] = {
      DataType::BOOL,  DataType::INT8,    DataType::UINT8,    DataType::INT16,   DataType::INT32,
      DataType::INT64, DataType::FLOAT16, DataType::BFLOAT16, DataType::FLOAT32, DataType::FLOAT64};
  const DDim shapes[] = {DDim(std::vector<int64_t>{}), DDim({0, 3}), DDim({5}), DDim({2, 3, 4})};
  for (DataType dtype : dtypes) {
    for (const DDim& shape : shapes) {
      SCOPED_TRACE(std::string(DataTypeName(dtype)) + " " + shape.ToString());
      DenseTensor t = PatternTensor(shape, dtype);
      ExpectSameTensor(Deserialize(Serialize(t)), t);
    }
  }
}

TEST(TensorIOTest, WritesOnlyTheViewOfASharedBuffer) {
  DenseTensor base = MakeTensor<float>(DDim({4}), {1.0f, 2.0f, 3.0f, 4.0f});
  DenseTensor view(TensorMeta{DDim({2}), DataType::FLOAT32});
  view.set_holder(base.holder(), 2 * sizeof(float));
  ExpectSameTensor(Deserialize(Serialize(view)), MakeTensor<float>(DDim({2}), {3.0f, 4.0f}));
}

TEST(TensorIOTest, CopiesGpuTensorsToTheHost) {
  if (GetGPUDeviceCount() == 0) GTEST_SKIP() << "no GPU";
  DenseTensor host = PatternTensor(DDim({3, 5}), DataType::FLOAT32);
  DenseTensor gpu(host.meta());
  void* dst = gpu.AllocateStorage(GPUPlace());
  memory::Copy(GPUPlace(), dst, CPUPlace(), host.raw_data(), host.nbytes());
  EXPECT_EQ(Serialize(gpu), Serialize(host));
}

TEST(TensorIOTest, ReadsAndDropsLoDLevels) {
  Record record;
  record.lod = {{0, 1, 2}, {0, 2}};
  DenseTensor t = Deserialize(record.Bytes());
  EXPECT_EQ(t.dims(), DDim({2}));
  EXPECT_EQ(std::memcmp(t.raw_data(), record.data.data(), 8), 0);
}

TEST(TensorIOTest, RejectsWrongVersions) {
  Record record;
  record.version = 1;
  ExpectMalformed(record.Bytes(), "unsupported tensor version 1");
  record = Record();
  record.data_version = 2;
  ExpectMalformed(record.Bytes(), "unsupported tensor data version 2");
}

TEST(TensorIOTest, RejectsEveryTruncation) {
  Record record;
  record.lod = {{0, 2}};
  std::string bytes = record.Bytes();
  for (size_t size = 0; size < bytes.size(); ++size) {
    SCOPED_TRACE(size);
    ExpectMalformed(bytes.substr(0, size), "truncated");
  }
}

TEST(TensorIOTest, RejectsBadDescSizes) {
  Record record;
  record.desc_size = -1;
  ExpectMalformed(record.Bytes(), "TensorDesc size -1");
  record.desc_size = (1 << 20) + 1;
  ExpectMalformed(record.Bytes(), "TensorDesc size 1048577");
  // Within bounds, but larger than what follows.
  record.desc_size = 1000;
  ExpectMalformed(record.Bytes(), "truncated");
}

TEST(TensorIOTest, RejectsUnparsableDescs) {
  Record record;
  record.desc = "\xff\xff\xff";
  ExpectMalformed(record.Bytes(), "not a valid framework.proto TensorDesc");
  // data_type is a required field.
  record.desc = "";
  ExpectMalformed(record.Bytes(), "has no data_type");
  // A number outside the enum leaves the required field unset, as in Paddle's parser. The bytes
  // are spelled out: converting 99 to the enum type would be undefined behaviour.
  record.desc = std::string("\x08\x63\x10\x02", 4);  // data_type = 99, dims = [2]
  ExpectMalformed(record.Bytes(), "has no data_type");
}

TEST(TensorIOTest, RejectsElementTypesWeDoNotHave) {
  Record record;
  record.desc = Desc(proto::VarType::FP8_E4M3FN, {1});
  Error e = DeserializeError(record.Bytes());
  EXPECT_EQ(e.code(), ErrorCode::kInvalidType);
  EXPECT_TRUE(Contains(e.what(), "record 'r'")) << e.what();
  EXPECT_TRUE(Contains(e.what(), "FP8_E4M3FN")) << e.what();
  // A variable kind is not an element type.
  record.desc = Desc(proto::VarType::DENSE_TENSOR, {1});
  EXPECT_EQ(DeserializeError(record.Bytes()).code(), ErrorCode::kInvalidType);
}

TEST(TensorIOTest, RejectsBadShapes) {
  Record record;
  record.desc = Desc(proto::VarType::FP32, {2, -1});
  ExpectMalformed(record.Bytes(), "negative dimension");
  record.desc = Desc(proto::VarType::FP32, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
  ExpectMalformed(record.Bytes(), "10 dimensions");
  record.desc = Desc(proto::VarType::FP32, {int64_t{1} << 40, int64_t{1} << 40});
  ExpectMalformed(record.Bytes(), "element count");
  record.desc = Desc(proto::VarType::FP64, {int64_t{1} << 62});
  ExpectMalformed(record.Bytes(), "byte size");
}

TEST(TensorIOTest, ChecksTheDataSizeBeforeAllocating) {
  Record record;
  record.desc = Desc(proto::VarType::FP32, {int64_t{1} << 40});  // 4 TiB
  ExpectMalformed(record.Bytes(), "the tensor data needs 4398046511104 bytes but only 8 remain");
}

TEST(TensorIOTest, RejectsBadLoDLevels) {
  Record record;
  std::string bytes = record.Bytes();
  // One LoD level of 12 bytes: not a whole number of size_t offsets.
  std::string odd = bytes.substr(0, 4);
  Put(&odd, uint64_t{1});
  Put(&odd, uint64_t{12});
  odd += std::string(12, '\0') + bytes.substr(12);
  ExpectMalformed(odd, "not a whole number of 8-byte offsets");
  // A LoD level larger than the stream.
  std::string large = bytes.substr(0, 4);
  Put(&large, uint64_t{1});
  Put(&large, uint64_t{1} << 60);
  ExpectMalformed(large + bytes.substr(12), "a LoD level needs");
  // A LoD level count no stream can hold.
  std::string many = bytes.substr(0, 4);
  Put(&many, ~uint64_t{0});
  ExpectMalformed(many, "truncated");
}

// A stream that cannot seek, like a pipe: the reader must rely on the count of bytes read.
class UnseekableBuf : public std::streambuf {
 public:
  explicit UnseekableBuf(std::string bytes) : bytes_(std::move(bytes)) {
    setg(bytes_.data(), bytes_.data(), bytes_.data() + bytes_.size());
  }

 private:
  std::string bytes_;
};

TEST(TensorIOTest, ReadsUnseekableStreams) {
  DenseTensor t = PatternTensor(DDim({3, 2}), DataType::INT16);
  UnseekableBuf whole(Serialize(t));
  std::istream in(&whole);
  ExpectSameTensor(DeserializeDenseTensor(in, "pipe"), t);

  Record record;
  record.lod = {{0, 2}};
  std::string bytes = record.Bytes();
  UnseekableBuf truncated(bytes.substr(0, bytes.size() - 3));
  std::istream short_in(&truncated);
  try {
    DeserializeDenseTensor(short_in, "pipe");
    ADD_FAILURE() << "the truncated record was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_TRUE(Contains(e.what(), "needs 8 bytes but only 5 could be read")) << e.what();
  }
}

TEST(TensorIOTest, SaveCombineWritesRecordsInOrder) {
  TempDir dir;
  std::string path = dir.File("model.pdiparams");
  DenseTensor a = PatternTensor(DDim({2, 3}), DataType::FLOAT32);
  DenseTensor b = PatternTensor(DDim(std::vector<int64_t>{}), DataType::INT64);
  DenseTensor c = PatternTensor(DDim({4}), DataType::FLOAT16);
  SaveCombine(path, {{"a", &a}, {"b", &b}, {"c", &c}});
  EXPECT_EQ(ReadFile(path), Serialize(a) + Serialize(b) + Serialize(c));
  std::vector<DenseTensor> loaded = LoadCombine(path, {"a", "b", "c"});
  ASSERT_EQ(loaded.size(), 3u);
  ExpectSameTensor(loaded[0], a);
  ExpectSameTensor(loaded[1], b);
  ExpectSameTensor(loaded[2], c);
  EXPECT_EQ(dir.Entries(), std::vector<std::string>{"model.pdiparams"});
}

TEST(TensorIOTest, LoadCombineNamesTheMissingFile) {
  TempDir dir;
  std::string path = dir.File("absent.pdiparams");
  try {
    LoadCombine(path, {"w"});
    ADD_FAILURE() << "a missing file was loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNotFound);
    EXPECT_TRUE(Contains(e.what(), path)) << e.what();
  }
}

TEST(TensorIOTest, LoadCombineRejectsExtraBytes) {
  TempDir dir;
  std::string path = dir.File("model.pdiparams");
  DenseTensor a = PatternTensor(DDim({2}), DataType::FLOAT32);
  DenseTensor b = PatternTensor(DDim({3}), DataType::INT32);
  SaveCombine(path, {{"a", &a}, {"b", &b}});
  // A model that lists fewer variables than the file holds.
  try {
    LoadCombine(path, {"a"});
    ADD_FAILURE() << "the extra record was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_TRUE(Contains(e.what(), path)) << e.what();
    EXPECT_TRUE(Contains(e.what(), std::to_string(Serialize(b).size()) + " extra bytes"))
        << e.what();
    EXPECT_TRUE(Contains(e.what(), "does not match the model")) << e.what();
  }
}

TEST(TensorIOTest, LoadCombineNamesTheTruncatedVariable) {
  TempDir dir;
  std::string path = dir.File("model.pdiparams");
  DenseTensor a = PatternTensor(DDim({2}), DataType::FLOAT32);
  DenseTensor b = PatternTensor(DDim({3}), DataType::INT32);
  WriteFile(path, Serialize(a) + Serialize(b).substr(0, 20));
  try {
    LoadCombine(path, {"fc_0.b_0", "fc_0.w_0"});
    ADD_FAILURE() << "the truncated file was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_TRUE(Contains(e.what(), path)) << e.what();
    EXPECT_TRUE(Contains(e.what(), "variable 'fc_0.w_0' (2 of 2)")) << e.what();
    EXPECT_TRUE(Contains(e.what(), "truncated")) << e.what();
  }
}

TEST(TensorIOTest, FailedSaveKeepsThePreviousFile) {
  TempDir dir;
  std::string path = dir.File("model.pdiparams");
  DenseTensor good = PatternTensor(DDim({4}), DataType::FLOAT32);
  SaveCombine(path, {{"w", &good}});
  std::string before = ReadFile(path);

  // The second tensor holds no data, so the save fails after the first record is written.
  DenseTensor empty(TensorMeta{DDim({3}), DataType::FLOAT32});
  try {
    SaveCombine(path, {{"w", &good}, {"b", &empty}});
    ADD_FAILURE() << "a tensor without data was saved";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kPreconditionNotMet);
    EXPECT_TRUE(Contains(e.what(), path)) << e.what();
    EXPECT_TRUE(Contains(e.what(), "variable 'b'")) << e.what();
  }
  EXPECT_EQ(ReadFile(path), before);
  EXPECT_EQ(dir.Entries(), std::vector<std::string>{"model.pdiparams"});

  EXPECT_THROW(SaveDenseTensor(path, empty), Error);
  EXPECT_EQ(ReadFile(path), before);
  EXPECT_EQ(dir.Entries(), std::vector<std::string>{"model.pdiparams"});
}

TEST(TensorIOTest, SaveIntoAMissingDirectoryFails) {
  TempDir dir;
  std::string path = dir.File("no_such_dir/model.pdiparams");
  DenseTensor t = PatternTensor(DDim({4}), DataType::FLOAT32);
  try {
    SaveCombine(path, {{"w", &t}});
    ADD_FAILURE() << "saved into a missing directory";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kPreconditionNotMet);
    EXPECT_TRUE(Contains(e.what(), path)) << e.what();
    EXPECT_TRUE(Contains(e.what(), "No such file or directory")) << e.what();
  }
  EXPECT_TRUE(dir.Entries().empty());
}

TEST(TensorIOTest, SingleTensorFilesRoundTrip) {
  TempDir dir;
  std::string path = dir.File("x.pdtensor");
  DenseTensor t = PatternTensor(DDim({2, 2}), DataType::BFLOAT16);
  SaveDenseTensor(path, t);
  EXPECT_EQ(ReadFile(path), Serialize(t));
  ExpectSameTensor(LoadDenseTensor(path), t);

  WriteFile(path, Serialize(t) + "x");
  try {
    LoadDenseTensor(path);
    ADD_FAILURE() << "the extra byte was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_TRUE(Contains(e.what(), "1 extra bytes after the tensor")) << e.what();
  }
  EXPECT_THROW(LoadDenseTensor(dir.File("absent")), Error);
}

}  // namespace
}  // namespace paddle::framework
