/* PD_Predictor: a loaded model (paddle_infer::Predictor). */
#pragma once

#include "pd_config.h"
#include "pd_tensor.h"
#include "pd_types.h"

typedef struct PD_Predictor PD_Predictor;

#ifdef __cplusplus
extern "C" {
#endif

/* Loads the model `config` names. Takes ownership of `config` and destroys it, as PaddlePaddle's
   C API does, whether or not it succeeds; returns NULL on failure (see PD_GetLastErrorMessage). */
PADDLE_CAPI_EXPORT PD_Predictor* PD_PredictorCreate(PD_Config* config);
PADDLE_CAPI_EXPORT PD_Predictor* PD_PredictorClone(PD_Predictor* predictor);
PADDLE_CAPI_EXPORT PD_OneDimArrayCstr* PD_PredictorGetInputNames(PD_Predictor* predictor);
PADDLE_CAPI_EXPORT PD_OneDimArrayCstr* PD_PredictorGetOutputNames(PD_Predictor* predictor);
PADDLE_CAPI_EXPORT size_t PD_PredictorGetInputNum(PD_Predictor* predictor);
PADDLE_CAPI_EXPORT size_t PD_PredictorGetOutputNum(PD_Predictor* predictor);
/* NULL for an unknown name. Free the handle with PD_TensorDestroy. */
PADDLE_CAPI_EXPORT PD_Tensor* PD_PredictorGetInputHandle(PD_Predictor* predictor, const char* name);
PADDLE_CAPI_EXPORT PD_Tensor* PD_PredictorGetOutputHandle(PD_Predictor* predictor,
                                                          const char* name);
PADDLE_CAPI_EXPORT PD_Bool PD_PredictorRun(PD_Predictor* predictor);
PADDLE_CAPI_EXPORT void PD_PredictorClearIntermediateTensor(PD_Predictor* predictor);
PADDLE_CAPI_EXPORT void PD_PredictorDestroy(PD_Predictor* predictor);
/* The library version; free with PD_CstrDestroy. */
PADDLE_CAPI_EXPORT PD_Cstr* PD_GetVersion(void);

#ifdef __cplusplus
}
#endif
