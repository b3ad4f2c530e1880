// The deployment API of libpaddle_inference (PaddlePaddle's paddle_infer namespace): a Config
// names the model and the run options, CreatePredictor loads it, and a Predictor runs it on
// inputs written through zero-copy Tensor handles. This header includes only the standard
// library, so programs built with other versions of protobuf, glog or oneDNN can use it.
//
// Errors: every function reports bad input (a missing or mismatched model file, an input of the
// wrong shape or dtype, an unknown name) by throwing paddle_infer::Error, whose code() says what
// kind of error it is; nothing in the library aborts the process on bad input.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(_WIN32)
#define PD_INFER_DECL __declspec(dllexport)
#else
#define PD_INFER_DECL __attribute__((visibility("default")))
#endif

namespace paddle_infer {

enum class DataType { FLOAT32, INT64, INT32, UINT8, INT8, FLOAT16, BOOL, FLOAT64 };
enum class PlaceType { kUNK = -1, kCPU, kGPU, kXPU };
enum class PrecisionType { kFloat32 = 0, kInt8, kHalf, kBf16 };

enum class ErrorCode {
  kInvalidArgument,     // a malformed file, a wrong shape, a bad option value
  kNotFound,            // an unknown input or output name
  kFileNotFound,        // a model or parameters file that does not exist
  kInvalidType,         // an input of the wrong dtype
  kPreconditionNotMet,  // e.g. reading an output before Run
  kUnimplemented,       // an option or op this build does not support
  kResourceExhausted,   // out of memory
  kInternal,            // a bug in the library
};

class PD_INFER_DECL Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message);
  ErrorCode code() const { return code_; }

 private:
  ErrorCode code_;
};

// Which model to load and how to run it. Options of the analysis passes are recorded and shown
// by Summary(); they change nothing until the passes exist.
class PD_INFER_DECL Config {
 public:
  Config();
  // A directory holding `__model__` (or `inference.pdmodel` + `inference.pdiparams`).
  explicit Config(const std::string& model_dir);
  Config(const std::string& prog_file, const std::string& params_file);
  Config(const Config& other);
  Config& operator=(const Config& other);
  ~Config();

  void SetModel(const std::string& model_dir);
  void SetModel(const std::string& prog_file, const std::string& params_file);
  void SetProgFile(const std::string& prog_file);
  void SetParamsFile(const std::string& params_file);
  // The program and parameters as bytes in memory (the contents of the two files).
  void SetModelBuffer(const char* prog_buffer, size_t prog_buffer_size, const char* params_buffer,
                      size_t params_buffer_size);
  bool model_from_memory() const;
  const std::string& model_dir() const;
  const std::string& prog_file() const;
  const std::string& params_file() const;

  void EnableUseGpu(uint64_t memory_pool_init_size_mb, int device_id = 0,
                    PrecisionType precision = PrecisionType::kFloat32);
  void DisableGpu();
  bool use_gpu() const;
  int gpu_device_id() const;
  void SetCpuMathLibraryNumThreads(int cpu_math_library_num_threads);
  int cpu_math_library_num_threads() const;
  void SwitchIrOptim(bool x = true);
  bool ir_optim() const;
  void EnableMemoryOptim(bool x = true);
  bool enable_memory_optim() const;
  void EnableMKLDNN();
  bool mkldnn_enabled() const;
  void DisableGlogInfo();
  bool glog_info_disabled() const;
  // A table of the settings, one per line.
  std::string Summary() const;

 private:
  friend class Predictor;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A handle on one input or output variable of a predictor: Reshape and CopyFromCpu write the
// variable itself, CopyToCpu reads it. A handle stays valid as long as its predictor.
class PD_INFER_DECL Tensor {
 public:
  ~Tensor();
  // Sets the shape of an input before CopyFromCpu.
  void Reshape(const std::vector<int>& shape);
  // Copies numel(shape) elements in; T must be the input's dtype.
  template <typename T>
  void CopyFromCpu(const T* data);
  // Copies the whole variable out; T must be its dtype.
  template <typename T>
  void CopyToCpu(T* data) const;
  std::vector<int> shape() const;
  DataType type() const;
  const std::string& name() const;
  std::vector<std::vector<size_t>> lod() const;
  void SetLoD(const std::vector<std::vector<size_t>>& lod);
  PlaceType place() const;

 private:
  friend class Predictor;
  struct Impl;
  explicit Tensor(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

class PD_INFER_DECL Predictor {
 public:
  explicit Predictor(const Config& config);
  ~Predictor();

  std::vector<std::string> GetInputNames();
  std::unique_ptr<Tensor> GetInputHandle(const std::string& name);
  std::vector<std::string> GetOutputNames();
  std::unique_ptr<Tensor> GetOutputHandle(const std::string& name);
  // Runs the program on the inputs set through the handles. Returns true; errors throw.
  bool Run();
  // A predictor sharing this one's program and weights (read-only) with its own variables for
  // inputs, outputs and intermediates: clones run concurrently, one per thread.
  std::unique_ptr<Predictor> Clone();
  // Frees the buffers of intermediate variables (inputs, outputs and weights stay).
  void ClearIntermediateTensor();

 private:
  struct Impl;
  explicit Predictor(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

PD_INFER_DECL std::shared_ptr<Predictor> CreatePredictor(const Config& config);
PD_INFER_DECL std::string GetVersion();
PD_INFER_DECL int GetNumBytesOfDataType(DataType dtype);

}  // namespace paddle_infer
