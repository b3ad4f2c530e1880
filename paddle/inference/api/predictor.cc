// The paddle_infer API over the static-graph Executor. A loaded model (program without its feed
// and fetch ops, input and output names, the weights in a root scope) is shared read-only by a
// predictor and its clones; each predictor runs in a child scope of its own, where its inputs,
// outputs and intermediates live, so clones run concurrently.
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <utility>

#include "paddle/common/errors.h"
#include "paddle/common/flags.h"
#include "paddle/framework/executor.h"
#include "paddle/framework/inference_passes.h"
#include "paddle/framework/program_desc.h"
#include "paddle/framework/scope.h"
#include "paddle/framework/tensor_io.h"
#include "paddle/imperative/eager_dispatch.h"
#include "paddle/inference/api/paddle_inference_api.h"
#include "paddle/kernels/funcs/constant_weights.h"
#include "paddle/memory/memcpy.h"

namespace paddle_infer {

namespace {

namespace fw = paddle::framework;
using CoreDType = paddle::DataType;
using paddle::DDim;
using paddle::DenseTensor;

ErrorCode ApiCode(paddle::ErrorCode code) {
  switch (code) {
    case paddle::ErrorCode::kInvalidArgument:
    case paddle::ErrorCode::kOutOfRange:
      return ErrorCode::kInvalidArgument;
    case paddle::ErrorCode::kNotFound:
      return ErrorCode::kNotFound;
    case paddle::ErrorCode::kUnimplemented:
      return ErrorCode::kUnimplemented;
    case paddle::ErrorCode::kResourceExhausted:
      return ErrorCode::kResourceExhausted;
    case paddle::ErrorCode::kPreconditionNotMet:
      return ErrorCode::kPreconditionNotMet;
    case paddle::ErrorCode::kInvalidType:
      return ErrorCode::kInvalidType;
    case paddle::ErrorCode::kInternal:
      return ErrorCode::kInternal;
  }
  return ErrorCode::kInternal;
}

// Runs `body`, turning the core's errors into the API's: the core's exception types are not part
// of the library's interface.
template <typename Body>
auto Guarded(Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const Error&) {
    throw;
  } catch (const paddle::Error& e) {
    throw Error(ApiCode(e.code()), e.what());
  } catch (const std::bad_alloc&) {
    throw Error(ErrorCode::kResourceExhausted, "out of memory");
  }
}

[[noreturn]] void Fail(ErrorCode code, const std::string& message) { throw Error(code, message); }

std::string ShapeString(const std::vector<int64_t>& shape) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < shape.size(); ++i) os << (i ? ", " : "") << shape[i];
  os << "]";
  return os.str();
}

bool IsFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return in.good();
}

std::string ReadFile(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    Fail(ErrorCode::kFileNotFound,
         std::string("the ") + what + " '" + path + "' does not exist or cannot be read");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

CoreDType ToCore(paddle_infer::DataType dtype) {
  switch (dtype) {
    case paddle_infer::DataType::FLOAT32:
      return CoreDType::FLOAT32;
    case paddle_infer::DataType::INT64:
      return CoreDType::INT64;
    case paddle_infer::DataType::INT32:
      return CoreDType::INT32;
    case paddle_infer::DataType::UINT8:
      return CoreDType::UINT8;
    case paddle_infer::DataType::INT8:
      return CoreDType::INT8;
    case paddle_infer::DataType::FLOAT16:
      return CoreDType::FLOAT16;
    case paddle_infer::DataType::BOOL:
      return CoreDType::BOOL;
    case paddle_infer::DataType::FLOAT64:
      return CoreDType::FLOAT64;
  }
  return CoreDType::UNDEFINED;
}

paddle_infer::DataType FromCore(CoreDType dtype, const std::string& name) {
  switch (dtype) {
    case CoreDType::FLOAT32:
      return paddle_infer::DataType::FLOAT32;
    case CoreDType::INT64:
      return paddle_infer::DataType::INT64;
    case CoreDType::INT32:
      return paddle_infer::DataType::INT32;
    case CoreDType::UINT8:
      return paddle_infer::DataType::UINT8;
    case CoreDType::INT8:
      return paddle_infer::DataType::INT8;
    case CoreDType::FLOAT16:
      return paddle_infer::DataType::FLOAT16;
    case CoreDType::BOOL:
      return paddle_infer::DataType::BOOL;
    case CoreDType::FLOAT64:
      return paddle_infer::DataType::FLOAT64;
    default:
      Fail(ErrorCode::kUnimplemented, "variable '" + name + "' has dtype " +
                                          paddle::DataTypeName(dtype) +
                                          ", which the inference API does not expose");
  }
}

template <typename T>
CoreDType CoreTypeOf();
template <>
CoreDType CoreTypeOf<float>() {
  return CoreDType::FLOAT32;
}
template <>
CoreDType CoreTypeOf<double>() {
  return CoreDType::FLOAT64;
}
template <>
CoreDType CoreTypeOf<int64_t>() {
  return CoreDType::INT64;
}
template <>
CoreDType CoreTypeOf<int32_t>() {
  return CoreDType::INT32;
}
template <>
CoreDType CoreTypeOf<uint8_t>() {
  return CoreDType::UINT8;
}
template <>
CoreDType CoreTypeOf<int8_t>() {
  return CoreDType::INT8;
}
template <>
CoreDType CoreTypeOf<bool>() {
  return CoreDType::BOOL;
}

}  // namespace

Error::Error(ErrorCode code, const std::string& message)
    : std::runtime_error(message), code_(code) {}

// ---- Config ---------------------------------------------------------------------------------

struct Config::Impl {
  std::string model_dir, prog_file, params_file;
  bool from_memory = false;
  std::string prog_buffer, params_buffer;
  bool use_gpu = false;
  int device_id = 0;
  uint64_t memory_pool_init_size_mb = 0;
  PrecisionType precision = PrecisionType::kFloat32;
  int math_threads = 1;
  bool ir_optim = true;
  bool memory_optim = false;
  bool mkldnn = false;
  bool glog_info_disabled = false;
};

Config::Config() : impl_(std::make_unique<Impl>()) {}
Config::Config(const std::string& model_dir) : Config() { SetModel(model_dir); }
Config::Config(const std::string& prog_file, const std::string& params_file) : Config() {
  SetModel(prog_file, params_file);
}
Config::Config(const Config& other) : impl_(std::make_unique<Impl>(*other.impl_)) {}
Config& Config::operator=(const Config& other) {
  *impl_ = *other.impl_;
  return *this;
}
Config::~Config() = default;

void Config::SetModel(const std::string& model_dir) {
  impl_->model_dir = model_dir;
  impl_->prog_file.clear();
  impl_->params_file.clear();
  impl_->from_memory = false;
}
void Config::SetModel(const std::string& prog_file, const std::string& params_file) {
  impl_->model_dir.clear();
  impl_->prog_file = prog_file;
  impl_->params_file = params_file;
  impl_->from_memory = false;
}
void Config::SetProgFile(const std::string& prog_file) {
  impl_->prog_file = prog_file;
  impl_->from_memory = false;
}
void Config::SetParamsFile(const std::string& params_file) {
  impl_->params_file = params_file;
  impl_->from_memory = false;
}
void Config::SetModelBuffer(const char* prog_buffer, size_t prog_buffer_size,
                            const char* params_buffer, size_t params_buffer_size) {
  impl_->prog_buffer.assign(prog_buffer, prog_buffer_size);
  impl_->params_buffer.assign(params_buffer, params_buffer_size);
  impl_->from_memory = true;
}
bool Config::model_from_memory() const { return impl_->from_memory; }
const std::string& Config::model_dir() const { return impl_->model_dir; }
const std::string& Config::prog_file() const { return impl_->prog_file; }
const std::string& Config::params_file() const { return impl_->params_file; }

void Config::EnableUseGpu(uint64_t memory_pool_init_size_mb, int device_id,
                          PrecisionType precision) {
  impl_->use_gpu = true;
  impl_->memory_pool_init_size_mb = memory_pool_init_size_mb;
  impl_->device_id = device_id;
  impl_->precision = precision;
}
void Config::DisableGpu() { impl_->use_gpu = false; }
bool Config::use_gpu() const { return impl_->use_gpu; }
int Config::gpu_device_id() const { return impl_->device_id; }
void Config::SetCpuMathLibraryNumThreads(int n) {
  if (n < 1) {
    Fail(ErrorCode::kInvalidArgument,
         "SetCpuMathLibraryNumThreads: expected a positive thread count, but received " +
             std::to_string(n));
  }
  impl_->math_threads = n;
}
int Config::cpu_math_library_num_threads() const { return impl_->math_threads; }
void Config::SwitchIrOptim(bool x) { impl_->ir_optim = x; }
bool Config::ir_optim() const { return impl_->ir_optim; }
void Config::EnableMemoryOptim(bool x) { impl_->memory_optim = x; }
bool Config::enable_memory_optim() const { return impl_->memory_optim; }
void Config::EnableMKLDNN() { impl_->mkldnn = true; }
bool Config::mkldnn_enabled() const { return impl_->mkldnn; }
void Config::DisableGlogInfo() { impl_->glog_info_disabled = true; }
bool Config::glog_info_disabled() const { return impl_->glog_info_disabled; }

std::string Config::Summary() const {
  std::ostringstream os;
  auto row = [&os](const std::string& key, const std::string& value) {
    os << key << std::string(key.size() < 28 ? 28 - key.size() : 1, ' ') << value << "\n";
  };
  auto on = [](bool x) { return std::string(x ? "true" : "false"); };
  row("version", GetVersion());
  if (impl_->from_memory) {
    row("model", "from memory buffers");
  } else if (!impl_->model_dir.empty()) {
    row("model_dir", impl_->model_dir);
  } else {
    row("model_file", impl_->prog_file);
    row("params_file", impl_->params_file);
  }
  row("use_gpu", on(impl_->use_gpu));
  if (impl_->use_gpu) row("gpu_device_id", std::to_string(impl_->device_id));
  row("cpu_math_thread", std::to_string(impl_->math_threads));
  row("enable_mkldnn", on(impl_->mkldnn) + " (oneDNN kernels are chosen per op either way)");
  row("ir_optim", on(impl_->ir_optim) +
                      " (dropout removal, conv + batch_norm folding, conv + bias + residual + "
                      "activation, fc and elementwise + activation fusion, oneDNN layouts "
                      "kept between convolutions)");
  row("memory_optim", on(impl_->memory_optim) + " (buffers are always freed after their last use)");
  row("glog_info", on(!impl_->glog_info_disabled));
  return os.str();
}

// ---- the loaded model -------------------------------------------------------------------------

namespace {

struct LoadedModel {
  std::unique_ptr<fw::ProgramDesc> program;  // without feed and fetch ops
  std::vector<std::string> inputs, outputs;
  fw::Scope weights;
  // The weights no op writes, which kernels may keep in derived forms across runs.
  std::unique_ptr<paddle::funcs::ConstantWeights> constant_weights;
  paddle::Place place = paddle::CPUPlace();
  int math_threads = 1;
  // Guards creating and deleting the predictors' child scopes of `weights`.
  std::mutex scopes_mutex;
};

// Takes the feed and fetch ops out of the main block, recording their variables in column order.
void StripFeedFetch(LoadedModel* model, const std::string& source) {
  fw::BlockDesc* block = model->program->MainBlock();
  std::map<int, std::string> feeds, fetches;
  for (size_t i = block->OpSize(); i-- > 0;) {
    fw::OpDesc* op = block->Op(i);
    bool feed = op->type() == "feed";
    if (!feed && op->type() != "fetch" && op->type() != "fetch_v2") continue;
    std::vector<std::string> args = feed ? op->Output("Out") : op->Input("X");
    int col = 0;
    if (const auto* attr = op->FindAttr("col")) col = attr->i();
    if (args.size() != 1 || (feed ? feeds : fetches).count(col)) {
      Fail(ErrorCode::kInvalidArgument, source + ": a " + op->type() +
                                            " op without one variable or with a repeated 'col' " +
                                            std::to_string(col) + "; the model is corrupt");
    }
    (feed ? feeds : fetches)[col] = args[0];
    block->RemoveOps(i, i + 1);
  }
  if (feeds.empty() || fetches.empty()) {
    Fail(ErrorCode::kInvalidArgument, source + ": the program has no " +
                                          (feeds.empty() ? "feed" : "fetch") +
                                          " ops; save it with paddle.static.save_inference_model");
  }
  for (auto& [col, name] : feeds) model->inputs.push_back(name);
  for (auto& [col, name] : fetches) model->outputs.push_back(name);
}

// The persistable variables a parameters file holds, sorted byte-wise as Paddle writes them.
std::vector<const fw::VarDesc*> SavedVars(const fw::ProgramDesc& program) {
  std::map<std::string, const fw::VarDesc*> vars;
  for (size_t b = 0; b < program.Size(); ++b) {
    for (const fw::VarDesc* var : program.Block(b)->AllVars()) {
      auto kind = var->kind();
      if (var->persistable() && kind != fw::proto::VarType::FEED_MINIBATCH &&
          kind != fw::proto::VarType::FETCH_LIST && kind != fw::proto::VarType::READER &&
          kind != fw::proto::VarType::RAW) {
        vars.emplace(var->name(), var);
      }
    }
  }
  std::vector<const fw::VarDesc*> sorted;
  for (auto& [name, var] : vars) sorted.push_back(var);
  return sorted;
}

void CheckMatches(const fw::VarDesc& var, const DenseTensor& value, const std::string& source) {
  std::vector<int64_t> declared = var.shape(), loaded = value.dims().ToVector();
  bool same_shape = declared.size() == loaded.size();
  for (size_t i = 0; same_shape && i < declared.size(); ++i) {
    same_shape = declared[i] < 0 || declared[i] == loaded[i];
  }
  if (!same_shape || var.dtype() != value.dtype()) {
    Fail(ErrorCode::kInvalidArgument,
         "the parameters " + source + " do not match the program: variable '" + var.name() +
             "' is " + paddle::DataTypeName(value.dtype()) + " " + ShapeString(loaded) +
             " there but " + paddle::DataTypeName(var.dtype()) + " " + ShapeString(declared) +
             " in the program");
  }
}

// `prog_buffer` and `params_buffer`: the model's bytes when config.model_from_memory().
// The buffers of the persistable variables that no op of the program writes (a program saved
// for training may still update, say, batch_norm's running statistics in place).
std::vector<const void*> UnwrittenWeights(const fw::ProgramDesc& program, fw::Scope& weights) {
  std::set<std::string> written;
  for (size_t b = 0; b < program.Size(); ++b) {
    const fw::BlockDesc* block = program.Block(b);
    for (size_t i = 0; i < block->OpSize(); ++i) {
      for (const std::string& name : block->Op(i)->OutputNames()) written.insert(name);
    }
  }
  std::vector<const void*> buffers;
  for (const fw::VarDesc* var : SavedVars(program)) {
    fw::Variable* value = weights.FindVar(var->name());
    if (written.count(var->name()) || value == nullptr) continue;
    const DenseTensor& tensor = *value->tensor();
    if (tensor.initialized()) buffers.push_back(tensor.raw_data());
  }
  return buffers;
}

std::shared_ptr<LoadedModel> LoadModel(const Config& config, const std::string& prog_buffer,
                                       const std::string& params_buffer) {
  // What the Python module does on import: FLAGS_* from the environment, and the op dispatcher
  // that backward rules and composite kernels call through.
  static std::once_flag initialised;
  std::call_once(initialised, [] {
    paddle::flags::InitFromEnvironment();
    paddle::imperative::InitEager();
  });
  auto model = std::make_shared<LoadedModel>();
  if (config.use_gpu()) {
    Fail(ErrorCode::kUnimplemented,
         "this inference library runs on the CPU only; call Config::DisableGpu()");
  }
  model->math_threads = config.cpu_math_library_num_threads();
  // Where the parameters come from: a buffer, one combined file, or (neither) one file per
  // variable beside the program; `params_source` names it in error messages.
  std::string program_source, params_path, params_source;
  if (config.model_from_memory()) {
    program_source = "the program buffer";
    params_source = "buffer";
  } else if (!config.model_dir().empty()) {
    const std::string& dir = config.model_dir();
    for (const char* stem : {"/inference", "/model"}) {
      if (IsFile(dir + stem + ".pdmodel")) {
        program_source = dir + stem + ".pdmodel";
        params_path = dir + stem + ".pdiparams";
        break;
      }
    }
    if (program_source.empty() && IsFile(dir + "/__model__")) program_source = dir + "/__model__";
    if (program_source.empty()) {
      Fail(ErrorCode::kFileNotFound, "the model directory '" + dir +
                                         "' holds no inference.pdmodel, model.pdmodel or "
                                         "__model__; pass the files to SetModel(prog, params)");
    }
  } else {
    if (config.prog_file().empty()) {
      Fail(ErrorCode::kInvalidArgument, "Config names no model: call SetModel first");
    }
    program_source = config.prog_file();
    params_path = config.params_file();
  }
  if (!params_path.empty()) params_source = "file '" + params_path + "'";
  std::string program_bytes =
      config.model_from_memory() ? prog_buffer : ReadFile(program_source, "program file");
  model->program = Guarded([&] { return fw::ProgramDesc::Parse(program_bytes, program_source); });
  StripFeedFetch(model.get(), program_source);

  std::vector<const fw::VarDesc*> saved = SavedVars(*model->program);
  std::vector<std::string> names;
  for (const fw::VarDesc* var : saved) names.push_back(var->name());
  std::vector<DenseTensor> values;
  if (!names.empty()) {
    if (config.model_from_memory()) {
      std::istringstream in(params_buffer);
      values = Guarded([&] { return fw::DeserializeCombine(in, names, "the params buffer"); });
    } else if (!params_path.empty()) {
      if (!IsFile(params_path)) {
        Fail(ErrorCode::kFileNotFound,
             "the params file '" + params_path + "' does not exist or cannot be read");
      }
      values = Guarded([&] { return fw::LoadCombine(params_path, names); });
    } else {
      // A model directory with one `save`-op file per variable, named after it.
      std::string dir = config.model_dir().empty()
                            ? program_source.substr(0, program_source.find_last_of('/') + 1)
                            : config.model_dir() + "/";
      params_source = "files in '" + dir + "'";
      for (const std::string& name : names) {
        if (!IsFile(dir + name)) {
          Fail(ErrorCode::kFileNotFound,
               "the parameter file '" + dir + name + "' of variable '" + name + "' does not exist");
        }
        values.push_back(Guarded([&] { return fw::LoadDenseTensor(dir + name); }));
      }
    }
  }
  for (size_t i = 0; i < saved.size(); ++i) {
    CheckMatches(*saved[i], values[i], params_source);
    fw::Variable* var = model->weights.Var(names[i]);
    var->set_kind(saved[i]->kind());
    *var->tensor() = std::move(values[i]);
  }
  // The analysis passes rewrite the program and fold weights in this model's own scope, before
  // any predictor or clone prepares it.
  if (config.ir_optim()) {
    Guarded([&] {
      return fw::ApplyInferencePasses(model->program.get(), &model->weights, model->outputs);
    });
  }
  model->constant_weights = std::make_unique<paddle::funcs::ConstantWeights>(
      UnwrittenWeights(*model->program, model->weights));
  return model;
}

}  // namespace

// ---- Tensor ---------------------------------------------------------------------------------

struct Tensor::Impl {
  std::string name;
  DenseTensor* tensor;
  CoreDType declared;  // the program's dtype for the variable
  bool input;
  paddle::Place place;
};

Tensor::Tensor(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Tensor::~Tensor() = default;

void Tensor::Reshape(const std::vector<int>& shape) {
  if (!impl_->input) {
    Fail(ErrorCode::kPreconditionNotMet,
         "Reshape: '" + impl_->name + "' is an output; only inputs can be reshaped");
  }
  std::vector<int64_t> dims(shape.begin(), shape.end());
  for (int64_t d : dims) {
    if (d < 0) {
      Fail(ErrorCode::kInvalidArgument, "Reshape of input '" + impl_->name +
                                            "': expected non-negative sizes, but received " +
                                            ShapeString(dims));
    }
  }
  Guarded([&] {
    impl_->tensor->Resize(DDim(dims));
    impl_->tensor->set_dtype(impl_->declared);
  });
}

template <typename T>
void Tensor::CopyFromCpu(const T* data) {
  if (!impl_->input) {
    Fail(ErrorCode::kPreconditionNotMet,
         "CopyFromCpu: '" + impl_->name + "' is an output; copy into the inputs");
  }
  CoreDType given = CoreTypeOf<T>();
  if (given != impl_->declared) {
    Fail(ErrorCode::kInvalidType, std::string("CopyFromCpu of input '") + impl_->name +
                                      "': the program declares it " +
                                      paddle::DataTypeName(impl_->declared) + ", but the data is " +
                                      paddle::DataTypeName(given));
  }
  DenseTensor* t = impl_->tensor;
  if (t->dims().size() == 0 && t->dtype() == CoreDType::UNDEFINED) {
    Fail(ErrorCode::kPreconditionNotMet,
         "CopyFromCpu of input '" + impl_->name + "': call Reshape first to give its shape");
  }
  Guarded([&] {
    void* dst = t->AllocateStorage(impl_->place);
    paddle::memory::Copy(impl_->place, dst, paddle::CPUPlace(), data, t->nbytes());
  });
}

template <typename T>
void Tensor::CopyToCpu(T* data) const {
  const DenseTensor* t = impl_->tensor;
  if (!t->initialized()) {
    Fail(ErrorCode::kPreconditionNotMet, "CopyToCpu: '" + impl_->name + "' holds no data" +
                                             (impl_->input ? "" : "; call Predictor::Run first"));
  }
  CoreDType wanted = CoreTypeOf<T>();
  if (wanted != t->dtype()) {
    Fail(ErrorCode::kInvalidType, std::string("CopyToCpu of '") + impl_->name + "': it is " +
                                      paddle::DataTypeName(t->dtype()) +
                                      ", but the destination is " + paddle::DataTypeName(wanted));
  }
  Guarded([&] {
    paddle::memory::Copy(paddle::CPUPlace(), data, t->place(), t->raw_data(), t->nbytes());
  });
}

#define PD_INSTANTIATE_COPIES(T)                                     \
  template PD_INFER_DECL void Tensor::CopyFromCpu<T>(const T* data); \
  template PD_INFER_DECL void Tensor::CopyToCpu<T>(T * data) const;
PD_INSTANTIATE_COPIES(float)
PD_INSTANTIATE_COPIES(double)
PD_INSTANTIATE_COPIES(int64_t)
PD_INSTANTIATE_COPIES(int32_t)
PD_INSTANTIATE_COPIES(uint8_t)
PD_INSTANTIATE_COPIES(int8_t)
PD_INSTANTIATE_COPIES(bool)
#undef PD_INSTANTIATE_COPIES

std::vector<int> Tensor::shape() const {
  std::vector<int64_t> dims = impl_->tensor->dims().ToVector();
  return std::vector<int>(dims.begin(), dims.end());
}
DataType Tensor::type() const {
  CoreDType dtype = impl_->tensor->dtype();
  return FromCore(dtype == CoreDType::UNDEFINED ? impl_->declared : dtype, impl_->name);
}
const std::string& Tensor::name() const { return impl_->name; }
// DenseTensor keeps no LoD (see tensor_io.h): sequences are not supported, so it is empty.
std::vector<std::vector<size_t>> Tensor::lod() const { return {}; }
void Tensor::SetLoD(const std::vector<std::vector<size_t>>& lod) {
  if (!lod.empty()) {
    Fail(ErrorCode::kUnimplemented,
         "SetLoD of '" + impl_->name + "': tensors with LoD (sequences) are not supported");
  }
}
PlaceType Tensor::place() const {
  return impl_->place.type() == paddle::AllocationType::GPU ? PlaceType::kGPU : PlaceType::kCPU;
}

// ---- Predictor ------------------------------------------------------------------------------

struct Predictor::Impl {
  std::shared_ptr<LoadedModel> model;
  fw::Scope* scope = nullptr;  // a child of model->weights
  fw::Executor executor{paddle::CPUPlace()};
  std::unique_ptr<fw::PreparedBlock> prepared;

  explicit Impl(std::shared_ptr<LoadedModel> loaded)
      : model(std::move(loaded)), executor(model->place) {
    {
      std::lock_guard<std::mutex> lock(model->scopes_mutex);
      scope = &model->weights.NewScope();
    }
    fw::PrepareOptions options;
    options.skip_vars = model->inputs;
    options.skip_vars.insert(options.skip_vars.end(), model->outputs.begin(), model->outputs.end());
    prepared = Guarded([&] { return executor.Prepare(*model->program, 0, options); });
    for (const std::string& name : model->inputs) scope->Var(name);
  }
  ~Impl() {
    std::lock_guard<std::mutex> lock(model->scopes_mutex);
    model->weights.DeleteScope(scope);
  }

  std::unique_ptr<Tensor> Handle(const std::string& name, bool input) {
    const std::vector<std::string>& names = input ? model->inputs : model->outputs;
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      std::string known;
      for (const std::string& n : names) known += (known.empty() ? "'" : ", '") + n + "'";
      Fail(ErrorCode::kNotFound, std::string(input ? "GetInputHandle" : "GetOutputHandle") +
                                     ": the model has no " + (input ? "input" : "output") +
                                     " named '" + name + "'; its " +
                                     (input ? "inputs" : "outputs") + " are " + known);
    }
    auto impl = std::make_unique<Tensor::Impl>();
    impl->name = name;
    impl->tensor = scope->Var(name)->tensor();
    const fw::VarDesc* var = model->program->MainBlock()->FindVar(name);
    impl->declared = var != nullptr ? var->dtype() : CoreDType::FLOAT32;
    impl->input = input;
    impl->place = model->place;
    return std::unique_ptr<Tensor>(new Tensor(std::move(impl)));
  }

  void CheckInputs() {
    for (const std::string& name : model->inputs) {
      const DenseTensor& t = *scope->FindVar(name)->tensor();
      if (!t.initialized()) {
        Fail(ErrorCode::kPreconditionNotMet,
             "Run: input '" + name + "' has no data; set it with Reshape and CopyFromCpu");
      }
      const fw::VarDesc* var = model->program->MainBlock()->FindVar(name);
      if (var == nullptr) continue;
      if (t.dtype() != var->dtype()) {
        Fail(ErrorCode::kInvalidType, std::string("Run: input '") + name + "' must be " +
                                          paddle::DataTypeName(var->dtype()) + ", but it holds " +
                                          paddle::DataTypeName(t.dtype()));
      }
      std::vector<int64_t> declared = var->shape(), given = t.dims().ToVector();
      bool ok = declared.size() == given.size();
      for (size_t i = 0; ok && i < declared.size(); ++i) {
        ok = declared[i] < 0 || declared[i] == given[i];
      }
      if (!ok) {
        Fail(ErrorCode::kInvalidArgument,
             "Run: input '" + name + "' must have shape " + ShapeString(declared) +
                 " (-1: any size), but it has shape " + ShapeString(given));
      }
    }
  }
};

Predictor::Predictor(const Config& config)
    : impl_(Guarded([&] {
        return std::make_unique<Impl>(
            LoadModel(config, config.impl_->prog_buffer, config.impl_->params_buffer));
      })) {}
Predictor::Predictor(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Predictor::~Predictor() = default;

std::vector<std::string> Predictor::GetInputNames() { return impl_->model->inputs; }
std::vector<std::string> Predictor::GetOutputNames() { return impl_->model->outputs; }
std::unique_ptr<Tensor> Predictor::GetInputHandle(const std::string& name) {
  return impl_->Handle(name, true);
}
std::unique_ptr<Tensor> Predictor::GetOutputHandle(const std::string& name) {
  return impl_->Handle(name, false);
}

bool Predictor::Run() {
  impl_->CheckInputs();
  // The thread count applies to this run only: the calling thread's own setting comes back.
  int caller_threads = omp_get_max_threads();
  omp_set_num_threads(impl_->model->math_threads);
  try {
    paddle::funcs::ConstantWeights::Installed constant(impl_->model->constant_weights.get());
    Guarded([&] { impl_->executor.Run(impl_->prepared.get(), impl_->scope); });
  } catch (...) {
    omp_set_num_threads(caller_threads);
    throw;
  }
  omp_set_num_threads(caller_threads);
  return true;
}

std::unique_ptr<Predictor> Predictor::Clone() {
  return std::unique_ptr<Predictor>(
      new Predictor(Guarded([&] { return std::make_unique<Impl>(impl_->model); })));
}

void Predictor::ClearIntermediateTensor() {
  const auto& model = *impl_->model;
  for (const std::string& name : impl_->scope->LocalVarNames()) {
    bool kept = std::count(model.inputs.begin(), model.inputs.end(), name) ||
                std::count(model.outputs.begin(), model.outputs.end(), name);
    const fw::VarDesc* var = model.program->MainBlock()->FindVar(name);
    if (kept || (var != nullptr && var->persistable())) continue;
    DenseTensor* t = impl_->scope->FindLocalVar(name)->tensor();
    t->set_holder(nullptr);
  }
}

std::shared_ptr<Predictor> CreatePredictor(const Config& config) {
  return std::make_shared<Predictor>(config);
}

std::string GetVersion() { return "version: " PADDLE_VERSION_STRING; }

int GetNumBytesOfDataType(DataType dtype) {
  return static_cast<int>(paddle::SizeOf(ToCore(dtype)));
}

}  // namespace paddle_infer
