"""_kernels.py: a compiled spec as Python callables: one Kernel per kernel of the table,
called on numpy (or DLPack) arrays through wc_prepare_multi / wc_plan_run, with one plan per
shape signature, kept in the Kernel. The call itself is _fast.c's when the extension is
there (CPython 3.11+): it takes the plain cases and hands the rest to _slow_call, the same
path in Python (cffi), which is the whole path without the extension."""
import threading
from typing import Dict, List, Optional, Tuple

import numpy as np

from . import _dtypes
from ._ffi import ffi, lib

_ndarray = np.ndarray
_empty = np.empty
_from_buffer = ffi.from_buffer
_plan_run_multi = lib.wc_plan_run_multi
_plan_run = lib.wc_plan_run
_OK = lib.WC_OK
_KIND_NAMES = {0: "elementwise", 1: "where_v1", 2: "argwhere", 3: "nonzero"}
_PATHS = {1: "specialized", 2: "interpreted"}


class WherecError(RuntimeError):
    """The runtime refused a call (a wc_status other than WC_OK); .status is its name."""

    def __init__(self, msg: str, status: str = ""):
        super().__init__(msg)
        self.status = status


def status_str(s: int) -> str:
    return ffi.string(lib.wc_status_str(s)).decode()


class Param:
    """One parameter or output of a kernel: name, dtype code and shape pattern."""

    __slots__ = ("name", "code", "dims", "extent_names")

    def __init__(self, p, extent_names: List[str]):
        self.name = ffi.string(p.name).decode()
        self.code = int(p.dtype)
        self.dims = tuple(int(p.dims[d]) for d in range(p.rank))
        self.extent_names = extent_names

    @property
    def dtype_name(self) -> str:
        return _dtypes.NAMES.get(self.code, f"dtype {self.code}")

    @property
    def pattern(self) -> str:
        """The parameter's type as the spec writes it: float[N,64]."""
        dims = ",".join(str(d) if d >= 0 else self.extent_names[-d - 1] for d in self.dims)
        return f"{self.dtype_name}[{dims}]"

    def __repr__(self) -> str:
        return f"{self.name}: {self.pattern}"


def _shape_str(shape) -> str:
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


try:
    from ._fast import FastKernel as _CallBase
    HAVE_FAST = True
except ImportError:
    HAVE_FAST = False

    class _CallBase:
        """Without the extension: every call is _slow_call's."""

        def __call__(self, *args, out=None, **kw):
            return self._slow_call(args, out, kw)

        def _fast_init(self, *a):
            pass

        def _fast_store(self, *a):
            pass

        def _fast_forget(self):
            pass


class Kernel(_CallBase):
    """One kernel of a compiled spec. kernel(*arrays) allocates the output(s);
    kernel(*arrays, out=o) writes into o (a tuple for a kernel of several outputs).
    Inputs must have the parameters' dtypes exactly; shapes broadcast (ONNX/numpy): when
    they fit the kernel's pattern the specialised code runs (symbolic extents bound from
    the arrays), else the interpreter, as wc_run does (see .path())."""

    def __init__(self, spec, table, index: int):
        k = table.kernels[index]
        self._spec = spec                    # keeps the shared object loaded
        self._table = table
        self._k = table.kernels + index      # wc_kernel *: the interpreter's and reference's
        self.name = ffi.string(k.name).decode()
        self._cname = k.name
        self.kind = _KIND_NAMES.get(int(k.kind), str(int(k.kind)))
        extents = [ffi.string(k.extent_names[e]).decode() for e in range(k.n_extents)] \
            if k.extent_names != ffi.NULL else [f"_{e}" for e in range(k.n_extents)]
        self.extents = tuple(extents)
        # the caller's parameters: a baked one (a spec's `const`, data in the table) is
        # the runtime's to pass, so calls take the others only (wc_run's short form)
        self.params = tuple(Param(k.inputs[i], extents) for i in range(k.n_inputs)
                            if k.inputs[i].data == ffi.NULL)
        self._baked_shapes = tuple(tuple(int(k.inputs[i].dims[d]) for d in range(k.inputs[i].rank))
                                   for i in range(k.n_inputs) if k.inputs[i].data != ffi.NULL)
        if k.n_outputs > 1:
            self.outputs = tuple(Param(k.outputs[o], extents) for o in range(k.n_outputs))
        else:
            self.outputs = None
        self._out_codes = tuple(o.code for o in self.outputs) if self.outputs else (int(k.out_dtype),)
        self._n = len(self.params)
        self._n_out = len(self._out_codes)
        self._codes = tuple(p.code for p in self.params)
        self._has_strings = _dtypes.STRING in self._codes or _dtypes.STRING in self._out_codes
        self._general = self._has_strings or self.kind in ("argwhere", "nonzero")
        self._np = None                      # numpy dtypes of the inputs, resolved on first call
        self._np_out = None
        self._plans: Dict[Tuple, Tuple] = {}
        self._lock = threading.Lock()
        self.__doc__ = f"{self.name}({', '.join(map(repr, self.params))})"
        self._fast = False
        if HAVE_FAST and not self._general and self._n_out == 1:
            try:
                want = self._dtypes()
            except ImportError:              # bfloat16 without ml_dtypes: the error comes per call
                want = None
            if want is not None:
                self._fast_init(tuple(want), self._np_out[0], np.ndarray, np.empty,
                                int(ffi.cast("uintptr_t", lib.wc_plan_run)))
                self._fast = True

    # ---- dtypes ------------------------------------------------------------------------

    def _dtypes(self):
        if self._np is None:
            self._np_out = tuple(_dtypes.to_numpy(c) for c in self._out_codes)
            self._np = tuple(_dtypes.to_numpy(c) for c in self._codes)
        return self._np

    def _wrong_dtype(self, i: int, a) -> TypeError:
        p = self.params[i]
        want = "str or bytes (numpy dtype object, U or S)" if p.code == _dtypes.STRING else self._np[i]
        return TypeError(f"{self.name}(): parameter '{p.name}' is {p.pattern}: expected an array of "
                         f"{want}, got {a.dtype}")

    def _coerce(self, i: int, a, want):
        """Anything but an ndarray: a DLPack array through numpy.from_dlpack (zero-copy), a
        numpy scalar as it is, a Python scalar or list converted to the parameter's dtype."""
        if hasattr(a, "__dlpack__"):
            try:
                return np.from_dlpack(a)
            except Exception as e:  # noqa: BLE001: the producer's own error
                raise TypeError(f"{self.name}(): parameter '{self.params[i].name}': "
                                f"numpy.from_dlpack failed: {e}") from e
        if isinstance(a, np.generic):
            return np.asarray(a)
        try:
            return np.asarray(a, dtype=want)
        except (TypeError, ValueError) as e:
            raise TypeError(f"{self.name}(): parameter '{self.params[i].name}' is "
                            f"{self.params[i].pattern}: cannot convert {type(a).__name__}: {e}") from e

    def _inputs(self, args):
        """The arrays to pass: dtypes checked, C-contiguous (non-contiguous ones copied)."""
        if len(args) != self._n:
            raise TypeError(f"{self.name}() takes {self._n} array{'s' if self._n != 1 else ''} "
                            f"({', '.join(map(repr, self.params))}); {len(args)} given")
        want = self._np or self._dtypes()
        arrs = []
        for i in range(self._n):
            a = args[i]
            w = want[i]
            if isinstance(a, _ndarray):
                a = np.asarray(a)            # a subclass as a plain array (a view)
            else:
                a = self._coerce(i, a, w)
            if a.dtype is not w and a.dtype != w:
                if not (self._codes[i] == _dtypes.STRING and a.dtype.kind in "US"):
                    raise self._wrong_dtype(i, a)
            arrs.append(a)
        return arrs

    # ---- plans -------------------------------------------------------------------------

    def _out_shape(self, shapes) -> Tuple[int, ...]:
        if self.kind == "where_v1":
            return shapes[1]
        try:
            return tuple(np.broadcast_shapes(*shapes, *self._baked_shapes))
        except ValueError:
            desc = ", ".join(f"{p.name} {_shape_str(s)}" for p, s in zip(self.params, shapes))
            raise ValueError(f"{self.name}(): the shapes do not broadcast: {desc} "
                             f"(parameters {', '.join(map(repr, self.params))})") from None

    def _tensors(self, shapes, codes):
        ts = ffi.new("wc_tensor[]", max(len(shapes), 1))
        for t, s, c in zip(ts, shapes, codes):
            if len(s) > 16:
                raise ValueError(f"{self.name}(): rank {len(s)} is above wherec's 16")
            t.dtype = c
            t.rank = len(s)
            for d, e in enumerate(s):
                t.shape[d] = e
        return ts

    def _prepare(self, key):
        """The plan of one shape signature: every check wc_run makes, once."""
        shapes = key
        oshape = self._out_shape(shapes)
        ins = self._tensors(shapes, self._codes)
        outs = self._tensors([oshape] * self._n_out, self._out_codes)
        plan = ffi.new("wc_plan *")
        s = lib.wc_prepare_multi(self._table, self._cname, ins, self._n, outs, self._n_out, plan)
        if s != _OK:
            raise self._refused(s, shapes)
        entry = (plan, oshape, int(plan.path))
        with self._lock:
            if len(self._plans) >= 256:      # a bounded cache: shapes that keep changing
                self._plans.clear()
                self._fast_forget()
            self._plans[key] = entry
        return entry

    def _refused(self, s: int, shapes) -> Exception:
        name = status_str(s)
        desc = ", ".join(f"{p.name} {_shape_str(sh)}" for p, sh in zip(self.params, shapes))
        msg = (f"{self.name}(): the runtime refused the call ({name}): inputs {desc}; "
               f"parameters {', '.join(map(repr, self.params))}")
        if s in (lib.WC_E_SHAPE, lib.WC_E_RANK):
            return ValueError(msg)
        if s == lib.WC_E_DTYPE:
            return TypeError(msg)
        return WherecError(msg, name)

    def path(self, *args) -> str:
        """'specialized' or 'interpreted': what a call on these arrays runs."""
        if self.kind in ("argwhere", "nonzero"):
            raise TypeError(f"{self.name}(): {self.kind} kernels are not prepared (wc_run decides per call)")
        arrs = self._inputs(args)
        key = tuple(a.shape for a in arrs)
        entry = self._plans.get(key) or self._prepare(key)
        return _PATHS[entry[2]]

    # ---- calls -------------------------------------------------------------------------

    def _slow_call(self, args, out=None, kw=None):
        if kw:
            raise TypeError(f"{self.name}() got an unexpected keyword argument '{next(iter(kw))}'")
        # The hot path, kept flat: ndarrays of the exact dtypes, C-contiguous (cffi's
        # from_buffer refuses any other layout, and _pointer copies those).
        if self._general or len(args) != self._n:
            return self._call_general(args, out)
        want = self._np or self._dtypes()
        shapes = []
        ptrs = []
        i = 0
        for a in args:
            if type(a) is not _ndarray:
                return self._call_general(args, out)
            d = a.dtype
            if d is not want[i] and d != want[i]:
                raise self._wrong_dtype(i, a)
            shapes.append(a.shape)
            try:
                p = _from_buffer(a)
                if not a.flags.aligned:        # a view at an odd offset: copied
                    p = self._pointer(a)
            except (BufferError, ValueError, TypeError):
                p = self._pointer(a)
            ptrs.append(p)
            i += 1
        key = tuple(shapes)
        entry = self._plans.get(key)
        if entry is None:
            entry = self._prepare(key)
        plan, oshape, _ = entry
        if self._fast:                      # the next call with these shapes stays in C
            self._fast_store(key, int(ffi.cast("uintptr_t", plan)), oshape, plan)
        if self._n_out == 1:
            if out is None:
                o = _empty(oshape, self._np_out[0])
            else:
                o = self._check_out(out, 0, oshape)
            try:
                po = _from_buffer(o, require_writable=True)
            except (BufferError, ValueError, TypeError):
                po = self._out_pointer(o)
            s = _plan_run(plan, ptrs, po)
            if s:
                raise WherecError(f"{self.name}(): {status_str(s)}", status_str(s))
            return o
        if out is None:
            outs = tuple(_empty(oshape, d) for d in self._np_out)
        else:
            if not isinstance(out, (tuple, list)) or len(out) != self._n_out:
                raise TypeError(f"{self.name}(): out must be a tuple of {self._n_out} arrays "
                                f"({', '.join(map(repr, self.outputs))})")
            outs = tuple(self._check_out(o, j, oshape) for j, o in enumerate(out))
        s = _plan_run_multi(plan, ptrs, [self._out_pointer(o) for o in outs])
        if s:
            raise WherecError(f"{self.name}(): {status_str(s)}", status_str(s))
        return outs

    def _call_general(self, args, out):
        """Arguments the hot path does not take: DLPack arrays, scalars, lists (converted),
        a wrong count (an error); then the hot path on the arrays."""
        if self._general:
            return self._call_run(args, out)
        arrs = self._inputs(args)
        return self.__call__(*arrs, out=out)

    @staticmethod
    def _pointer(a):
        """A pointer to a's elements: C-contiguous ones in place, others copied first
        (numpy.ascontiguousarray); a dtype the buffer protocol cannot spell (bfloat16) is
        viewed as bytes of its width."""
        if not a.flags.c_contiguous:
            a = np.ascontiguousarray(a)
        if not a.flags.aligned:
            a = a.copy()
        return _from_buffer(a.view(np.uint8) if a.ndim else a.reshape(1).view(np.uint8))

    def _out_name(self, j: int) -> str:
        return "out" if self.outputs is None else f"out[{j}] ('{self.outputs[j].name}')"

    def _check_out(self, o, j: int, oshape):
        want = self._np_out[j]
        if type(o) is not _ndarray:
            raise TypeError(f"{self.name}(): {self._out_name(j)} must be a numpy array, "
                            f"got {type(o).__name__}")
        if o.dtype != want:
            raise TypeError(f"{self.name}(): {self._out_name(j)}: expected an array of {want}, "
                            f"got {o.dtype}")
        if o.shape != oshape:
            raise ValueError(f"{self.name}(): {self._out_name(j)}: expected shape "
                             f"{_shape_str(oshape)}, got {_shape_str(o.shape)}")
        if not o.flags.c_contiguous or not o.flags.writeable or not o.flags.aligned:
            raise ValueError(f"{self.name}(): {self._out_name(j)} must be C-contiguous, aligned "
                             f"and writeable")
        return o

    @staticmethod
    def _out_pointer(o):
        """The output's pointer; a dtype the buffer protocol cannot spell viewed as bytes."""
        try:
            return _from_buffer(o, require_writable=True)
        except (BufferError, ValueError, TypeError):
            return _from_buffer((o if o.ndim else o.reshape(1)).view(np.uint8), require_writable=True)

    # ---- the general path: strings, argwhere / nonzero ------------------------------------

    def _call_run(self, args, out, runner=None):
        """wc_run_multi on tensors (or runner: the reference); string parameters become arrays
        of NUL-terminated UTF-8 strings, string outputs come back as str objects."""
        arrs = self._inputs(args)
        keep = []
        ins = self._tensors([a.shape for a in arrs], self._codes)
        for t, a, c in zip(ins, arrs, self._codes):
            if c == _dtypes.STRING:
                items = [ffi.new("char[]", (v if isinstance(v, bytes) else str(v).encode()))
                         for v in a.reshape(-1)]
                ptrs = ffi.new("char *[]", max(len(items), 1))
                for i, it in enumerate(items):
                    ptrs[i] = it
                keep += [items, ptrs]
                t.data = ptrs
            else:
                a = np.ascontiguousarray(a)
                keep.append(a)
                t.data = ffi.cast("void *", a.ctypes.data)
        if self.kind in ("argwhere", "nonzero"):
            return self._coords(ins, runner)
        oshape = self._out_shape([a.shape for a in arrs])
        outs_t = self._tensors([oshape] * self._n_out, self._out_codes)
        outs, bufs = [], []
        for j, (t, c) in enumerate(zip(outs_t, self._out_codes)):
            count = int(np.prod(oshape, dtype=np.int64))
            if c == _dtypes.STRING:
                buf = ffi.new("char *[]", max(count, 1))
                t.data = buf
                bufs.append(buf)
                outs.append(None)
            else:
                given = None if out is None else (out if self._n_out == 1 else out[j])
                o = _empty(oshape, self._np_out[j]) if given is None else self._check_out(given, j, oshape)
                t.data = ffi.cast("void *", o.ctypes.data)
                outs.append(o)
                bufs.append(None)
        path = ffi.new("wc_path *")
        if runner is None:
            s = lib.wc_run_multi(self._table, self._cname, ins, self._n, outs_t, self._n_out, path)
        else:
            s = runner(self._k, ins, self._n, outs_t, self._n_out)
        if s != _OK:
            raise self._refused(s, [a.shape for a in arrs])
        for j, buf in enumerate(bufs):
            if buf is not None:
                count = int(np.prod(oshape, dtype=np.int64))
                o = np.empty(count, dtype=object)
                for i in range(count):
                    o[i] = ffi.string(buf[i]).decode("utf-8", "surrogateescape")
                outs[j] = o.reshape(oshape)
        return outs[0] if self._n_out == 1 else tuple(outs)

    def _coords(self, ins, runner):
        """argwhere / nonzero: ask with no room for the count, then run with exact room."""
        out = self._tensors([(0,)], (7,))
        s = lib.wc_run(self._table, self._cname, ins, self._n, out, ffi.NULL) if runner is None \
            else runner(self._k, ins, self._n, out, 1)
        if s == lib.WC_E_CAPACITY:
            n = int(out[0].shape[0]) * int(out[0].shape[1])
            buf = np.empty(n, np.int64)
            out = self._tensors([(n,)], (7,))
            out[0].data = ffi.cast("void *", buf.ctypes.data)
            s = lib.wc_run(self._table, self._cname, ins, self._n, out, ffi.NULL) if runner is None \
                else runner(self._k, ins, self._n, out, 1)
        else:
            buf = np.empty(0, np.int64)
        if s != _OK:
            raise self._refused(s, [tuple(ins[i].shape[d] for d in range(ins[i].rank))
                                    for i in range(self._n)])
        return buf.reshape(int(out[0].shape[0]), int(out[0].shape[1]))

    def reference(self, *args):
        """The reference evaluator (wc_ref_run_multi) on these arrays: slow, independent."""
        if self.kind in ("argwhere", "nonzero"):
            return self._call_run(args, None, runner=lambda k, i, n, o, no: lib.wc_ref_run(k, i, n, o))
        return self._call_run(args, None, runner=lib.wc_ref_run_multi)

    def interpret(self, *args):
        """The generic interpreter (wc_interpret_multi) on these arrays."""
        if self.kind in ("argwhere", "nonzero"):
            raise TypeError(f"{self.name}(): the interpreter does not run {self.kind} kernels")
        return self._call_run(args, None, runner=lib.wc_interpret_multi)

    def __repr__(self) -> str:
        outs = f" -> ({', '.join(map(repr, self.outputs))})" if self.outputs else ""
        return f"<wherec kernel {self.name}({', '.join(map(repr, self.params))}){outs}>"


class Kernels:
    """A compiled spec: one attribute (a Kernel) per kernel, also k['name'] and iteration."""

    def __init__(self, so: str, prefix: str, handle, table):
        self._path = so
        self._prefix = prefix
        self._handle = handle
        self._table = table
        self._kernels = {}
        for i in range(table.n_kernels):
            kern = Kernel(self, table, i)
            self._kernels[kern.name] = kern
        for name, kern in self._kernels.items():
            if name.isidentifier() and not name.startswith("_") and not hasattr(type(self), name):
                setattr(self, name, kern)

    @property
    def path(self) -> str:
        """The shared object in the cache."""
        return self._path

    @property
    def prefix(self) -> str:
        """The C prefix of the generated symbols."""
        return self._prefix

    def __getitem__(self, name: str) -> Kernel:
        try:
            return self._kernels[name]
        except KeyError:
            raise KeyError(f"no kernel '{name}'; kernels: {', '.join(self._kernels)}") from None

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        raise AttributeError(f"no kernel '{name}'; kernels: {', '.join(self._kernels)}")

    def __iter__(self):
        return iter(self._kernels.values())

    def __len__(self) -> int:
        return len(self._kernels)

    def __contains__(self, name) -> bool:
        return name in self._kernels

    def __repr__(self) -> str:
        return f"<wherec kernels {self.prefix} from {self.path}: {', '.join(self._kernels)}>"


_loaded: Dict[str, Kernels] = {}
_load_lock = threading.Lock()


def load(so: str, prefix: str) -> Kernels:
    """dlopen the shared object once per process (never closed: plans point into it)."""
    with _load_lock:
        if so in _loaded:
            return _loaded[so]
        from ._ffi import libc
        c = libc()
        h = c.dlopen(so.encode(), 2)  # RTLD_NOW | RTLD_LOCAL: each spec's symbols its own
        if h == ffi.NULL:
            err = c.dlerror()
            raise ImportError(f"cannot load {so}: {ffi.string(err).decode() if err != ffi.NULL else '?'}")
        sym = c.dlsym(h, f"{prefix}_table".encode())
        if sym == ffi.NULL:
            raise ImportError(f"{so} has no {prefix}_table")
        table = ffi.cast("const wc_kernel_table *", sym)
        s = lib.wc_register(table)
        if s not in (_OK, lib.WC_E_CAPACITY):
            raise WherecError(f"{so}: the runtime refused its table ({status_str(s)})", status_str(s))
        ks = Kernels(so, prefix, h, table)
        _loaded[so] = ks
        return ks
