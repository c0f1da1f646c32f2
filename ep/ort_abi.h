/* ort_abi.h: the part of onnxruntime's C ABI that wherec's execution provider uses, declared
   here from the public headers' facts (slot numbers, struct layouts), with no ORT header. */
#ifndef WHEREC_EP_ORT_ABI_H
#define WHEREC_EP_ORT_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The API version the EP asks for: GetCapability and Compile exist from 23 (ORT 1.23), and
   the tables only grow, so an ORT from 1.23 on serves every slot below at the same index. */
#define ORT_EP_API_VERSION 23

/* Opaque ORT objects: the EP holds pointers it never looks into. */
typedef struct OrtStatus          OrtStatus;
typedef struct OrtGraph           OrtGraph;
typedef struct OrtNode            OrtNode;
typedef struct OrtValueInfo       OrtValueInfo;
typedef struct OrtValue           OrtValue;
typedef struct OrtTypeInfo        OrtTypeInfo;
typedef struct OrtTensorTypeAndShapeInfo OrtTensorTypeAndShapeInfo;
typedef struct OrtKernelContext   OrtKernelContext;
typedef struct OrtLogger          OrtLogger;
typedef struct OrtSessionOptions  OrtSessionOptions;
typedef struct OrtHardwareDevice  OrtHardwareDevice;
typedef struct OrtEpDevice        OrtEpDevice;
typedef struct OrtKeyValuePairs   OrtKeyValuePairs;
typedef struct OrtEpGraphSupportInfo OrtEpGraphSupportInfo;
typedef struct OrtNodeComputeContext OrtNodeComputeContext;
typedef struct OrtNodeFusionOptions  OrtNodeFusionOptions;
typedef struct OrtDataTransferImpl   OrtDataTransferImpl;

/* OrtErrorCode values the EP returns. */
enum { ORT_OK = 0, ORT_FAIL = 1, ORT_INVALID_ARGUMENT = 2, ORT_NOT_IMPLEMENTED = 9 };
/* OrtLoggingLevel. */
enum { ORT_LOG_VERBOSE = 0, ORT_LOG_INFO = 1, ORT_LOG_WARNING = 2, ORT_LOG_ERROR = 3 };
/* OrtHardwareDeviceType: CPU. */
enum { ORT_DEVICE_CPU = 0 };

/* An API table (OrtApi, OrtEpApi) is a struct of function pointers only: the provider
   reads it as an array of them, by slot. */
typedef void (*ort_fn)(void);

/* OrtApiBase: how the library reaches the API table of the version it asks for. */
typedef struct OrtApiBase {
  const ort_fn *(*GetApi)(uint32_t version); /* NULL when ORT has no such version */
  const char *(*GetVersionString)(void);
} OrtApiBase;

/* OrtApi slots (index = offset / sizeof(void *)), each read from onnxruntime_c_api.h at
   ORT_API_VERSION 23 and found at the same index in the headers of versions 23 to 29. */
typedef enum ort_api_slot {
  ORT_CreateStatus = 0,                    /* v23 */
  ORT_GetErrorMessage = 2,                 /* v23 */
  ORT_GetTensorMutableData = 51,           /* v23 */
  ORT_CastTypeInfoToTensorInfo = 55,       /* v23 */
  ORT_GetTensorElementType = 60,           /* v23 */
  ORT_GetDimensionsCount = 61,             /* v23 */
  ORT_GetDimensions = 62,                  /* v23 */
  ORT_GetTensorShapeElementCount = 64,     /* v23 */
  ORT_GetTensorTypeAndShape = 65,          /* v23 */
  ORT_KernelContext_GetInputCount = 88,    /* v23 */
  ORT_KernelContext_GetOutputCount = 89,   /* v23 */
  ORT_KernelContext_GetInput = 90,         /* v23 */
  ORT_KernelContext_GetOutput = 91,        /* v23 */
  ORT_ReleaseStatus = 93,                  /* v23 */
  ORT_ReleaseTensorTypeAndShapeInfo = 99,  /* v23 */
  ORT_GetSessionConfigEntry = 238,         /* v23 */
  ORT_Logger_LogMessage = 247,             /* v23 */
  ORT_KernelContext_ParallelFor = 274,     /* v23 */
  ORT_GetValueInfoName = 289,              /* v23 */
  ORT_GetValueInfoTypeInfo = 290,          /* v23 */
  ORT_HardwareDevice_Type = 307,           /* v23 */
  ORT_GetEpApi = 317,                      /* v23 */
  ORT_ValueInfo_GetValueProducer = 323,    /* v23 */
  ORT_ValueInfo_GetValueNumConsumers = 324, /* v23 */
  ORT_ValueInfo_GetValueConsumers = 325,   /* v23 */
  ORT_ValueInfo_GetInitializerValue = 326, /* v23 */
  ORT_ValueInfo_IsGraphOutput = 330,       /* v23 */
  ORT_ValueInfo_IsConstantInitializer = 331, /* v23 */
  ORT_ValueInfo_IsFromOuterScope = 332,    /* v23 */
  ORT_Graph_GetNumNodes = 344,             /* v23 */
  ORT_Graph_GetNodes = 345,                /* v23 */
  ORT_Graph_GetParentNode = 346,           /* v23 */
  ORT_Node_GetOperatorType = 350,          /* v23 */
  ORT_Node_GetDomain = 351,                /* v23 */
  ORT_Node_GetNumInputs = 353,             /* v23 */
  ORT_Node_GetInputs = 354,                /* v23 */
  ORT_Node_GetNumOutputs = 355,            /* v23 */
  ORT_Node_GetOutputs = 356,               /* v23 */
  ORT_Node_GetNumImplicitInputs = 357,     /* v23 */
  ORT_Node_GetImplicitInputs = 358         /* v23 */
} ort_api_slot;

/* OrtEpApi slots (onnxruntime_ep_c_api.h, version 23). */
typedef enum ort_ep_api_slot {
  ORT_EP_CreateEpDevice = 0,                      /* v23 */
  ORT_EP_EpGraphSupportInfo_AddNodesToFuse = 2    /* v23 */
} ort_ep_api_slot;

/* The function types of those slots (the ABI's calling convention is the C one on every
   platform the EP builds for). */
typedef OrtStatus *(*ort_CreateStatus)(int code, const char *msg);
typedef const char *(*ort_GetErrorMessage)(const OrtStatus *status);
typedef void (*ort_ReleaseStatus)(OrtStatus *status);
typedef OrtStatus *(*ort_GetTensorMutableData)(OrtValue *value, void **data);
typedef OrtStatus *(*ort_CastTypeInfoToTensorInfo)(const OrtTypeInfo *info,
                                                   const OrtTensorTypeAndShapeInfo **out);
typedef OrtStatus *(*ort_GetTensorElementType)(const OrtTensorTypeAndShapeInfo *info, int *type);
typedef OrtStatus *(*ort_GetDimensionsCount)(const OrtTensorTypeAndShapeInfo *info, size_t *n);
typedef OrtStatus *(*ort_GetDimensions)(const OrtTensorTypeAndShapeInfo *info, int64_t *dims,
                                        size_t n);
typedef OrtStatus *(*ort_GetTensorTypeAndShape)(const OrtValue *value,
                                                OrtTensorTypeAndShapeInfo **out);
typedef OrtStatus *(*ort_KernelContext_GetCount)(const OrtKernelContext *ctx, size_t *n);
typedef OrtStatus *(*ort_KernelContext_GetInput)(const OrtKernelContext *ctx, size_t i,
                                                 const OrtValue **out);
typedef OrtStatus *(*ort_KernelContext_GetOutput)(OrtKernelContext *ctx, size_t i,
                                                  const int64_t *dims, size_t rank, OrtValue **out);
typedef void (*ort_ReleaseTensorTypeAndShapeInfo)(OrtTensorTypeAndShapeInfo *info);
typedef OrtStatus *(*ort_GetSessionConfigEntry)(const OrtSessionOptions *options, const char *key,
                                                char *value, size_t *size);
typedef OrtStatus *(*ort_Logger_LogMessage)(const OrtLogger *logger, int level, const char *msg,
                                            const char *file, int line, const char *func);
typedef OrtStatus *(*ort_KernelContext_ParallelFor)(const OrtKernelContext *ctx,
                                                    void (*fn)(void *, size_t), size_t total,
                                                    size_t num_batch, void *user);
typedef OrtStatus *(*ort_GetValueInfoName)(const OrtValueInfo *v, const char **name);
typedef OrtStatus *(*ort_GetValueInfoTypeInfo)(const OrtValueInfo *v, const OrtTypeInfo **info);
typedef int (*ort_HardwareDevice_Type)(const OrtHardwareDevice *device);
typedef const ort_fn *(*ort_GetEpApi)(void);
typedef OrtStatus *(*ort_ValueInfo_GetValueProducer)(const OrtValueInfo *v, const OrtNode **node,
                                                     size_t *output_index);
typedef OrtStatus *(*ort_ValueInfo_GetValueNumConsumers)(const OrtValueInfo *v, size_t *n);
typedef OrtStatus *(*ort_ValueInfo_GetValueConsumers)(const OrtValueInfo *v, const OrtNode **nodes,
                                                      int64_t *input_indices, size_t n);
typedef OrtStatus *(*ort_ValueInfo_GetInitializerValue)(const OrtValueInfo *v, const OrtValue **value);
typedef OrtStatus *(*ort_ValueInfo_Is)(const OrtValueInfo *v, bool *yes);
typedef OrtStatus *(*ort_Graph_GetNumNodes)(const OrtGraph *g, size_t *n);
typedef OrtStatus *(*ort_Graph_GetParentNode)(const OrtGraph *g, const OrtNode **node);
typedef OrtStatus *(*ort_Graph_GetNodes)(const OrtGraph *g, const OrtNode **nodes, size_t n);
typedef OrtStatus *(*ort_Node_GetString)(const OrtNode *node, const char **s);
typedef OrtStatus *(*ort_Node_GetNum)(const OrtNode *node, size_t *n);
typedef OrtStatus *(*ort_Node_GetValues)(const OrtNode *node, const OrtValueInfo **values, size_t n);
typedef OrtStatus *(*ort_EP_CreateEpDevice)(void *factory, const OrtHardwareDevice *device,
                                            const OrtKeyValuePairs *metadata,
                                            const OrtKeyValuePairs *options, OrtEpDevice **out);
typedef OrtStatus *(*ort_EP_AddNodesToFuse)(OrtEpGraphSupportInfo *support,
                                            const OrtNode *const *nodes, size_t n,
                                            const OrtNodeFusionOptions *options);

/* ---- structs the library fills (each opens with the version it was written for) ---- */

/* OrtNodeComputeInfo (v23): how ORT runs one fused node the EP compiled. */
typedef struct OrtNodeComputeInfo OrtNodeComputeInfo;
struct OrtNodeComputeInfo {
  uint32_t ort_version_supported;
  OrtStatus *(*CreateState)(OrtNodeComputeInfo *self, OrtNodeComputeContext *ctx, void **state);
  OrtStatus *(*Compute)(OrtNodeComputeInfo *self, void *state, OrtKernelContext *kctx);
  void (*ReleaseState)(OrtNodeComputeInfo *self, void *state);
};

/* OrtEp (v23): the members up to ReleaseNodeComputeInfos are required; the rest may be NULL
   (GetPreferredDataLayout, ShouldConvertDataLayoutForOp, SetDynamicOptions, OnRunStart,
   OnRunEnd, CreateAllocator, CreateSyncStreamForDevice, GetCompiledModelCompatibilityInfo). */
typedef struct OrtEp OrtEp;
struct OrtEp {
  uint32_t ort_version_supported;
  const char *(*GetName)(const OrtEp *self);
  OrtStatus *(*GetCapability)(OrtEp *self, const OrtGraph *graph, OrtEpGraphSupportInfo *support);
  OrtStatus *(*Compile)(OrtEp *self, const OrtGraph **graphs, const OrtNode **fused_nodes,
                        size_t count, OrtNodeComputeInfo **infos, OrtNode **ep_context_nodes);
  void (*ReleaseNodeComputeInfos)(OrtEp *self, OrtNodeComputeInfo **infos, size_t count);
  void *optional[8];
};

/* OrtEpFactory (v23). */
typedef struct OrtEpFactory OrtEpFactory;
struct OrtEpFactory {
  uint32_t ort_version_supported;
  const char *(*GetName)(const OrtEpFactory *self);
  const char *(*GetVendor)(const OrtEpFactory *self);
  OrtStatus *(*GetSupportedDevices)(OrtEpFactory *self, const OrtHardwareDevice *const *devices,
                                    size_t n, OrtEpDevice **ep_devices, size_t max, size_t *count);
  OrtStatus *(*CreateEp)(OrtEpFactory *self, const OrtHardwareDevice *const *devices,
                         const OrtKeyValuePairs *const *metadata, size_t n,
                         const OrtSessionOptions *options, const OrtLogger *logger, OrtEp **ep);
  void (*ReleaseEp)(OrtEpFactory *self, OrtEp *ep);
  uint32_t (*GetVendorId)(const OrtEpFactory *self);
  const char *(*GetVersion)(const OrtEpFactory *self);
  void *ValidateCompiledModelCompatibilityInfo; /* NULL: not given */
  void *CreateAllocator;                        /* NULL: ORT's CPU allocator */
  void *ReleaseAllocator;
  /* ORT 1.32's Python binding calls it without a NULL check: answer "no transfer". */
  OrtStatus *(*CreateDataTransfer)(OrtEpFactory *self, OrtDataTransferImpl **out);
  bool (*IsStreamAware)(const OrtEpFactory *self);
  void *CreateSyncStreamForDevice;              /* NULL: no streams */
};

#endif
