// serve_model: loads a model saved by paddle.static.save_inference_model and runs it on the
// float32 inputs read from standard input, printing every output.
//
//   serve_model MODEL.pdmodel MODEL.pdiparams < inputs.txt
//
// Input: for each model input, in the order GetInputNames() gives, one line with its shape
// and one line with its values. Output: for each model output, its name, a line with its shape
// and a line with its values.
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
      std::vector<float> data(values.begin(), values.end());
      auto input = predictor->GetInputHandle(name);
      input->Reshape(shape);
      input->CopyFromCpu(data.data());
    }
    predictor->Run();
    for (const std::string& name : predictor->GetOutputNames()) {
      auto output = predictor->GetOutputHandle(name);
      std::vector<int> shape = output->shape();
      size_t numel = 1;
      for (int d : shape) numel *= static_cast<size_t>(d);
      std::vector<float> data(numel);
      output->CopyToCpu(data.data());
      std::printf("%s\n", name.c_str());
      for (size_t i = 0; i < shape.size(); ++i) std::printf(i ? " %d" : "%d", shape[i]);
      std::printf("\n");
      for (size_t i = 0; i < numel; ++i) std::printf(i ? " %.9g" : "%.9g", data[i]);
      std::printf("\n");
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
