// paddle.inference: Config, Predictor and Tensor over the paddle_infer C++ API of
// libpaddle_inference (the same classes a C++ program links), in the submodule
// libpaddle.inference. Its errors become Python exceptions by their code.
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "paddle/inference/api/paddle_inference_api.h"
#include "paddle/pybind/bind.h"

namespace paddle::pybind {

namespace {

using paddle_infer::ErrorCode;

PyObject* ExceptionFor(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument:
      return PyExc_ValueError;
    case ErrorCode::kNotFound:
      return PyExc_KeyError;
    case ErrorCode::kFileNotFound:
      return PyExc_FileNotFoundError;
    case ErrorCode::kInvalidType:
      return PyExc_TypeError;
    case ErrorCode::kUnimplemented:
      return PyExc_NotImplementedError;
    case ErrorCode::kResourceExhausted:
      return PyExc_MemoryError;
    case ErrorCode::kPreconditionNotMet:
    case ErrorCode::kInternal:
      return PyExc_RuntimeError;
  }
  return PyExc_RuntimeError;
}

template <typename T>
void CopyFrom(paddle_infer::Tensor& tensor, const py::array& data) {
  auto contiguous = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(data);
  tensor.CopyFromCpu(contiguous.data());
}

template <typename T>
py::array CopyTo(const paddle_infer::Tensor& tensor) {
  std::vector<int> shape = tensor.shape();
  py::array_t<T> out(std::vector<py::ssize_t>(shape.begin(), shape.end()));
  tensor.CopyToCpu(out.mutable_data());
  return out;
}

void CopyFromNumpy(paddle_infer::Tensor& tensor, const py::array& data) {
  std::vector<int> shape(data.shape(), data.shape() + data.ndim());
  py::dtype dtype = data.dtype();
  tensor.Reshape(shape);
  if (dtype.is(py::dtype::of<float>())) return CopyFrom<float>(tensor, data);
  if (dtype.is(py::dtype::of<double>())) return CopyFrom<double>(tensor, data);
  if (dtype.is(py::dtype::of<int64_t>())) return CopyFrom<int64_t>(tensor, data);
  if (dtype.is(py::dtype::of<int32_t>())) return CopyFrom<int32_t>(tensor, data);
  if (dtype.is(py::dtype::of<uint8_t>())) return CopyFrom<uint8_t>(tensor, data);
  if (dtype.is(py::dtype::of<int8_t>())) return CopyFrom<int8_t>(tensor, data);
  if (dtype.is(py::dtype::of<bool>())) return CopyFrom<bool>(tensor, data);
  throw py::type_error("copy_from_cpu of input '" + tensor.name() +
                       "': expected a numpy array of float32, float64, int64, int32, uint8, "
                       "int8 or bool, but received dtype " +
                       py::str(static_cast<py::object>(dtype)).cast<std::string>());
}

py::array CopyToNumpy(const paddle_infer::Tensor& tensor) {
  switch (tensor.type()) {
    case paddle_infer::DataType::FLOAT32:
      return CopyTo<float>(tensor);
    case paddle_infer::DataType::FLOAT64:
      return CopyTo<double>(tensor);
    case paddle_infer::DataType::INT64:
      return CopyTo<int64_t>(tensor);
    case paddle_infer::DataType::INT32:
      return CopyTo<int32_t>(tensor);
    case paddle_infer::DataType::UINT8:
      return CopyTo<uint8_t>(tensor);
    case paddle_infer::DataType::INT8:
      return CopyTo<int8_t>(tensor);
    case paddle_infer::DataType::BOOL:
      return CopyTo<bool>(tensor);
    case paddle_infer::DataType::FLOAT16:
      break;
  }
  throw py::type_error("copy_to_cpu of '" + tensor.name() + "': float16 outputs are not supported");
}

}  // namespace

void BindInference(py::module_& parent) {
  using paddle_infer::Config;
  using paddle_infer::Predictor;
  using paddle_infer::Tensor;
  py::module_ m = parent.def_submodule("inference", "The paddle_infer deployment API");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const paddle_infer::Error& e) {
      PyErr_SetString(ExceptionFor(e.code()), e.what());
    }
  });

  py::enum_<paddle_infer::DataType>(m, "DataType")
      .value("FLOAT32", paddle_infer::DataType::FLOAT32)
      .value("INT64", paddle_infer::DataType::INT64)
      .value("INT32", paddle_infer::DataType::INT32)
      .value("UINT8", paddle_infer::DataType::UINT8)
      .value("INT8", paddle_infer::DataType::INT8)
      .value("FLOAT16", paddle_infer::DataType::FLOAT16)
      .value("BOOL", paddle_infer::DataType::BOOL)
      .value("FLOAT64", paddle_infer::DataType::FLOAT64);
  py::enum_<paddle_infer::PlaceType>(m, "PlaceType")
      .value("UNK", paddle_infer::PlaceType::kUNK)
      .value("CPU", paddle_infer::PlaceType::kCPU)
      .value("GPU", paddle_infer::PlaceType::kGPU)
      .value("XPU", paddle_infer::PlaceType::kXPU);
  py::enum_<paddle_infer::PrecisionType>(m, "PrecisionType")
      .value("Float32", paddle_infer::PrecisionType::kFloat32)
      .value("Int8", paddle_infer::PrecisionType::kInt8)
      .value("Half", paddle_infer::PrecisionType::kHalf)
      .value("Bfloat16", paddle_infer::PrecisionType::kBf16);

  py::class_<Config>(m, "Config")
      .def(py::init<>())
      .def(py::init<const std::string&>(), py::arg("model_dir"))
      .def(py::init<const std::string&, const std::string&>(), py::arg("prog_file"),
           py::arg("params_file"))
      .def("set_model", py::overload_cast<const std::string&>(&Config::SetModel),
           py::arg("model_dir"))
      .def("set_model",
           py::overload_cast<const std::string&, const std::string&>(&Config::SetModel),
           py::arg("prog_file"), py::arg("params_file"))
      .def("set_prog_file", &Config::SetProgFile)
      .def("set_params_file", &Config::SetParamsFile)
      .def("set_model_buffer",
           [](Config& c, const py::bytes& prog, size_t prog_size, const py::bytes& params,
              size_t params_size) {
             std::string p = prog, q = params;
             if (prog_size > p.size() || params_size > q.size()) {
               throw py::value_error("set_model_buffer: a size is larger than its buffer");
             }
             c.SetModelBuffer(p.data(), prog_size, q.data(), params_size);
           })
      .def("model_from_memory", &Config::model_from_memory)
      .def("model_dir", &Config::model_dir)
      .def("prog_file", &Config::prog_file)
      .def("params_file", &Config::params_file)
      .def("enable_use_gpu", &Config::EnableUseGpu, py::arg("memory_pool_init_size_mb"),
           py::arg("device_id") = 0,
           py::arg("precision_mode") = paddle_infer::PrecisionType::kFloat32)
      .def("disable_gpu", &Config::DisableGpu)
      .def("use_gpu", &Config::use_gpu)
      .def("gpu_device_id", &Config::gpu_device_id)
      .def("set_cpu_math_library_num_threads", &Config::SetCpuMathLibraryNumThreads)
      .def("cpu_math_library_num_threads", &Config::cpu_math_library_num_threads)
      .def("switch_ir_optim", &Config::SwitchIrOptim, py::arg("x") = true)
      .def("ir_optim", &Config::ir_optim)
      .def("enable_memory_optim", &Config::EnableMemoryOptim, py::arg("x") = true)
      .def("enable_memory_optim_enabled", &Config::enable_memory_optim)
      .def("enable_mkldnn", &Config::EnableMKLDNN)
      .def("mkldnn_enabled", &Config::mkldnn_enabled)
      .def("disable_glog_info", &Config::DisableGlogInfo)
      .def("glog_info_disabled", &Config::glog_info_disabled)
      .def("summary", &Config::Summary);

  py::class_<Tensor>(m, "Tensor")
      .def(
          "reshape", [](Tensor& t, const std::vector<int>& shape) { t.Reshape(shape); },
          py::arg("shape"))
      .def("copy_from_cpu", &CopyFromNumpy, py::arg("data"))
      .def("copy_to_cpu", &CopyToNumpy)
      .def("shape", &Tensor::shape)
      .def("type", &Tensor::type)
      .def("name", &Tensor::name)
      .def("lod", &Tensor::lod)
      .def("set_lod", &Tensor::SetLoD)
      .def("place", &Tensor::place);

  // Handles keep their predictor alive; Run releases the GIL so clones run in parallel threads.
  py::class_<Predictor, std::shared_ptr<Predictor>>(m, "Predictor")
      .def(py::init<const Config&>())
      .def("get_input_names", &Predictor::GetInputNames)
      .def("get_output_names", &Predictor::GetOutputNames)
      .def("get_input_handle", &Predictor::GetInputHandle, py::keep_alive<0, 1>())
      .def("get_output_handle", &Predictor::GetOutputHandle, py::keep_alive<0, 1>())
      .def("run", &Predictor::Run, py::call_guard<py::gil_scoped_release>())
      .def("clone", [](Predictor& p) { return std::shared_ptr<Predictor>(p.Clone()); })
      .def("clear_intermediate_tensor", &Predictor::ClearIntermediateTensor);

  m.def("create_predictor", &paddle_infer::CreatePredictor, py::arg("config"));
  m.def("get_version", &paddle_infer::GetVersion);
  m.def("get_num_bytes_of_data_type", &paddle_infer::GetNumBytesOfDataType);
}

}  // namespace paddle::pybind
