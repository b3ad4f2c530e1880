// serve_model: loads a model saved by paddle.static.save_inference_model (or paddle.jit.save)
// and runs it on the inputs read from standard input, printing every output. Inputs and outputs
// may be float32, float64, int64 or int32 (token ids, class indices), as the model declares.
//
//   serve_model MODEL.pdmodel MODEL.pdiparams < inputs.txt
//
// Input: for each model input, in the order GetInputNames() gives, one line with its shape
// and one line with its values. Output: for each model output, its name, a line with its shape
// and a line with its values.
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "paddle_inference_api.h"

namespace {

std::vector<double> ReadLine(std::istream& in, const std::string& what) {
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error("missing the " + what + " line");
  std::istringstream fields(line);
  std::vector<double> values;
  for (double v; fields >> v;) values.push_back(v);
  return values;
}

// Copies `values` into `input` as the element type T.
template <typename T>
void Feed(paddle_infer::Tensor& input, const std::vector<double>& values) {
  std::vector<T> data(values.begin(), values.end());
  input.CopyFromCpu(data.data());
}

// Prints the numel elements of `output` read as the element type T.
template <typename T>
void PrintValues(paddle_infer::Tensor& output, size_t numel, const char* format) {
  std::vector<T> data(numel);
  output.CopyToCpu(data.data());
  for (size_t i = 0; i < numel; ++i) {
    if (i) std::printf(" ");
    std::printf(format, data[i]);
  }
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: " << argv[0] << " MODEL.pdmodel MODEL.pdiparams < inputs.txt\n";
    return 2;
  }
  try {
    paddle_infer::Config config(argv[1], argv[2]);
    config.DisableGpu();
    config.SetCpuMathLibraryNumThreads(1);
    std::shared_ptr<paddle_infer::Predictor> predictor = paddle_infer::CreatePredictor(config);
    for (const std::string& name : predictor->GetInputNames()) {
      std::vector<double> dims = ReadLine(std::cin, "shape of input '" + name + "'");
      std::vector<double> values = ReadLine(std::cin, "values of input '" + name + "'");
      std::vector<int> shape(dims.begin(), dims.end());
      auto input = predictor->GetInputHandle(name);
      input->Reshape(shape);
      switch (input->type()) {
        case paddle_infer::DataType::INT64:
          Feed<int64_t>(*input, values);
          break;
        case paddle_infer::DataType::INT32:
          Feed<int32_t>(*input, values);
          break;
        case paddle_infer::DataType::FLOAT64:
          Feed<double>(*input, values);
          break;
        default:
          Feed<float>(*input, values);
          break;
      }
    }
    predictor->Run();
    for (const std::string& name : predictor->GetOutputNames()) {
      auto output = predictor->GetOutputHandle(name);
      std::vector<int> shape = output->shape();
      size_t numel = 1;
      for (int d : shape) numel *= static_cast<size_t>(d);
      std::printf("%s\n", name.c_str());
      for (size_t i = 0; i < shape.size(); ++i) std::printf(i ? " %d" : "%d", shape[i]);
      std::printf("\n");
      switch (output->type()) {
        case paddle_infer::DataType::INT64:
          PrintValues<int64_t>(*output, numel, "%" PRId64);
          break;
        case paddle_infer::DataType::INT32:
          PrintValues<int32_t>(*output, numel, "%d");
          break;
        case paddle_infer::DataType::FLOAT64:
          PrintValues<double>(*output, numel, "%.17g");
          break;
        default:
          PrintValues<float>(*output, numel, "%.9g");
          break;
      }
    }
  } catch (const paddle_infer::Error& e) {
    std::cerr << "serve_model: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "serve_model: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
