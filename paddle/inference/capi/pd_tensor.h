/* PD_Tensor: a zero-copy handle on a predictor's input or output (paddle_infer::Tensor). The
   copy functions return nothing, as in PaddlePaddle's C API; a failed copy (wrong dtype, no
   shape, no data yet) records its message for PD_GetLastErrorMessage and copies nothing. */
#pragma once

#include "pd_types.h"

typedef struct PD_Tensor PD_Tensor;

#ifdef __cplusplus
extern "C" {
#endif

PADDLE_CAPI_EXPORT void PD_TensorDestroy(PD_Tensor* tensor);
PADDLE_CAPI_EXPORT void PD_TensorReshape(PD_Tensor* tensor, size_t shape_size, int32_t* shape);
PADDLE_CAPI_EXPORT void PD_TensorCopyFromCpuFloat(PD_Tensor* tensor, const float* data);
PADDLE_CAPI_EXPORT void PD_TensorCopyFromCpuInt64(PD_Tensor* tensor, const int64_t* data);
PADDLE_CAPI_EXPORT void PD_TensorCopyFromCpuInt32(PD_Tensor* tensor, const int32_t* data);
PADDLE_CAPI_EXPORT void PD_TensorCopyFromCpuUint8(PD_Tensor* tensor, const uint8_t* data);
PADDLE_CAPI_EXPORT void PD_TensorCopyFromCpuInt8(PD_Tensor* tensor, const int8_t* data);
PADDLE_CAPI_EXPORT void PD_TensorCopyToCpuFloat(PD_Tensor* tensor, float* data);
PADDLE_CAPI_EXPORT void PD_TensorCopyToCpuInt64(PD_Tensor* tensor, int64_t* data);
PADDLE_CAPI_EXPORT void PD_TensorCopyToCpuInt32(PD_Tensor* tensor, int32_t* data);
PADDLE_CAPI_EXPORT void PD_TensorCopyToCpuUint8(PD_Tensor* tensor, uint8_t* data);
PADDLE_CAPI_EXPORT void PD_TensorCopyToCpuInt8(PD_Tensor* tensor, int8_t* data);
PADDLE_CAPI_EXPORT PD_OneDimArrayInt32* PD_TensorGetShape(PD_Tensor* tensor);
PADDLE_CAPI_EXPORT PD_DataType PD_TensorGetDataType(PD_Tensor* tensor);
PADDLE_CAPI_EXPORT const char* PD_TensorGetName(PD_Tensor* tensor);
PADDLE_CAPI_EXPORT PD_TwoDimArraySize* PD_TensorGetLod(PD_Tensor* tensor);

#ifdef __cplusplus
}
#endif
