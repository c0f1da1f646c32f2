"""_ffi.py: the binding: cffi in ABI mode over libwherec.so (and the package's thread
pool library), declared from include/wherec/{dtypes,table,wherec}.h by hand. cffi releases
the GIL around every call; tests/python/test_tools.py checks these layouts against the C
compiler's."""
import cffi

from . import _paths

CDEF = r"""
typedef enum wc_dtype {
  WC_FLOAT = 1, WC_UINT8 = 2, WC_INT8 = 3, WC_UINT16 = 4, WC_INT16 = 5,
  WC_INT32 = 6, WC_INT64 = 7, WC_STRING = 8, WC_BOOL = 9, WC_FLOAT16 = 10,
  WC_DOUBLE = 11, WC_UINT32 = 12, WC_UINT64 = 13, WC_COMPLEX64 = 14,
  WC_COMPLEX128 = 15, WC_BFLOAT16 = 16
} wc_dtype;
typedef enum wc_status { WC_OK = 0, WC_E_ARG, WC_E_DTYPE, WC_E_RANK, WC_E_SHAPE,
                         WC_E_OVERFLOW, WC_E_CAPACITY, WC_E_NOKERNEL, WC_E_NOMEM } wc_status;
typedef enum wc_path { WC_PATH_SPECIALIZED = 1, WC_PATH_INTERPRETED = 2 } wc_path;
typedef enum wc_kernel_kind { WC_KIND_ELEMENTWISE = 0, WC_KIND_WHERE_V1 = 1,
                              WC_KIND_ARGWHERE = 2, WC_KIND_NONZERO = 3 } wc_kernel_kind;

typedef struct wc_tensor {
  wc_dtype dtype;
  int      rank;
  int64_t  shape[16];
  void    *data;
} wc_tensor;

typedef struct wc_param {
  const char    *name;
  wc_dtype       dtype;
  int            rank;
  const int64_t *dims;
  const void    *data;
} wc_param;

typedef struct wc_kernel {
  const char      *name;
  wc_kernel_kind   kind;
  int              n_inputs;
  const wc_param  *inputs;
  int              n_extents;
  const char *const *extent_names;
  wc_dtype         out_dtype;
  int              out_rank;
  const int64_t   *out_dims;
  int              n_instrs;
  const void      *program;
  void            *range;
  void            *count;
  void            *coords;
  int              n_outputs;
  const wc_param  *outputs;
  const uint16_t  *out_instrs;
  void            *range_outs;
} wc_kernel;

typedef struct wc_kernel_table {
  const char      *prefix;
  const char      *spec;
  int              n_kernels;
  const wc_kernel *kernels;
} wc_kernel_table;

typedef struct wc_plan {
  void            *range;
  int64_t          count;
  size_t           bytes;
  int              n_inputs;
  wc_path          path;
  const wc_kernel *kernel;
  int              v1[3];
  union {
    size_t extents[544];
    struct {
      int     rank[34];
      int64_t shape[34][16];
    } shapes;
  } u;
  int              n_outputs;
  void            *range_outs;
  int              n_baked;
} wc_plan;

typedef void (*wc_task_fn)(void *task_ctx, size_t task);
typedef void (*wc_parallel_fn)(void *ctx, wc_task_fn task, void *task_ctx, size_t n_tasks);

const char *wc_status_str(wc_status s);
size_t      wc_dtype_size(wc_dtype t);
const char *wc_dtype_name(wc_dtype t);
wc_status wc_broadcast_shape(const wc_tensor *const *ts, int n, int *rank, int64_t shape[16]);
wc_status wc_register(const wc_kernel_table *table);
const wc_kernel *wc_find_kernel(const wc_kernel_table *table, const char *kernel);
wc_status wc_run(const wc_kernel_table *table, const char *kernel,
                 const wc_tensor *inputs, int n_inputs, wc_tensor *out, wc_path *path);
wc_status wc_run_multi(const wc_kernel_table *table, const char *kernel, const wc_tensor *inputs,
                       int n_inputs, wc_tensor *outs, int n_outs, wc_path *path);
wc_status wc_prepare_multi(const wc_kernel_table *table, const char *kernel,
                           const wc_tensor *inputs, int n_inputs, const wc_tensor *outs,
                           int n_outs, wc_plan *plan);
wc_status wc_plan_run(const wc_plan *plan, const void *const *input_data, void *out_data);
wc_status wc_plan_run_multi(const wc_plan *plan, const void *const *input_data,
                            void *const *out_data);
wc_status wc_interpret_multi(const wc_kernel *k, const wc_tensor *inputs, int n_inputs,
                             wc_tensor *outs, int n_outs);
wc_status wc_ref_run(const wc_kernel *k, const wc_tensor *inputs, int n_inputs, wc_tensor *out);
wc_status wc_ref_run_multi(const wc_kernel *k, const wc_tensor *inputs, int n_inputs,
                           wc_tensor *outs, int n_outs);
void wc_set_parallel(wc_parallel_fn fn, void *ctx);
void wc_set_parallel_threshold(size_t bytes);

typedef struct pool pool;
pool *pool_create(int n_threads);
void pool_destroy(pool *p);
void pool_parallel(void *p, wc_task_fn task, void *task_ctx, size_t n_tasks);

void *dlopen(const char *filename, int flags);
void *dlsym(void *handle, const char *symbol);
char *dlerror(void);
"""

ffi = cffi.FFI()
ffi.cdef(CDEF)

# RTLD_GLOBAL: the kernels' shared objects and the pool resolve wc_* against this copy.
lib = ffi.dlopen(_paths.library("wherec"), ffi.RTLD_NOW | ffi.RTLD_GLOBAL)
_pool_lib = None
_libc = None


def pool_lib():
    """The package's pthread pool (lib/libwherecpool.so), loaded on first use."""
    global _pool_lib
    if _pool_lib is None:
        _pool_lib = ffi.dlopen(_paths.library("wherecpool"), ffi.RTLD_NOW | ffi.RTLD_GLOBAL)
    return _pool_lib


def libc():
    """dlopen/dlsym/dlerror of the C library (glibc >= 2.34 has them in libc itself)."""
    global _libc
    if _libc is None:
        _libc = ffi.dlopen(None)
    return _libc
