/* onnx.h: a bounds-checked reader of the ONNX protobuf messages wherec import needs.
   Hand-written wire-format decoding (no protobuf library); recursion only into sub-graphs, bounded. */
#ifndef WHEREC_GEN_ONNX_H
#define WHEREC_GEN_ONNX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wherec/wherec.h>

#include "base/arena.h"

#define ONNX_MAX_FILE        ((size_t)1 << 31) /* protobuf's own limit on a message */
/* Sub-graphs (If, Loop, Scan bodies) nested in one another; deeper ones are refused. */
#define ONNX_MAX_GRAPH_DEPTH 32

/* Bytes inside the buffer the model was read from (not copied). */
typedef struct onnx_bytes {
  const uint8_t *data;
  size_t         len;
} onnx_bytes;

/* One occurrence of a typed data field of a TensorProto: a packed run of
   values or a string (wire type 2), or a single unpacked value. */
typedef struct onnx_span {
  uint32_t   field; /* ONNX_TENSOR_* field number below */
  uint8_t    wire;  /* protobuf wire type of this occurrence */
  onnx_bytes bytes; /* wire type 2: packed values or one string */
  uint64_t   value; /* other wire types: the value's bits */
} onnx_span;

/* TensorProto field numbers of the typed data (onnx.proto). */
enum {
  ONNX_TENSOR_FLOAT_DATA = 4,
  ONNX_TENSOR_INT32_DATA = 5,
  ONNX_TENSOR_STRING_DATA = 6,
  ONNX_TENSOR_INT64_DATA = 7,
  ONNX_TENSOR_DOUBLE_DATA = 10,
  ONNX_TENSOR_UINT64_DATA = 11
};

typedef struct onnx_tensor {
  const char *name;      /* "" when absent */
  int32_t     data_type; /* TensorProto.DataType; 1..16 are the wc_dtype codes */
  int         rank;      /* dims given */
  int64_t    *dims;      /* rank extents, as written (may be negative: checked on use) */
  bool        has_raw;   /* raw_data present */
  onnx_bytes  raw;       /* raw_data: little-endian elements */
  int         n_spans;
  onnx_span  *spans;     /* typed data, in file order */
  bool        external;  /* data_location EXTERNAL or external_data given */
  bool        segmented; /* segment given */
} onnx_tensor;

/* A dimension of a TensorShapeProto. */
typedef struct onnx_dim {
  int64_t     value; /* dim_value; -1 when not given */
  const char *param; /* dim_param, or NULL */
} onnx_dim;

typedef struct onnx_value_info {
  const char *name;
  bool        has_type;  /* a TypeProto is present */
  bool        is_tensor; /* ... and it is a tensor_type */
  int32_t     elem_type; /* tensor elem_type (0 when absent) */
  bool        has_shape; /* the tensor type carries a shape (else: unknown rank) */
  int         rank;
  onnx_dim   *dims; /* rank entries */
} onnx_value_info;

typedef enum onnx_attr_type { /* AttributeProto.AttributeType */
                              ONNX_ATTR_UNDEFINED = 0,
                              ONNX_ATTR_FLOAT = 1,
                              ONNX_ATTR_INT = 2,
                              ONNX_ATTR_STRING = 3,
                              ONNX_ATTR_TENSOR = 4,
                              ONNX_ATTR_GRAPH = 5,
                              ONNX_ATTR_FLOATS = 6,
                              ONNX_ATTR_INTS = 7,
                              ONNX_ATTR_GRAPHS = 10
} onnx_attr_type;

typedef struct onnx_graph onnx_graph;

typedef struct onnx_attr {
  const char  *name;
  int32_t      type; /* onnx_attr_type as written (0 when absent) */
  bool         has_f, has_i, has_s, has_t, has_g;
  float        f;
  int64_t      i;
  onnx_bytes   s;
  onnx_tensor *t; /* has_t */
  onnx_graph  *g; /* has_g: a sub-graph (If's branches, Loop's and Scan's body) */
  int          n_floats;
  float       *floats;
  int          n_ints;
  int64_t     *ints;
  int          n_graphs;
  onnx_graph  *graphs; /* the `graphs` list; NULL when empty */
  bool         is_ref; /* ref_attr_name given (function bodies only) */
} onnx_attr;

typedef struct onnx_node {
  const char  *name; /* "" when absent */
  const char  *op_type;
  const char  *domain; /* "" for the default ONNX domain */
  int          n_inputs;
  const char **inputs; /* "" marks an omitted optional input */
  int          n_outputs;
  const char **outputs;
  int          n_attrs;
  onnx_attr   *attrs;
} onnx_node;

/* The model's graph, or a sub-graph of a node's attribute, whose nodes may
   also read values of the graphs around it by name. */
struct onnx_graph {
  const char      *name;
  int              n_nodes;
  onnx_node       *nodes;
  int              n_initializers;
  onnx_tensor     *initializers;
  int              n_sparse_initializers; /* counted only: not supported */
  int              n_inputs;
  onnx_value_info *inputs;
  int              n_outputs;
  onnx_value_info *outputs;
  int              n_value_info;
  onnx_value_info *value_info;
};

typedef struct onnx_opset {
  const char *domain; /* "" or "ai.onnx" for the default domain */
  int64_t     version;
} onnx_opset;

typedef struct onnx_model {
  arena       arena; /* owns everything below except the bytes spans point into */
  int64_t     ir_version;
  int         n_opsets;
  onnx_opset *opsets;
  bool        has_graph;
  onnx_graph  graph;
} onnx_model;

/* Parses a ModelProto. buf must outlive the model (raw data and strings of
   tensors point into it). NULL with a message in err when the bytes are not a
   well-formed model (or out of memory). */
onnx_model *onnx_read_model(const uint8_t *buf, size_t len, char *err, size_t err_cap);
void        onnx_model_free(onnx_model *m);

/* Parses a lone TensorProto (the backend tests' input_N.pb) into a's memory. */
onnx_tensor *onnx_read_tensor(arena *a, const uint8_t *buf, size_t len, char *err, size_t err_cap);

/* The version of the default ONNX opset the model imports (0 if none). */
int64_t onnx_opset_version(const onnx_model *m);

/* The elements of t as a dense wc_tensor. out->data is malloc'ed; for
   strings it is an array of pointers into *strings (also malloc'ed; NULL
   otherwise). False with a message for an unsupported type, external or
   segmented data, or data that does not match the shape. */
bool onnx_tensor_to_wc(const onnx_tensor *t, wc_tensor *out, char **strings, char *err,
                       size_t err_cap);

/* The value of a one-element tensor, as the bits wc_instr.bits holds for its
   dtype (integers zero-extended, floats as IEEE bits, complex as re, im).
   False when t is not a single element of dtype 1..16 (strings excluded). */
bool onnx_tensor_scalar(const onnx_tensor *t, uint64_t bits[2], char *err, size_t err_cap);

/* Reads a whole file into a malloc'ed buffer (at most ONNX_MAX_FILE bytes). */
uint8_t *onnx_slurp(const char *path, size_t *len, char *err, size_t err_cap);

#endif
