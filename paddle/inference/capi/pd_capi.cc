// The C API over paddle_infer: each function catches every error at the boundary (no C++
// exception crosses into C), records its message for PD_GetLastErrorMessage and returns NULL,
// FALSE or nothing.
#include <cstring>
#include <string>
#include <vector>

#include "paddle/inference/api/paddle_inference_api.h"
#include "paddle/inference/capi/pd_inference_api.h"

struct PD_Config {
  paddle_infer::Config config;
};
struct PD_Predictor {
  std::unique_ptr<paddle_infer::Predictor> predictor;
};
struct PD_Tensor {
  std::unique_ptr<paddle_infer::Tensor> tensor;
};

namespace {

thread_local std::string last_error;
thread_local bool has_error = false;

template <typename Body, typename Result = decltype(std::declval<Body>()())>
Result Catching(Body&& body, Result failed = Result()) {
  has_error = false;
  try {
    return body();
  } catch (const std::exception& e) {
    last_error = e.what();
  } catch (...) {
    last_error = "an unknown error";
  }
  has_error = true;
  return failed;
}

template <typename Body>
void CatchingVoid(Body&& body) {
  Catching([&] {
    body();
    return 0;
  });
}

bool Null(const void* p, const char* function, const char* argument) {
  if (p != nullptr) return false;
  has_error = true;
  last_error = std::string(function) + ": argument '" + argument + "' is NULL";
  return true;
}

char* CopyString(const std::string& s) {
  char* out = new char[s.size() + 1];
  std::memcpy(out, s.c_str(), s.size() + 1);
  return out;
}

PD_OneDimArrayCstr* ToCstrArray(const std::vector<std::string>& names) {
  auto* array = new PD_OneDimArrayCstr{names.size(), new char*[names.size()]};
  for (size_t i = 0; i < names.size(); ++i) array->data[i] = CopyString(names[i]);
  return array;
}

PD_Cstr* ToCstr(const std::string& s) { return new PD_Cstr{s.size() + 1, CopyString(s)}; }

PD_DataType ToC(paddle_infer::DataType dtype) {
  switch (dtype) {
    case paddle_infer::DataType::FLOAT32:
      return PD_DATA_FLOAT32;
    case paddle_infer::DataType::INT32:
      return PD_DATA_INT32;
    case paddle_infer::DataType::INT64:
      return PD_DATA_INT64;
    case paddle_infer::DataType::UINT8:
      return PD_DATA_UINT8;
    case paddle_infer::DataType::INT8:
      return PD_DATA_INT8;
    case paddle_infer::DataType::FLOAT16:
      return PD_DATA_FLOAT16;
    case paddle_infer::DataType::BOOL:
      return PD_DATA_BOOL;
    case paddle_infer::DataType::FLOAT64:
      return PD_DATA_FLOAT64;
  }
  return PD_DATA_UNK;
}

template <typename T>
void CopyFrom(PD_Tensor* tensor, const T* data, const char* function) {
  if (Null(tensor, function, "tensor") || Null(data, function, "data")) return;
  CatchingVoid([&] { tensor->tensor->CopyFromCpu(data); });
}

template <typename T>
void CopyTo(PD_Tensor* tensor, T* data, const char* function) {
  if (Null(tensor, function, "tensor") || Null(data, function, "data")) return;
  CatchingVoid([&] { tensor->tensor->CopyToCpu(data); });
}

}  // namespace

extern "C" {

const char* PD_GetLastErrorMessage(void) { return has_error ? last_error.c_str() : nullptr; }

void PD_OneDimArrayInt32Destroy(PD_OneDimArrayInt32* array) {
  if (array == nullptr) return;
  delete[] array->data;
  delete array;
}
void PD_OneDimArraySizeDestroy(PD_OneDimArraySize* array) {
  if (array == nullptr) return;
  delete[] array->data;
  delete array;
}
void PD_OneDimArrayCstrDestroy(PD_OneDimArrayCstr* array) {
  if (array == nullptr) return;
  for (size_t i = 0; i < array->size; ++i) delete[] array->data[i];
  delete[] array->data;
  delete array;
}
void PD_TwoDimArraySizeDestroy(PD_TwoDimArraySize* array) {
  if (array == nullptr) return;
  for (size_t i = 0; i < array->size; ++i) PD_OneDimArraySizeDestroy(array->data[i]);
  delete[] array->data;
  delete array;
}
void PD_CstrDestroy(PD_Cstr* cstr) {
  if (cstr == nullptr) return;
  delete[] cstr->data;
  delete cstr;
}

// ---- PD_Config ----

PD_Config* PD_ConfigCreate(void) {
  return Catching([] { return new PD_Config(); });
}
void PD_ConfigDestroy(PD_Config* config) { delete config; }

#define PD_CONFIG_CALL(function, ...)            \
  if (Null(config, #function, "config")) return; \
  CatchingVoid([&] { config->config.__VA_ARGS__; })

void PD_ConfigSetModel(PD_Config* config, const char* prog_file_path,
                       const char* params_file_path) {
  if (Null(prog_file_path, "PD_ConfigSetModel", "prog_file_path")) return;
  PD_CONFIG_CALL(PD_ConfigSetModel,
                 SetModel(prog_file_path, params_file_path ? params_file_path : ""));
}
void PD_ConfigSetModelDir(PD_Config* config, const char* model_dir) {
  if (Null(model_dir, "PD_ConfigSetModelDir", "model_dir")) return;
  PD_CONFIG_CALL(PD_ConfigSetModelDir, SetModel(model_dir));
}
void PD_ConfigSetProgFile(PD_Config* config, const char* prog_file_path) {
  if (Null(prog_file_path, "PD_ConfigSetProgFile", "prog_file_path")) return;
  PD_CONFIG_CALL(PD_ConfigSetProgFile, SetProgFile(prog_file_path));
}
void PD_ConfigSetParamsFile(PD_Config* config, const char* params_file_path) {
  if (Null(params_file_path, "PD_ConfigSetParamsFile", "params_file_path")) return;
  PD_CONFIG_CALL(PD_ConfigSetParamsFile, SetParamsFile(params_file_path));
}
void PD_ConfigSetModelBuffer(PD_Config* config, const char* prog_buffer, size_t prog_buffer_size,
                             const char* params_buffer, size_t params_buffer_size) {
  if (Null(prog_buffer, "PD_ConfigSetModelBuffer", "prog_buffer")) return;
  if (params_buffer_size > 0 && Null(params_buffer, "PD_ConfigSetModelBuffer", "params_buffer")) {
    return;
  }
  PD_CONFIG_CALL(PD_ConfigSetModelBuffer,
                 SetModelBuffer(prog_buffer, prog_buffer_size, params_buffer ? params_buffer : "",
                                params_buffer_size));
}
void PD_ConfigEnableUseGpu(PD_Config* config, uint64_t memory_pool_init_size_mb, int32_t device_id,
                           PD_PrecisionType precision) {
  PD_CONFIG_CALL(PD_ConfigEnableUseGpu,
                 EnableUseGpu(memory_pool_init_size_mb, device_id,
                              static_cast<paddle_infer::PrecisionType>(precision)));
}
void PD_ConfigDisableGpu(PD_Config* config) { PD_CONFIG_CALL(PD_ConfigDisableGpu, DisableGpu()); }
void PD_ConfigSetCpuMathLibraryNumThreads(PD_Config* config, int32_t threads) {
  PD_CONFIG_CALL(PD_ConfigSetCpuMathLibraryNumThreads, SetCpuMathLibraryNumThreads(threads));
}
void PD_ConfigSwitchIrOptim(PD_Config* config, PD_Bool x) {
  PD_CONFIG_CALL(PD_ConfigSwitchIrOptim, SwitchIrOptim(x != 0));
}
void PD_ConfigEnableMemoryOptim(PD_Config* config, PD_Bool x) {
  PD_CONFIG_CALL(PD_ConfigEnableMemoryOptim, EnableMemoryOptim(x != 0));
}
void PD_ConfigEnableMKLDNN(PD_Config* config) {
  PD_CONFIG_CALL(PD_ConfigEnableMKLDNN, EnableMKLDNN());
}
void PD_ConfigDisableGlogInfo(PD_Config* config) {
  PD_CONFIG_CALL(PD_ConfigDisableGlogInfo, DisableGlogInfo());
}
#undef PD_CONFIG_CALL

#define PD_CONFIG_GET(function, failed, expression)     \
  if (Null(config, #function, "config")) return failed; \
  return Catching([&] { return expression; }, failed)

PD_Bool PD_ConfigModelFromMemory(PD_Config* config) {
  PD_CONFIG_GET(PD_ConfigModelFromMemory, PD_Bool{FALSE},
                static_cast<PD_Bool>(config->config.model_from_memory()));
}
const char* PD_ConfigGetModelDir(PD_Config* config) {
  PD_CONFIG_GET(PD_ConfigGetModelDir, static_cast<const char*>(nullptr),
                config->config.model_dir().c_str());
}
const char* PD_ConfigGetProgFile(PD_Config* config) {
  PD_CONFIG_GET(PD_ConfigGetProgFile, static_cast<const char*>(nullptr),
                config->config.prog_file().c_str());
}
const char* PD_ConfigGetParamsFile(PD_Config* config) {
  PD_CONFIG_GET(PD_ConfigGetParamsFile, static_cast<const char*>(nullptr),
                config->config.params_file().c_str());
}
PD_Bool PD_ConfigUseGpu(PD_Config* config) {
  PD_CONFIG_GET(PD_ConfigUseGpu, PD_Bool{FALSE}, static_cast<PD_Bool>(config->config.use_gpu()));
}
int32_t PD_ConfigGetCpuMathLibraryNumThreads(PD_Config* config) {
  PD_CONFIG_GET(PD_ConfigGetCpuMathLibraryNumThreads, int32_t{0},
                static_cast<int32_t>(config->config.cpu_math_library_num_threads()));
}
PD_Bool PD_ConfigIrOptim(PD_Config* config) {
  PD_CONFIG_GET(PD_ConfigIrOptim, PD_Bool{FALSE}, static_cast<PD_Bool>(config->config.ir_optim()));
}
PD_Bool PD_ConfigMemoryOptimEnabled(PD_Config* config) {
  PD_CONFIG_GET(PD_ConfigMemoryOptimEnabled, PD_Bool{FALSE},
                static_cast<PD_Bool>(config->config.enable_memory_optim()));
}
PD_Bool PD_ConfigMkldnnEnabled(PD_Config* config) {
  PD_CONFIG_GET(PD_ConfigMkldnnEnabled, PD_Bool{FALSE},
                static_cast<PD_Bool>(config->config.mkldnn_enabled()));
}
PD_Bool PD_ConfigGlogInfoDisabled(PD_Config* config) {
  PD_CONFIG_GET(PD_ConfigGlogInfoDisabled, PD_Bool{FALSE},
                static_cast<PD_Bool>(config->config.glog_info_disabled()));
}
PD_Cstr* PD_ConfigSummary(PD_Config* config) {
  PD_CONFIG_GET(PD_ConfigSummary, static_cast<PD_Cstr*>(nullptr), ToCstr(config->config.Summary()));
}
#undef PD_CONFIG_GET

// ---- PD_Predictor ----

PD_Predictor* PD_PredictorCreate(PD_Config* config) {
  if (Null(config, "PD_PredictorCreate", "config")) return nullptr;
  PD_Predictor* predictor = Catching(
      [&] { return new PD_Predictor{std::make_unique<paddle_infer::Predictor>(config->config)}; });
  delete config;
  return predictor;
}
PD_Predictor* PD_PredictorClone(PD_Predictor* predictor) {
  if (Null(predictor, "PD_PredictorClone", "predictor")) return nullptr;
  return Catching([&] { return new PD_Predictor{predictor->predictor->Clone()}; });
}
PD_OneDimArrayCstr* PD_PredictorGetInputNames(PD_Predictor* predictor) {
  if (Null(predictor, "PD_PredictorGetInputNames", "predictor")) return nullptr;
  return Catching([&] { return ToCstrArray(predictor->predictor->GetInputNames()); });
}
PD_OneDimArrayCstr* PD_PredictorGetOutputNames(PD_Predictor* predictor) {
  if (Null(predictor, "PD_PredictorGetOutputNames", "predictor")) return nullptr;
  return Catching([&] { return ToCstrArray(predictor->predictor->GetOutputNames()); });
}
size_t PD_PredictorGetInputNum(PD_Predictor* predictor) {
  if (Null(predictor, "PD_PredictorGetInputNum", "predictor")) return 0;
  return Catching([&] { return predictor->predictor->GetInputNames().size(); });
}
size_t PD_PredictorGetOutputNum(PD_Predictor* predictor) {
  if (Null(predictor, "PD_PredictorGetOutputNum", "predictor")) return 0;
  return Catching([&] { return predictor->predictor->GetOutputNames().size(); });
}
PD_Tensor* PD_PredictorGetInputHandle(PD_Predictor* predictor, const char* name) {
  if (Null(predictor, "PD_PredictorGetInputHandle", "predictor") ||
      Null(name, "PD_PredictorGetInputHandle", "name")) {
    return nullptr;
  }
  return Catching([&] { return new PD_Tensor{predictor->predictor->GetInputHandle(name)}; });
}
PD_Tensor* PD_PredictorGetOutputHandle(PD_Predictor* predictor, const char* name) {
  if (Null(predictor, "PD_PredictorGetOutputHandle", "predictor") ||
      Null(name, "PD_PredictorGetOutputHandle", "name")) {
    return nullptr;
  }
  return Catching([&] { return new PD_Tensor{predictor->predictor->GetOutputHandle(name)}; });
}
PD_Bool PD_PredictorRun(PD_Predictor* predictor) {
  if (Null(predictor, "PD_PredictorRun", "predictor")) return FALSE;
  return Catching([&] { return static_cast<PD_Bool>(predictor->predictor->Run()); },
                  PD_Bool{FALSE});
}
void PD_PredictorClearIntermediateTensor(PD_Predictor* predictor) {
  if (Null(predictor, "PD_PredictorClearIntermediateTensor", "predictor")) return;
  CatchingVoid([&] { predictor->predictor->ClearIntermediateTensor(); });
}
void PD_PredictorDestroy(PD_Predictor* predictor) { delete predictor; }
PD_Cstr* PD_GetVersion(void) {
  return Catching([] { return ToCstr(paddle_infer::GetVersion()); });
}

// ---- PD_Tensor ----

void PD_TensorDestroy(PD_Tensor* tensor) { delete tensor; }
void PD_TensorReshape(PD_Tensor* tensor, size_t shape_size, int32_t* shape) {
  if (Null(tensor, "PD_TensorReshape", "tensor")) return;
  if (shape_size > 0 && Null(shape, "PD_TensorReshape", "shape")) return;
  CatchingVoid([&] { tensor->tensor->Reshape(std::vector<int>(shape, shape + shape_size)); });
}
void PD_TensorCopyFromCpuFloat(PD_Tensor* t, const float* d) {
  CopyFrom(t, d, "PD_TensorCopyFromCpuFloat");
}
void PD_TensorCopyFromCpuInt64(PD_Tensor* t, const int64_t* d) {
  CopyFrom(t, d, "PD_TensorCopyFromCpuInt64");
}
void PD_TensorCopyFromCpuInt32(PD_Tensor* t, const int32_t* d) {
  CopyFrom(t, d, "PD_TensorCopyFromCpuInt32");
}
void PD_TensorCopyFromCpuUint8(PD_Tensor* t, const uint8_t* d) {
  CopyFrom(t, d, "PD_TensorCopyFromCpuUint8");
}
void PD_TensorCopyFromCpuInt8(PD_Tensor* t, const int8_t* d) {
  CopyFrom(t, d, "PD_TensorCopyFromCpuInt8");
}
void PD_TensorCopyToCpuFloat(PD_Tensor* t, float* d) { CopyTo(t, d, "PD_TensorCopyToCpuFloat"); }
void PD_TensorCopyToCpuInt64(PD_Tensor* t, int64_t* d) { CopyTo(t, d, "PD_TensorCopyToCpuInt64"); }
void PD_TensorCopyToCpuInt32(PD_Tensor* t, int32_t* d) { CopyTo(t, d, "PD_TensorCopyToCpuInt32"); }
void PD_TensorCopyToCpuUint8(PD_Tensor* t, uint8_t* d) { CopyTo(t, d, "PD_TensorCopyToCpuUint8"); }
void PD_TensorCopyToCpuInt8(PD_Tensor* t, int8_t* d) { CopyTo(t, d, "PD_TensorCopyToCpuInt8"); }
PD_OneDimArrayInt32* PD_TensorGetShape(PD_Tensor* tensor) {
  if (Null(tensor, "PD_TensorGetShape", "tensor")) return nullptr;
  return Catching([&] {
    std::vector<int> shape = tensor->tensor->shape();
    auto* array = new PD_OneDimArrayInt32{shape.size(), new int32_t[shape.size()]};
    std::copy(shape.begin(), shape.end(), array->data);
    return array;
  });
}
PD_DataType PD_TensorGetDataType(PD_Tensor* tensor) {
  if (Null(tensor, "PD_TensorGetDataType", "tensor")) return PD_DATA_UNK;
  return Catching([&] { return ToC(tensor->tensor->type()); }, PD_DataType{PD_DATA_UNK});
}
const char* PD_TensorGetName(PD_Tensor* tensor) {
  if (Null(tensor, "PD_TensorGetName", "tensor")) return nullptr;
  return tensor->tensor->name().c_str();
}
PD_TwoDimArraySize* PD_TensorGetLod(PD_Tensor* tensor) {
  if (Null(tensor, "PD_TensorGetLod", "tensor")) return nullptr;
  return Catching([&] {
    std::vector<std::vector<size_t>> lod = tensor->tensor->lod();
    auto* array = new PD_TwoDimArraySize{lod.size(), new PD_OneDimArraySize*[lod.size()]};
    for (size_t i = 0; i < lod.size(); ++i) {
      array->data[i] = new PD_OneDimArraySize{lod[i].size(), new size_t[lod[i].size()]};
      std::copy(lod[i].begin(), lod[i].end(), array->data[i]->data);
    }
    return array;
  });
}

}  // extern "C"
