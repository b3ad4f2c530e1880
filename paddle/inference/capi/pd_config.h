/* PD_Config: which model to load and how to run it (paddle_infer::Config). */
#pragma once

#include "pd_types.h"

typedef struct PD_Config PD_Config;

#ifdef __cplusplus
extern "C" {
#endif

PADDLE_CAPI_EXPORT PD_Config* PD_ConfigCreate(void);
PADDLE_CAPI_EXPORT void PD_ConfigDestroy(PD_Config* config);
PADDLE_CAPI_EXPORT void PD_ConfigSetModel(PD_Config* config, const char* prog_file_path,
                                          const char* params_file_path);
PADDLE_CAPI_EXPORT void PD_ConfigSetModelDir(PD_Config* config, const char* model_dir);
PADDLE_CAPI_EXPORT void PD_ConfigSetProgFile(PD_Config* config, const char* prog_file_path);
PADDLE_CAPI_EXPORT void PD_ConfigSetParamsFile(PD_Config* config, const char* params_file_path);
PADDLE_CAPI_EXPORT void PD_ConfigSetModelBuffer(PD_Config* config, const char* prog_buffer,
                                                size_t prog_buffer_size, const char* params_buffer,
                                                size_t params_buffer_size);
PADDLE_CAPI_EXPORT PD_Bool PD_ConfigModelFromMemory(PD_Config* config);
PADDLE_CAPI_EXPORT const char* PD_ConfigGetModelDir(PD_Config* config);
PADDLE_CAPI_EXPORT const char* PD_ConfigGetProgFile(PD_Config* config);
PADDLE_CAPI_EXPORT const char* PD_ConfigGetParamsFile(PD_Config* config);
PADDLE_CAPI_EXPORT void PD_ConfigEnableUseGpu(PD_Config* config, uint64_t memory_pool_init_size_mb,
                                              int32_t device_id, PD_PrecisionType precision);
PADDLE_CAPI_EXPORT void PD_ConfigDisableGpu(PD_Config* config);
PADDLE_CAPI_EXPORT PD_Bool PD_ConfigUseGpu(PD_Config* config);
PADDLE_CAPI_EXPORT void PD_ConfigSetCpuMathLibraryNumThreads(PD_Config* config,
                                                             int32_t cpu_math_library_num_threads);
PADDLE_CAPI_EXPORT int32_t PD_ConfigGetCpuMathLibraryNumThreads(PD_Config* config);
PADDLE_CAPI_EXPORT void PD_ConfigSwitchIrOptim(PD_Config* config, PD_Bool x);
PADDLE_CAPI_EXPORT PD_Bool PD_ConfigIrOptim(PD_Config* config);
PADDLE_CAPI_EXPORT void PD_ConfigEnableMemoryOptim(PD_Config* config, PD_Bool x);
PADDLE_CAPI_EXPORT PD_Bool PD_ConfigMemoryOptimEnabled(PD_Config* config);
PADDLE_CAPI_EXPORT void PD_ConfigEnableMKLDNN(PD_Config* config);
PADDLE_CAPI_EXPORT PD_Bool PD_ConfigMkldnnEnabled(PD_Config* config);
PADDLE_CAPI_EXPORT void PD_ConfigDisableGlogInfo(PD_Config* config);
PADDLE_CAPI_EXPORT PD_Bool PD_ConfigGlogInfoDisabled(PD_Config* config);
/* The settings as text; free with PD_CstrDestroy. */
PADDLE_CAPI_EXPORT PD_Cstr* PD_ConfigSummary(PD_Config* config);

#ifdef __cplusplus
}
#endif
