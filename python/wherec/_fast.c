/* _fast.c: the hot path of a kernel call in C, against CPython's limited API (3.11+, the
   buffer protocol): dtype checks, the plan of the inputs' shapes, the output, wc_plan_run
   with the GIL released. Anything else it hands to the Python method _slow_call. */
#define Py_LIMITED_API 0x030B0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

#define FK_MAX_IN   33 /* WC_MAX_INPUTS */
#define FK_MAX_RANK 16 /* WC_MAX_RANK */
#define FK_SLOTS    4  /* plans remembered here; the Python side keeps them all */

/* wc_plan_run, reached through its address (the module links nothing of libwherec). */
typedef int (*plan_run_fn)(const void *plan, const void *const *input_data, void *out_data);

typedef struct slot {
  int         used;
  int         ndim[FK_MAX_IN];
  Py_ssize_t  shape[FK_MAX_IN][FK_MAX_RANK];
  int         out_ndim;
  Py_ssize_t  out_shape[FK_MAX_RANK];
  const void *plan;       /* a wc_plan, owned by keep */
  PyObject   *keep;       /* the cffi object holding the plan */
  PyObject   *empty_args; /* (out shape, out dtype): numpy.empty's arguments */
} slot;

typedef struct fast_kernel {
  PyObject_HEAD
  int         ready;             /* 0: every call goes to _slow_call */
  int         n_in;
  PyObject   *dtypes[FK_MAX_IN]; /* the parameters' numpy dtypes */
  PyObject   *out_dtype;
  PyObject   *ndarray;           /* numpy.ndarray */
  PyObject   *empty;             /* numpy.empty */
  plan_run_fn run;
  int         next;              /* the slot the next plan replaces */
  slot        slots[FK_SLOTS];
} fast_kernel;

static PyObject *str_dtype, *str_slow_call, *str_out;

static void slot_clear(slot *s) {
  Py_CLEAR(s->keep);
  Py_CLEAR(s->empty_args);
  s->used = 0;
}

static void fk_clear_all(fast_kernel *k) {
  for (int i = 0; i < FK_SLOTS; i++) slot_clear(&k->slots[i]);
  for (int i = 0; i < FK_MAX_IN; i++) Py_CLEAR(k->dtypes[i]);
  Py_CLEAR(k->out_dtype);
  Py_CLEAR(k->ndarray);
  Py_CLEAR(k->empty);
  k->ready = 0;
}

static int fk_traverse(PyObject *self, visitproc visit, void *arg) {
  fast_kernel *k = (fast_kernel *)self;
  for (int i = 0; i < FK_SLOTS; i++) {
    Py_VISIT(k->slots[i].keep);
    Py_VISIT(k->slots[i].empty_args);
  }
  for (int i = 0; i < FK_MAX_IN; i++) Py_VISIT(k->dtypes[i]);
  Py_VISIT(k->out_dtype);
  Py_VISIT(k->ndarray);
  Py_VISIT(k->empty);
  Py_VISIT(Py_TYPE(self));
  return 0;
}

static int fk_tp_clear(PyObject *self) {
  fk_clear_all((fast_kernel *)self);
  return 0;
}

static void fk_dealloc(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  fk_clear_all((fast_kernel *)self);
  freefunc free_fn = (freefunc)PyType_GetSlot(tp, Py_tp_free);
  free_fn(self);
  Py_DECREF(tp);
}

/* _fast_init(dtypes, out_dtype, ndarray, empty, plan_run_address) */
static PyObject *fk_init(PyObject *self, PyObject *args) {
  fast_kernel *k = (fast_kernel *)self;
  PyObject    *dtypes, *out_dtype, *ndarray, *empty;
  unsigned long long addr;
  if (!PyArg_ParseTuple(args, "O!OOOK", &PyTuple_Type, &dtypes, &out_dtype, &ndarray, &empty, &addr))
    return NULL;
  Py_ssize_t n = PyTuple_Size(dtypes);
  if (n < 0 || n > FK_MAX_IN) {
    PyErr_SetString(PyExc_ValueError, "_fast_init: too many parameters");
    return NULL;
  }
  fk_clear_all(k);
  for (Py_ssize_t i = 0; i < n; i++) {
    k->dtypes[i] = PyTuple_GetItem(dtypes, i);
    Py_INCREF(k->dtypes[i]);
  }
  k->n_in = (int)n;
  Py_INCREF(out_dtype);
  k->out_dtype = out_dtype;
  Py_INCREF(ndarray);
  k->ndarray = ndarray;
  Py_INCREF(empty);
  k->empty = empty;
  k->run = (plan_run_fn)(uintptr_t)addr;
  k->ready = addr != 0;
  Py_RETURN_NONE;
}

/* A tuple of n ints into out; -1 if it is not one. */
static int int_tuple(PyObject *t, Py_ssize_t *out, int *n) {
  if (!PyTuple_Check(t) || PyTuple_Size(t) > FK_MAX_RANK) return -1;
  *n = (int)PyTuple_Size(t);
  for (int d = 0; d < *n; d++) {
    out[d] = PyLong_AsSsize_t(PyTuple_GetItem(t, d));
    if (out[d] == -1 && PyErr_Occurred()) return -1;
  }
  return 0;
}

/* _fast_store(shapes, plan_address, out_shape, keep): remember a plan for these shapes. */
static PyObject *fk_store(PyObject *self, PyObject *args) {
  fast_kernel *k = (fast_kernel *)self;
  PyObject    *shapes, *oshape, *keep;
  unsigned long long addr;
  if (!PyArg_ParseTuple(args, "O!KO!O", &PyTuple_Type, &shapes, &addr, &PyTuple_Type, &oshape, &keep))
    return NULL;
  if (!k->ready || PyTuple_Size(shapes) != k->n_in) Py_RETURN_NONE;
  slot tmp;
  memset(&tmp, 0, sizeof tmp);
  for (int i = 0; i < k->n_in; i++)
    if (int_tuple(PyTuple_GetItem(shapes, i), tmp.shape[i], &tmp.ndim[i]) != 0) goto bad;
  if (int_tuple(oshape, tmp.out_shape, &tmp.out_ndim) != 0) goto bad;
  tmp.empty_args = PyTuple_Pack(2, oshape, k->out_dtype);
  if (tmp.empty_args == NULL) return NULL;
  tmp.plan = (const void *)(uintptr_t)addr;
  Py_INCREF(keep);
  tmp.keep = keep;
  tmp.used = 1;
  slot *s = &k->slots[k->next];
  k->next = (k->next + 1) % FK_SLOTS;
  slot old = *s;
  *s = tmp;
  slot_clear(&old);
  Py_RETURN_NONE;
bad:
  if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "_fast_store: shapes must be tuples of ints");
  return NULL;
}

static PyObject *fk_forget(PyObject *self, PyObject *unused) {
  fast_kernel *k = (fast_kernel *)self;
  (void)unused;
  for (int i = 0; i < FK_SLOTS; i++) slot_clear(&k->slots[i]);
  Py_RETURN_NONE;
}

static PyObject *slow(PyObject *self, PyObject *args, PyObject *out) {
  return PyObject_CallMethodObjArgs(self, str_slow_call, args, out ? out : Py_None, NULL);
}

static int same_shape(const Py_buffer *v, int ndim, const Py_ssize_t *shape) {
  if (v->ndim != ndim) return 0;
  for (int d = 0; d < ndim; d++)
    if (v->shape[d] != shape[d]) return 0;
  return 1;
}

/* An array of exactly dtype want (the very dtype object), C-contiguous: its buffer
   (writable if asked); else 0. An input may be an ndarray or a numpy scalar (0-d); an
   out must be an ndarray. */
static int take(fast_kernel *k, PyObject *a, PyObject *want, Py_buffer *v, int flags) {
  if ((flags & PyBUF_WRITABLE) && (PyObject *)Py_TYPE(a) != k->ndarray) return 0;
  PyObject *dt = PyObject_GetAttr(a, str_dtype);
  if (dt == NULL) {
    PyErr_Clear();
    return 0;
  }
  int same = dt == want;
  Py_DECREF(dt);
  if (!same || PyObject_GetBuffer(a, v, flags) != 0) {
    PyErr_Clear();
    return 0;
  }
  /* Misaligned elements (a view at an odd byte offset) would break vector loads: the
     Python path copies such inputs and refuses such an out. */
  Py_ssize_t align = v->itemsize < 8 ? v->itemsize : 8;
  if (align > 1 && (uintptr_t)v->buf % (uintptr_t)align != 0) {
    PyBuffer_Release(v);
    return 0;
  }
  return 1;
}

static PyObject *fk_call(PyObject *self, PyObject *args, PyObject *kw) {
  fast_kernel *k = (fast_kernel *)self;
  PyObject    *out = NULL;
  if (kw != NULL && PyDict_Size(kw) != 0) {
    out = PyDict_GetItemWithError(kw, str_out);
    if (out == NULL || PyDict_Size(kw) != 1) {
      if (PyErr_Occurred()) return NULL;
      return PyObject_CallMethodObjArgs(self, str_slow_call, args, Py_None, kw, NULL);
    }
    if (out == Py_None) out = NULL;
  }
  Py_ssize_t n = PyTuple_Size(args);
  if (!k->ready || n != k->n_in) return slow(self, args, out);

  Py_buffer   views[FK_MAX_IN], ov;
  const void *ptrs[FK_MAX_IN];
  int         got = 0;
  for (; got < n; got++) {
    if (!take(k, PyTuple_GetItem(args, got), k->dtypes[got], &views[got], PyBUF_ND)) break;
    ptrs[got] = views[got].buf;
  }
  slot *s = NULL;
  if (got == n)
    for (int j = 0; j < FK_SLOTS && s == NULL; j++) {
      slot *c = &k->slots[j];
      if (!c->used) continue;
      int match = 1;
      for (int i = 0; i < n && match; i++) match = same_shape(&views[i], c->ndim[i], c->shape[i]);
      if (match) s = c;
    }
  PyObject *o = NULL;
  if (s != NULL) {
    if (out != NULL) {
      if (take(k, out, k->out_dtype, &ov, PyBUF_ND | PyBUF_WRITABLE)) {
        if (same_shape(&ov, s->out_ndim, s->out_shape)) {
          Py_INCREF(out);
          o = out;
        } else {
          PyBuffer_Release(&ov);
        }
      }
    } else {
      o = PyObject_Call(k->empty, s->empty_args, NULL);
      if (o == NULL) {
        for (int i = 0; i < got; i++) PyBuffer_Release(&views[i]);
        return NULL;
      }
      if (PyObject_GetBuffer(o, &ov, PyBUF_ND | PyBUF_WRITABLE) != 0) {
        PyErr_Clear();
        Py_CLEAR(o);
      }
    }
  }
  if (o == NULL) {
    for (int i = 0; i < got; i++) PyBuffer_Release(&views[i]);
    return slow(self, args, out);
  }
  /* Another thread may store into this slot while the GIL is released: the call reads
     its own copies, and holds the plan's owner until it returns. */
  PyObject   *keep = s->keep;
  const void *plan = s->plan;
  plan_run_fn run = k->run;
  Py_INCREF(keep);
  int status;
  Py_BEGIN_ALLOW_THREADS
  status = run(plan, ptrs, ov.buf);
  Py_END_ALLOW_THREADS
  Py_DECREF(keep);
  PyBuffer_Release(&ov);
  for (int i = 0; i < got; i++) PyBuffer_Release(&views[i]);
  if (status != 0) { /* the Python path raises the runtime's error */
    Py_DECREF(o);
    return slow(self, args, out);
  }
  return o;
}

static PyMethodDef fk_methods[] = {
  {"_fast_init", fk_init, METH_VARARGS, "bind the dtypes, numpy and wc_plan_run"},
  {"_fast_store", fk_store, METH_VARARGS, "remember the plan of a shape signature"},
  {"_fast_forget", fk_forget, METH_NOARGS, "forget every plan"},
  {NULL, NULL, 0, NULL},
};

static PyType_Slot fk_slots[] = {
  {Py_tp_doc, "A kernel's call path in C; Kernel (python/wherec/_kernels.py) derives from it."},
  {Py_tp_call, fk_call},
  {Py_tp_methods, fk_methods},
  {Py_tp_traverse, fk_traverse},
  {Py_tp_clear, fk_tp_clear},
  {Py_tp_dealloc, fk_dealloc},
  {0, NULL},
};

static PyType_Spec fk_spec = {
  "wherec._fast.FastKernel", sizeof(fast_kernel), 0,
  Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, fk_slots,
};

static int fast_exec(PyObject *m) {
  str_dtype = PyUnicode_InternFromString("dtype");
  str_slow_call = PyUnicode_InternFromString("_slow_call");
  str_out = PyUnicode_InternFromString("out");
  if (!str_dtype || !str_slow_call || !str_out) return -1;
  PyObject *tp = PyType_FromSpec(&fk_spec);
  if (tp == NULL) return -1;
  if (PyModule_AddObject(m, "FastKernel", tp) != 0) {
    Py_DECREF(tp);
    return -1;
  }
  return 0;
}

static PyModuleDef_Slot fast_slots[] = {{Py_mod_exec, fast_exec}, {0, NULL}};

static struct PyModuleDef fast_module = {
  PyModuleDef_HEAD_INIT, "wherec._fast",
  "The hot path of wherec kernel calls (CPython limited API).", 0, NULL, fast_slots,
  NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fast(void) { return PyModuleDef_Init(&fast_module); }
