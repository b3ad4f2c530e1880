// The C API: the MLP through PD_* calls, and each failure returning NULL/FALSE with a message
// instead of throwing into C.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "model_files.h"
#include "pd_inference_api.h"

namespace paddle::inference_test {
namespace {

class CApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("inference_capi_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    files_ = WriteMlp(dir_.string());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  PD_Predictor* Create(const std::string& program, const std::string& params) {
    PD_Config* config = PD_ConfigCreate();
    PD_ConfigSetModel(config, program.c_str(), params.c_str());
    PD_ConfigDisableGpu(config);
    return PD_PredictorCreate(config);  // takes the config
  }

  std::filesystem::path dir_;
  MlpFiles files_;
};

TEST_F(CApiTest, RunsTheModel) {
  PD_Predictor* predictor = Create(files_.program, files_.params);
  ASSERT_NE(predictor, nullptr) << PD_GetLastErrorMessage();
  PD_OneDimArrayCstr* inputs = PD_PredictorGetInputNames(predictor);
  ASSERT_EQ(inputs->size, 1u);
  EXPECT_STREQ(inputs->data[0], "x");
  PD_Tensor* input = PD_PredictorGetInputHandle(predictor, inputs->data[0]);
  PD_OneDimArrayCstrDestroy(inputs);
  int32_t shape[] = {2, 4};
  PD_TensorReshape(input, 2, shape);
  std::vector<float> x = {1, 2, 3, 4, -1, 0.5f, 2, -3};
  PD_TensorCopyFromCpuFloat(input, x.data());
  ASSERT_TRUE(PD_PredictorRun(predictor)) << PD_GetLastErrorMessage();
  EXPECT_EQ(PD_GetLastErrorMessage(), nullptr);

  PD_OneDimArrayCstr* outputs = PD_PredictorGetOutputNames(predictor);
  PD_Tensor* output = PD_PredictorGetOutputHandle(predictor, outputs->data[0]);
  PD_OneDimArrayCstrDestroy(outputs);
  PD_OneDimArrayInt32* out_shape = PD_TensorGetShape(output);
  ASSERT_EQ(out_shape->size, 2u);
  EXPECT_EQ(out_shape->data[0], 2);
  EXPECT_EQ(out_shape->data[1], 3);
  PD_OneDimArrayInt32Destroy(out_shape);
  EXPECT_EQ(PD_TensorGetDataType(output), PD_DATA_FLOAT32);
  EXPECT_STREQ(PD_TensorGetName(output), "out");
  std::vector<float> out(6);
  PD_TensorCopyToCpuFloat(output, out.data());
  std::vector<float> expected = MlpReference(files_, x);
  for (size_t i = 0; i < out.size(); ++i) EXPECT_NEAR(out[i], expected[i], 1e-5);

  PD_Predictor* clone = PD_PredictorClone(predictor);
  ASSERT_NE(clone, nullptr);
  EXPECT_EQ(PD_PredictorGetInputNum(clone), 1u);
  PD_PredictorDestroy(clone);
  PD_TensorDestroy(input);
  PD_TensorDestroy(output);
  PD_PredictorDestroy(predictor);
  PD_Cstr* version = PD_GetVersion();
  EXPECT_NE(std::string(version->data).find("version"), std::string::npos);
  PD_CstrDestroy(version);
}

TEST_F(CApiTest, FailuresReturnNullOrFalseWithAMessage) {
  EXPECT_EQ(Create(files_.program + ".missing", files_.params), nullptr);
  ASSERT_NE(PD_GetLastErrorMessage(), nullptr);
  EXPECT_NE(std::string(PD_GetLastErrorMessage()).find(".missing"), std::string::npos);

  MlpFiles transposed = WriteMlp(dir_.string(), {3, 4});
  EXPECT_EQ(Create(transposed.program, transposed.params), nullptr);
  EXPECT_NE(std::string(PD_GetLastErrorMessage()).find("do not match"), std::string::npos);

  files_ = WriteMlp(dir_.string());
  PD_Predictor* predictor = Create(files_.program, files_.params);
  ASSERT_NE(predictor, nullptr) << PD_GetLastErrorMessage();
  EXPECT_EQ(PD_PredictorGetInputHandle(predictor, "nope"), nullptr);
  EXPECT_NE(std::string(PD_GetLastErrorMessage()).find("nope"), std::string::npos);
  EXPECT_EQ(PD_PredictorGetInputHandle(predictor, nullptr), nullptr);

  PD_Tensor* input = PD_PredictorGetInputHandle(predictor, "x");
  int32_t wrong[] = {2, 5};
  PD_TensorReshape(input, 2, wrong);
  std::vector<float> ten(10, 1.0f);
  PD_TensorCopyFromCpuFloat(input, ten.data());
  EXPECT_FALSE(PD_PredictorRun(predictor));
  EXPECT_NE(std::string(PD_GetLastErrorMessage()).find("shape"), std::string::npos);
  int32_t right[] = {2, 4};
  PD_TensorReshape(input, 2, right);
  std::vector<int64_t> ints(8, 1);
  PD_TensorCopyFromCpuInt64(input, ints.data());
  EXPECT_NE(PD_GetLastErrorMessage(), nullptr);
  EXPECT_NE(std::string(PD_GetLastErrorMessage()).find("float32"), std::string::npos);
  PD_TensorDestroy(input);
  PD_PredictorDestroy(predictor);
  EXPECT_EQ(PD_PredictorRun(nullptr), FALSE);
}

}  // namespace
}  // namespace paddle::inference_test
