"""onnxruntime.py: wherec's execution provider in onnxruntime (>= 1.23): the plugin
library's path and name, as other plugin EP packages give them, and session(), which
imports a model once per content (`wherec import --ort`, cached) and returns an
onnxruntime.InferenceSession that runs the model's measured-faster regions as wherec
kernels. docs/onnxruntime.md is the guide."""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from typing import Dict, Optional, Sequence, Union

from . import _cache, _paths

EP_NAME = "WherecExecutionProvider"
_REGISTERED_AS = "wherec"
_lock = threading.Lock()
_registered = False


def get_library_path() -> str:
    """The plugin library to pass to onnxruntime.register_execution_provider_library."""
    return _paths.library("wherec_ep")


def get_ep_name() -> str:
    return EP_NAME


def get_ep_names():
    return [EP_NAME]


def devices(ort=None):
    """The provider's devices, registering the library once per process (one library
    serves every model: the model's kernels come with each session's options)."""
    global _registered
    if ort is None:
        import onnxruntime as ort
    if not hasattr(ort, "register_execution_provider_library"):
        raise RuntimeError("onnxruntime %s has no plugin execution providers: wherec's needs "
                           "onnxruntime 1.23 or later" % ort.__version__)
    with _lock:
        if not _registered:
            ort.register_execution_provider_library(_REGISTERED_AS, get_library_path())
            _registered = True
    found = [d for d in ort.get_ep_devices() if d.ep_name == EP_NAME]
    if not found:
        raise RuntimeError("onnxruntime lists no device of %s (library %s)" % (EP_NAME, get_library_path()))
    return found


def _dynamic_inputs(model) -> Sequence[str]:
    """The graph inputs (not initializers) with a dimension of no fixed size."""
    import onnx
    if isinstance(model, (bytes, bytearray)):
        m = onnx.load_from_string(bytes(model))
    else:
        m = onnx.load(os.fspath(model), load_external_data=False)
    inits = {t.name for t in m.graph.initializer}
    return [vi.name for vi in m.graph.input if vi.name not in inits and vi.type.HasField("tensor_type") and
            any(not (d.HasField("dim_value") and d.dim_value > 0) for d in vi.type.tensor_type.shape.dim)]


class NoRegionError(_cache.CompileError):
    """The model has no element-wise region wherec can import: nothing for the provider."""


# what `wherec import` says of a model without a region (gen/import/import.c)
_NO_REGION = "no element-wise region could be imported"


def _model_bytes(model) -> bytes:
    """The model's bytes; a model whose initializers live in external data files, with
    that data inside (read from beside the model), so that the copy imported and the
    cache's key hold it."""
    if isinstance(model, (bytes, bytearray)):
        return bytes(model)
    with open(os.fspath(model), "rb") as f:
        data = f.read()
    import onnx
    m = onnx.load_from_string(data)
    if any(t.data_location == onnx.TensorProto.EXTERNAL for t in m.graph.initializer):
        from onnx.external_data_helper import load_external_data_for_model
        load_external_data_for_model(m, os.path.dirname(os.path.abspath(os.fspath(model))))
        data = m.SerializeToString()
    return data


def build(model: Union[str, "os.PathLike[str]", bytes], inputs: Optional[Dict[str, "object"]] = None,
          cc: Optional[str] = None, cflags: Optional[str] = None) -> str:
    """The directory `wherec import MODEL --ort DIR` wrote for this model (kernels.where,
    its manifest with the measurements, kernels.so), made once per content: the model's
    bytes, the inputs it was timed on, the compiler and flags, and this wherec. inputs:
    graph input name -> numpy array (default: made by the import, dynamic extents 32)."""
    import numpy as np
    data = _model_bytes(model)
    h = hashlib.sha256()
    for part in (b"wherec-ort/1", _cache.version().encode(), data, (cc or "").encode(),
                 (cflags or "").encode()):
        h.update(len(part).to_bytes(8, "little") + part)
    for name in sorted(inputs or {}):
        a = np.ascontiguousarray(inputs[name])
        h.update(name.encode() + str(a.dtype).encode() + str(a.shape).encode() + a.tobytes())
    out = os.path.join(_cache.cache_root(), "ort", h.hexdigest()[:32])
    if os.path.exists(os.path.join(out, "kernels.so")):
        return out
    os.makedirs(os.path.dirname(out), exist_ok=True)
    work = tempfile.mkdtemp(prefix=".build-", dir=os.path.dirname(out))
    try:
        path = os.path.join(work, "model.onnx")
        with open(path, "wb") as f:
            f.write(data)
        cmd = [_paths.executable(), "import", path, "--ort", os.path.join(work, "dir")]
        if inputs:
            import onnx
            order = [i.name for i in onnx.load_from_string(data).graph.input if i.name in inputs]
            for k, name in enumerate(order):
                npy = os.path.join(work, "in%d.npy" % k)
                np.save(npy, np.asarray(inputs[name]))
                cmd += ["--input", npy]
        if cc:
            cmd += ["--cc", cc]
        if cflags is not None:
            cmd += ["--cflags", cflags]
        env = dict(os.environ, WHEREC_ORT_PYTHON=os.environ.get("WHEREC_ORT_PYTHON", sys.executable))
        r = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if r.returncode != 0:
            error = NoRegionError if _NO_REGION in r.stderr else _cache.CompileError
            raise error("wherec import --ort failed (status %d): %s" % (r.returncode, r.stderr.strip()[-4000:]))
        try:
            os.rename(os.path.join(work, "dir"), out)
        except OSError:  # another process made it first: theirs serves
            if not os.path.exists(os.path.join(out, "kernels.so")):
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out


def provider_options(directory: str, claim: str = "measured", report: Optional[str] = None) -> Dict[str, str]:
    """The provider's options for a directory of build(): its manifest, its kernels, the
    claim policy ("measured": the regions timed faster; "all": every region found)."""
    options = {"manifest": os.path.join(directory, "kernels.where.json"),
               "kernels": os.path.join(directory, "kernels.so"), "claim": claim}
    if report:
        options["report"] = report
    return options


def session(model, claim: str = "measured", inputs: Optional[Dict[str, "object"]] = None,
            sess_options=None, report: Optional[str] = None, **session_options):
    """An onnxruntime.InferenceSession of model (a path or bytes) with wherec's provider:
    build(model, inputs) through the cache, then the provider's devices added with its
    options. session_options set attributes of the SessionOptions (intra_op_num_threads=2,
    graph_optimization_level=...); sess_options gives one of your own instead. Nodes the
    provider does not claim run on onnxruntime's CPU provider; a model without any
    element-wise region runs on it alone, with a warning (NoRegionError from build())."""
    import warnings
    import onnxruntime as ort
    so = sess_options if sess_options is not None else ort.SessionOptions()
    for key, value in session_options.items():
        if not hasattr(so, key):
            raise TypeError("onnxruntime.SessionOptions has no attribute %r" % key)
        setattr(so, key, value)
    if inputs is None and _dynamic_inputs(model):
        warnings.warn("wherec: %s has inputs of dynamic shape (%s); its regions are timed at made-up "
                      "extents (32, the first 1): pass inputs= with real ones for the claim policy to "
                      "measure what you will run" % ("the model" if isinstance(model, (bytes, bytearray))
                                                     else os.fspath(model), ", ".join(_dynamic_inputs(model))),
                      RuntimeWarning, stacklevel=2)
    try:
        directory = build(model, inputs)
    except NoRegionError:
        warnings.warn("wherec: the model has no element-wise region; onnxruntime runs it alone",
                      RuntimeWarning, stacklevel=2)
        directory = None
    if directory is not None:
        so.add_provider_for_devices(devices(ort), provider_options(directory, claim, report))
    target = model if isinstance(model, (bytes, bytearray)) else os.fspath(model)
    return ort.InferenceSession(target, so)
