// paddle_infer::Predictor on a hand-built MLP: results, zero-copy handles, clones running in
// four threads at once, and a typed error for each kind of bad input.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "model_files.h"
#include "paddle_inference_api.h"

namespace paddle::inference_test {
namespace {

class PredictorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("inference_api_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    files_ = WriteMlp(dir_.string());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::shared_ptr<paddle_infer::Predictor> Create() {
    return paddle_infer::CreatePredictor(paddle_infer::Config(files_.program, files_.params));
  }

  static std::vector<float> RunOn(paddle_infer::Predictor* predictor, const std::vector<float>& x) {
    auto input = predictor->GetInputHandle("x");
    input->Reshape({static_cast<int>(x.size() / 4), 4});
    input->CopyFromCpu(x.data());
    EXPECT_TRUE(predictor->Run());
    auto output = predictor->GetOutputHandle(predictor->GetOutputNames()[0]);
    std::vector<float> out(x.size() / 4 * 3);
    output->CopyToCpu(out.data());
    return out;
  }

  std::filesystem::path dir_;
  MlpFiles files_;
};

void ExpectNear(const std::vector<float>& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) EXPECT_NEAR(actual[i], expected[i], 1e-5) << i;
}

paddle_infer::ErrorCode CodeOf(const std::function<void()>& body) {
  try {
    body();
  } catch (const paddle_infer::Error& e) {
    EXPECT_GT(std::string(e.what()).size(), 10u);
    return e.code();
  }
  ADD_FAILURE() << "no paddle_infer::Error was thrown";
  return paddle_infer::ErrorCode::kInternal;
}

TEST_F(PredictorTest, RunsTheSavedProgram) {
  auto predictor = Create();
  EXPECT_EQ(predictor->GetInputNames(), std::vector<std::string>{"x"});
  EXPECT_EQ(predictor->GetOutputNames(), std::vector<std::string>{"out"});
  std::vector<float> x = {1, 2, 3, 4, -1, 0.5f, 2, -3};
  ExpectNear(RunOn(predictor.get(), x), MlpReference(files_, x));
  auto output = predictor->GetOutputHandle("out");
  EXPECT_EQ(output->shape(), (std::vector<int>{2, 3}));
  EXPECT_EQ(output->type(), paddle_infer::DataType::FLOAT32);
  EXPECT_EQ(output->name(), "out");
  EXPECT_TRUE(output->lod().empty());
  // Another batch size through the same handles.
  std::vector<float> x3 = {0, 1, 0, 1, 2, 2, 2, 2, -1, -1, 3, 0};
  ExpectNear(RunOn(predictor.get(), x3), MlpReference(files_, x3));
  predictor->ClearIntermediateTensor();
  ExpectNear(RunOn(predictor.get(), x), MlpReference(files_, x));
}

TEST_F(PredictorTest, LoadsFromBuffersAndModelDirectories) {
  auto read = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  std::string prog = read(files_.program), params = read(files_.params);
  paddle_infer::Config config;
  config.SetModelBuffer(prog.data(), prog.size(), params.data(), params.size());
  EXPECT_TRUE(config.model_from_memory());
  std::vector<float> x = {1, -2, 3, 0.5f};
  ExpectNear(RunOn(paddle_infer::CreatePredictor(config).get(), x), MlpReference(files_, x));

  std::filesystem::rename(files_.program, dir_ / "inference.pdmodel");
  std::filesystem::rename(files_.params, dir_ / "inference.pdiparams");
  ExpectNear(RunOn(paddle_infer::CreatePredictor(paddle_infer::Config(dir_.string())).get(), x),
             MlpReference(files_, x));
}

TEST_F(PredictorTest, LoadsAModelDirectoryWithOneFilePerParameter) {
  // The layout of models saved without params_filename: __model__ and a file per variable.
  std::filesystem::path separate = dir_ / "separate";
  std::filesystem::create_directories(separate);
  std::filesystem::copy_file(files_.program, separate / "__model__");
  framework::SaveDenseTensor((separate / "w").string(), FloatTensor({4, 3}, files_.w));
  framework::SaveDenseTensor((separate / "b").string(), FloatTensor({3}, files_.b));
  std::vector<float> x = {0.5f, -1, 2, 1};
  auto predictor = paddle_infer::CreatePredictor(paddle_infer::Config(separate.string()));
  ExpectNear(RunOn(predictor.get(), x), MlpReference(files_, x));
  std::filesystem::remove(separate / "b");
  EXPECT_EQ(CodeOf([&] { paddle_infer::CreatePredictor(paddle_infer::Config(separate.string())); }),
            paddle_infer::ErrorCode::kFileNotFound);
}

TEST_F(PredictorTest, HandlesAreViewsOfThePredictorsVariables) {
  auto predictor = Create();
  auto input = predictor->GetInputHandle("x");
  input->Reshape({1, 4});
  std::vector<float> x = {1, 2, 3, 4};
  input->CopyFromCpu(x.data());
  // A second handle on the same input sees what the first wrote.
  auto again = predictor->GetInputHandle("x");
  EXPECT_EQ(again->shape(), (std::vector<int>{1, 4}));
  std::vector<float> read(4);
  again->CopyToCpu(read.data());
  EXPECT_EQ(read, x);
  auto output = predictor->GetOutputHandle("out");
  predictor->Run();
  std::vector<float> out(3);
  output->CopyToCpu(out.data());  // the handle taken before Run sees its result
  ExpectNear(out, MlpReference(files_, x));
}

TEST_F(PredictorTest, ClonesRunConcurrently) {
  auto predictor = Create();
  constexpr int kThreads = 4;
  std::vector<std::vector<float>> inputs(kThreads), expected(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < 4 * 16; ++i)
      inputs[t].push_back(0.01f * static_cast<float>(i * (t + 1)) - 0.3f);
    expected[t] = RunOn(predictor.get(), inputs[t]);
  }
  std::vector<std::unique_ptr<paddle_infer::Predictor>> clones;
  for (int t = 0; t < kThreads; ++t) clones.push_back(predictor->Clone());
  std::vector<std::vector<std::vector<float>>> results(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int run = 0; run < 50; ++run) results[t].push_back(RunOn(clones[t].get(), inputs[t]));
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    for (const auto& result : results[t]) EXPECT_EQ(result, expected[t]) << "thread " << t;
  }
}

TEST_F(PredictorTest, MissingFilesAreFileNotFound) {
  using paddle_infer::Config;
  EXPECT_EQ(CodeOf([&] {
              paddle_infer::CreatePredictor(Config(files_.program + ".missing", files_.params));
            }),
            paddle_infer::ErrorCode::kFileNotFound);
  EXPECT_EQ(CodeOf([&] {
              paddle_infer::CreatePredictor(Config(files_.program, files_.params + ".missing"));
            }),
            paddle_infer::ErrorCode::kFileNotFound);
  EXPECT_EQ(CodeOf([&] { paddle_infer::CreatePredictor(Config((dir_ / "nothing").string())); }),
            paddle_infer::ErrorCode::kFileNotFound);
}

TEST_F(PredictorTest, ParamsThatDoNotMatchTheProgramAreInvalidArguments) {
  MlpFiles transposed = WriteMlp(dir_.string(), {3, 4});
  try {
    paddle_infer::CreatePredictor(paddle_infer::Config(transposed.program, transposed.params));
    ADD_FAILURE() << "no error";
  } catch (const paddle_infer::Error& e) {
    EXPECT_EQ(e.code(), paddle_infer::ErrorCode::kInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("'w'"), std::string::npos) << e.what();
  }
  // A truncated file, and a program file that is not a program.
  std::filesystem::resize_file(transposed.params, 20);
  EXPECT_EQ(
      CodeOf([&] {
        paddle_infer::CreatePredictor(paddle_infer::Config(transposed.program, transposed.params));
      }),
      paddle_infer::ErrorCode::kInvalidArgument);
  EXPECT_EQ(CodeOf([&] {
              paddle_infer::CreatePredictor(paddle_infer::Config(transposed.params, files_.params));
            }),
            paddle_infer::ErrorCode::kInvalidArgument);
}

TEST_F(PredictorTest, BadInputsAreTypedErrors) {
  auto predictor = Create();
  EXPECT_EQ(CodeOf([&] { predictor->GetInputHandle("y"); }), paddle_infer::ErrorCode::kNotFound);
  EXPECT_EQ(CodeOf([&] { predictor->GetOutputHandle("x"); }), paddle_infer::ErrorCode::kNotFound);
  auto input = predictor->GetInputHandle("x");
  EXPECT_EQ(CodeOf([&] { predictor->Run(); }), paddle_infer::ErrorCode::kPreconditionNotMet);
  input->Reshape({2, 5});  // the program declares [-1, 4]
  std::vector<float> ten(10, 1.0f);
  input->CopyFromCpu(ten.data());
  EXPECT_EQ(CodeOf([&] { predictor->Run(); }), paddle_infer::ErrorCode::kInvalidArgument);
  input->Reshape({2, 4});
  std::vector<int64_t> ints(8, 1);
  EXPECT_EQ(CodeOf([&] { input->CopyFromCpu(ints.data()); }),
            paddle_infer::ErrorCode::kInvalidType);
  EXPECT_EQ(CodeOf([&] { input->Reshape({-2, 4}); }), paddle_infer::ErrorCode::kInvalidArgument);
  input->Reshape({2, 4});
  input->CopyFromCpu(ten.data());
  ASSERT_TRUE(predictor->Run());
  std::vector<int64_t> out(6);
  EXPECT_EQ(CodeOf([&] { predictor->GetOutputHandle("out")->CopyToCpu(out.data()); }),
            paddle_infer::ErrorCode::kInvalidType);
}

TEST(ConfigTest, RecordsItsSettingsAndSaysWhatTheyDo) {
  paddle_infer::Config config("model.pdmodel", "model.pdiparams");
  EXPECT_FALSE(config.use_gpu());
  config.EnableUseGpu(100, 0);
  EXPECT_TRUE(config.use_gpu());
  config.DisableGpu();
  EXPECT_FALSE(config.use_gpu());
  config.SetCpuMathLibraryNumThreads(2);
  EXPECT_EQ(config.cpu_math_library_num_threads(), 2);
  config.SwitchIrOptim(false);
  EXPECT_FALSE(config.ir_optim());
  config.EnableMemoryOptim();
  EXPECT_TRUE(config.enable_memory_optim());
  config.EnableMKLDNN();
  EXPECT_TRUE(config.mkldnn_enabled());
  config.DisableGlogInfo();
  EXPECT_TRUE(config.glog_info_disabled());
  std::string summary = config.Summary();
  EXPECT_NE(summary.find("model.pdmodel"), std::string::npos);
  EXPECT_NE(summary.find("conv + batch_norm folding"), std::string::npos) << summary;
  EXPECT_EQ(CodeOf([&] { config.SetCpuMathLibraryNumThreads(0); }),
            paddle_infer::ErrorCode::kInvalidArgument);
  EXPECT_NE(paddle_infer::GetVersion().find("version"), std::string::npos);
  EXPECT_EQ(paddle_infer::GetNumBytesOfDataType(paddle_infer::DataType::INT64), 8);
}

}  // namespace
}  // namespace paddle::inference_test
